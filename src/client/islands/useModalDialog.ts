import { useEffect, type RefObject } from 'react';

/**
 * Opens a <dialog> as a modal on mount (showModal: focus stays inside, the page behind is inert), focuses the first
 * element matching `focusSelector` inside it, and on unmount closes it and gives focus back to what had it before.
 */
export function useModalDialog(ref: RefObject<HTMLDialogElement | null>, focusSelector: string): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>(focusSelector)?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
    // Once per dialog: the selector only chooses the first focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
