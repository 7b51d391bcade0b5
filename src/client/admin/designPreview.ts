/**
 * The design editor's preview as the owner edits (/admin/design, src/ui/admin/Design.tsx): each change of the look's
 * form posts it to the preview frame through its own Preview button (`formaction`, `formtarget`), a moment after the
 * last keystroke. Without JavaScript the owner presses Preview; nothing here is needed for the form to work.
 */

/** How long after the last change the frame is asked again: a colour typed digit by digit is one request. */
export const LIVE_PREVIEW_DELAY_MS = 400;

export function startLivePreview(doc: Document = document): void {
  // The look form and its Preview button (data-live-preview, formtarget: src/ui/admin/Design.tsx).
  const form = doc.querySelector<HTMLFormElement>('form[data-live-preview]');
  const preview = form?.querySelector<HTMLButtonElement>('button[formtarget]');
  if (!form || !preview) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const post = () => {
    clearTimeout(timer);
    timer = setTimeout(() => form.requestSubmit(preview), LIVE_PREVIEW_DELAY_MS);
  };
  form.addEventListener('input', (event) => {
    const input = event.target;
    // A picked colour is written into its text field, which the server reads first when it changed.
    if (input instanceof HTMLInputElement && input.type === 'color' && input.name.endsWith('Picker')) {
      const text = form.elements.namedItem(input.name.slice(0, -'Picker'.length));
      if (text instanceof HTMLInputElement) text.value = input.value;
    }
    post();
  });
  form.addEventListener('change', post);
}
