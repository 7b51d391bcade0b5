import { useEffect, type RefObject } from 'react';

/**
 * Opens a <dialog> as a modal on mount (showModal: focus stays inside, the page behind is inert), focuses the first
 * element matching `focusSelector` inside it, and on unmount closes it and gives focus back to what had it before.
 * With `onClickOutside`, a click on the backdrop (the dialog element itself, whose box fills it) calls it; keyboard
 * users close with Escape or the dialog's own close button.
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  focusSelector: string,
  onClickOutside?: () => void,
): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>(focusSelector)?.focus();
    const onClick = (event: MouseEvent) => {
      if (event.target === dialog) onClickOutside?.();
    };
    dialog.addEventListener('click', onClick);
    return () => {
      dialog.removeEventListener('click', onClick);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
    // Once per dialog: the selector only chooses the first focus; onClickOutside closes the dialog, whichever render it came from.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
