/**
 * A server-rendered form's messages follow the shopper's fixes (the gift-card checkout, a plain form of the server's
 * that no React root hydrates): as a marked field becomes right by the core's rules, its message, its mark and its
 * line in the summary above the form go, and the summary with its last line. The server checks everything again on
 * submit; nothing here adds a message.
 *
 * The form carries `data-follow-errors="{prefix}"`: each field's control is `#{prefix}-{name}`, its message
 * `#{prefix}-{name}-error`, the summary `[data-error-summary="{prefix}"]` with one link per field to `#{prefix}-{name}`.
 */
import { checkCardInput } from '../../core/checkout/card';
import { validateEmail } from '../../core/email';

const CARD_FIELDS: ReadonlySet<string> = new Set(['cardNumber', 'cardExpiry', 'cardCvc']);
const EMAIL_FIELDS: ReadonlySet<string> = new Set(['email', 'recipientEmail']);

/** Whether a field marked wrong is right now (only the rules the browser can apply; the rest: given at all). */
export function fieldFixed(name: string, read: (name: string) => string, now: Date): boolean {
  const value = read(name);
  if (EMAIL_FIELDS.has(name)) return validateEmail(value).ok;
  if (CARD_FIELDS.has(name)) {
    const card = checkCardInput(
      { cardNumber: read('cardNumber'), cardExpiry: read('cardExpiry'), cardCvc: read('cardCvc') },
      now,
    );
    return card.ok || (card.error as Record<string, string | undefined>)[name] === undefined;
  }
  // A message too long cannot be typed (maxLength); a date, a name, an amount: given.
  return name === 'message' || value.trim() !== '';
}

export function followErrors(form: HTMLFormElement): void {
  const prefix = form.dataset.followErrors ?? '';
  const read = (name: string): string => {
    const value = new FormData(form).get(name);
    return typeof value === 'string' ? value : '';
  };
  const onInput = (event: Event) => {
    const target = event.target;
    if (
      !(
        target instanceof HTMLInputElement ||
        target instanceof HTMLTextAreaElement ||
        target instanceof HTMLSelectElement
      ) ||
      target.name === ''
    )
      return;
    const name = target.name;
    const message = document.getElementById(`${prefix}-${name}-error`);
    if (!message || !fieldFixed(name, read, new Date())) return;
    message.remove();
    for (const control of form.querySelectorAll<HTMLElement>(`[aria-describedby~="${prefix}-${name}-error"]`)) {
      const rest = (control.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter((id) => id !== '' && id !== `${prefix}-${name}-error`);
      if (rest.length > 0) control.setAttribute('aria-describedby', rest.join(' '));
      else control.removeAttribute('aria-describedby');
    }
    document.getElementById(`${prefix}-${name}`)?.removeAttribute('aria-invalid');
    const summary = document.querySelector<HTMLElement>(`[data-error-summary="${prefix}"]`);
    if (!summary) return;
    summary.querySelector(`a[href="#${prefix}-${name}"]`)?.closest('li')?.remove();
    if (summary.querySelector('li') === null) summary.remove();
  };
  form.addEventListener('input', onInput);
  form.addEventListener('change', onInput);
}
