/**
 * How an island reports one of §7's analytics events: a `vitrine:analytics` DOM event, which the measurement module
 * (src/client/measure/commerce.ts) sends when it has loaded. Islands never import the measurement code.
 */
export function trackEvent(event: string, data: Record<string, unknown> = {}): void {
  document.dispatchEvent(new CustomEvent('vitrine:analytics', { detail: { event, data } }));
}
