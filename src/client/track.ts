/**
 * How an island reports one of §7's analytics events: a `vitrine:analytics` DOM event, which the measurement module
 * (src/client/measure/commerce.ts) sends when it has loaded. Islands never import the measurement code, nor it this.
 * Events reported before it listens (it loads when the browser is idle after `load`) wait here and are told again
 * when it says `vitrine:measurement-ready`.
 */
export const MEASUREMENT_READY_EVENT = 'vitrine:measurement-ready';

/** Most events kept for the measurement module (null once it listens). */
const EARLY_EVENTS_MAX = 20;
/** Each a DOM event to dispatch: `vitrine:analytics` for §7's events, or a census call's own (quick view, overlay). */
let early: { type: string; detail: unknown }[] | null = [];

const tell = (type: string, detail: unknown) => document.dispatchEvent(new CustomEvent(type, { detail }));

function report(type: string, detail: unknown): void {
  if (!early) return void tell(type, detail);
  if (early.length < EARLY_EVENTS_MAX) early.push({ type, detail });
}

export function trackEvent(event: string, data: Record<string, unknown> = {}): void {
  report('vitrine:analytics', { event, data });
}

/**
 * A census call's event (src/client/measure/census.ts: `vitrine:quick-view` → RecordQuickView, `vitrine:overlay` →
 * /api/census/overlay), kept like the others until the measurement module listens: a quick view opened at once after
 * the page loaded is still counted.
 */
export function reportCensusEvent(
  type: 'vitrine:quick-view' | 'vitrine:overlay',
  detail?: Record<string, unknown>,
): void {
  report(type, detail);
}

if (typeof document !== 'undefined') {
  document.addEventListener(
    MEASUREMENT_READY_EVENT,
    () => {
      const list = early ?? [];
      early = null;
      for (const e of list) tell(e.type, e.detail);
    },
    { once: true },
  );
}
