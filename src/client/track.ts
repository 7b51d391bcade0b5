/**
 * How an island reports one of §7's analytics events: a `vitrine:analytics` DOM event, which the measurement module
 * (src/client/measure/commerce.ts) sends when it has loaded. Islands never import the measurement code, nor it this.
 * Events reported before it listens (it loads when the browser is idle after `load`) wait here and are told again
 * when it says `vitrine:measurement-ready`.
 */
export const MEASUREMENT_READY_EVENT = 'vitrine:measurement-ready';

/** Most events kept for the measurement module (null once it listens). */
const EARLY_EVENTS_MAX = 20;
let early: { event: string; data: Record<string, unknown> }[] | null = [];

const tell = (event: string, data: Record<string, unknown>) => document.dispatchEvent(new CustomEvent('vitrine:analytics', { detail: { event, data } }));

export function trackEvent(event: string, data: Record<string, unknown> = {}): void {
  if (!early) return void tell(event, data);
  if (early.length < EARLY_EVENTS_MAX) early.push({ event, data });
}

if (typeof document !== 'undefined') {
  document.addEventListener(
    MEASUREMENT_READY_EVENT,
    () => {
      const list = early ?? [];
      early = null;
      for (const e of list) tell(e.event, e.data);
    },
    { once: true },
  );
}
