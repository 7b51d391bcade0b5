/**
 * Loads a third-party CAPTCHA's script once per page: a <script src> element (the page's Content-Security-Policy
 * allows the provider's host on pages of sites that use it; nothing inline). A script that fails to load may be tried
 * again later (the next submission).
 */
const loading = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  const held = loading.get(src);
  if (held) return held;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener(
      'error',
      () => {
        loading.delete(src);
        script.remove();
        reject(new Error(`could not load ${src}`));
      },
      { once: true },
    );
    document.head.append(script);
  });
  loading.set(src, promise);
  return promise;
}

/** Waits until `read()` gives a value (a provider's global appears once its script ran), or gives up after `timeoutMs`. */
export function waitFor<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const value = read();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error('the CAPTCHA script did not start'));
      setTimeout(poll, 50);
    };
    poll();
  });
}
