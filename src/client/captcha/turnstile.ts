/**
 * Cloudflare Turnstile: its script, loaded with `render=explicit`, draws the widget in the form's CAPTCHA box; the
 * widget calls back with a token when the visitor passed (`callback`), and again with none when the token expired
 * (it refreshes itself) or an error happened. `reset` makes it ask again, after a failed submission.
 */
import { loadScript, waitFor } from './loadScript';

interface TurnstileOptions {
  sitekey: string;
  action: string;
  callback: (token: string) => void;
  'expired-callback': () => void;
  'error-callback': () => boolean;
  'timeout-callback': () => void;
  /** The token goes in the JSON submission, not in a hidden field of the form. */
  'response-field': boolean;
}

interface Turnstile {
  render(container: HTMLElement, options: TurnstileOptions): string | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

export interface TurnstileWidget {
  reset(): void;
  remove(): void;
}

export async function renderTurnstile(
  scriptSrc: string,
  container: HTMLElement,
  settings: { siteKey: string; action: string; onToken: (token: string | null) => void },
): Promise<TurnstileWidget> {
  await loadScript(scriptSrc);
  const turnstile = await waitFor(() => window.turnstile);
  const id = turnstile.render(container, {
    sitekey: settings.siteKey,
    action: settings.action,
    callback: (token) => settings.onToken(token),
    'expired-callback': () => settings.onToken(null),
    'error-callback': () => {
      settings.onToken(null);
      return true;
    },
    'timeout-callback': () => settings.onToken(null),
    'response-field': false,
  });
  if (id === undefined) throw new Error('Turnstile did not render');
  return { reset: () => turnstile.reset(id), remove: () => turnstile.remove(id) };
}
