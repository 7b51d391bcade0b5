/** When code that is not needed at once should load: the browser's first idle moment, or the shopper reaching a part. */

/** Runs `run` once the browser is idle (at the latest after 3 s). */
export const whenIdle = (run: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 3000 });
  else setTimeout(run, 200);
};

/** Runs `start` as soon as the pointer or focus reaches `element` (a display: contents root still hears bubbling events). */
export const whenReached = (element: HTMLElement, start: () => void): void => {
  for (const type of ['pointerover', 'focusin']) element.addEventListener(type, start, { once: true });
};
