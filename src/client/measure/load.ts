/**
 * Loads the measurement module (./index.ts) once the page has loaded and the browser is idle, so it is never part of
 * the first render. Both browser entries (main, checkout) call it; the checkout page has no cart store.
 */
import { isInSiteEditor } from '../../core/siteEditor';
import { MEASUREMENT_IDLE_TIMEOUT_MS } from '../../core/timing';
import type { CartStore } from '../cartStore';

export function loadMeasurement(cart?: CartStore): void {
  // Whether the page is in the site editor's frame is read here, so the measurement chunk needs no more code.
  const inSiteEditor = isInSiteEditor(window.frameElement);
  const measure = () => void import('./index').then((m) => m.startMeasurement({ cart, inSiteEditor })).catch(() => {});
  const whenIdle = () =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(measure, { timeout: MEASUREMENT_IDLE_TIMEOUT_MS })
      : setTimeout(measure, 1);
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
