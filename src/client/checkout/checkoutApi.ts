/**
 * The checkout island's two calls: the quote (every amount is the server's) and placing the order with the page's
 * idempotency key. Answers are read defensively: a proxy's error page or a dropped connection is an outcome too.
 */
import type { CheckoutChoices, CheckoutQuote, PlaceOrderInput } from '../../modules/orders/orderTypes';
import { CHECKOUT_ORDERS_API, CHECKOUT_QUOTE_API, SUBSCRIPTION_QUOTE_API } from '../../ui/checkout/paths';
import { failureMessage } from '../../core/addToCartErrors';
import { CRUMB_FAILURE_CODE } from '../../core/crumb';
import { cookiesEnabled, crumbHeaders } from '../crumb';

export type QuoteOutcome = { ok: true; quote: CheckoutQuote } | { ok: false; network: boolean };

export async function fetchQuote(choices: CheckoutChoices, fetchImpl: typeof fetch = fetch): Promise<QuoteOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(CHECKOUT_QUOTE_API, jsonPost(choices));
  } catch {
    return { ok: false, network: true };
  }
  if (!response.ok) return { ok: false, network: false };
  try {
    return { ok: true, quote: (await response.json()) as CheckoutQuote };
  } catch {
    return { ok: false, network: false };
  }
}

export type PlaceOutcome =
  | { kind: 'placed'; orderUrl: string }
  /** No answer, or one that says nothing about the order (a 5xx page, 429): the same key is sent again. */
  | { kind: 'unknown'; network: boolean; message: string | null }
  /**
   * The server refused the order and remembers that under the key (a refusal is its outcome): trying again needs a
   * new key. `fields`: field → message; `lines`: sold-out cart lines.
   */
  | {
      kind: 'refused';
      message: string;
      fields: Record<string, string>;
      lines: { entryId: string; message: string }[];
    };

/** Error codes after which the key's outcome is settled (src/platform/http/errors.ts); anything else may be retried as is. */
const SETTLED_CODES: ReadonlySet<string> = new Set([
  'checkout-refused',
  'out-of-stock',
  'payment-declined',
  'payment-failed',
  'checkout-conflict',
  'idempotency-mismatch',
  'invalid-input',
]);

export async function postOrder(input: PlaceOrderInput, fetchImpl: typeof fetch = fetch): Promise<PlaceOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(CHECKOUT_ORDERS_API, jsonPost(input));
  } catch {
    return { kind: 'unknown', network: true, message: null };
  }
  const body = await response.json().catch(() => null as unknown);
  const answer = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (response.ok && typeof answer.orderUrl === 'string') return { kind: 'placed', orderUrl: answer.orderUrl };
  // §8: the crumb failure's own texts; nothing was placed, so the same key may be sent again after a reload.
  if (answer.code === CRUMB_FAILURE_CODE)
    return {
      kind: 'unknown',
      network: false,
      message: failureMessage({ kind: 'crumb', cookiesEnabled: cookiesEnabled() }),
    };
  const message = typeof answer.message === 'string' && answer.message.trim() !== '' ? answer.message : null;
  if (typeof answer.code !== 'string' || !SETTLED_CODES.has(answer.code) || message === null) {
    return { kind: 'unknown', network: false, message };
  }
  return { kind: 'refused', message, fields: textRecord(answer.fields), lines: refusedLines(answer.lines) };
}

function textRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function refusedLines(value: unknown): { entryId: string; message: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((line: unknown) => {
    if (typeof line !== 'object' || line === null) return [];
    const { entryId, message } = line as { entryId?: unknown; message?: unknown };
    return typeof entryId === 'string' && typeof message === 'string' ? [{ entryId, message }] : [];
  });
}

const jsonPost = (body: unknown): RequestInit => ({
  method: 'POST',
  credentials: 'same-origin',
  headers: { 'content-type': 'application/json', accept: 'application/json', ...crumbHeaders() },
  body: JSON.stringify(body),
});

/**
 * A new idempotency key: 128 random bits, base64url. getRandomValues, unlike randomUUID, also works on a shop served
 * over plain http (not a secure context).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The subscription checkout's totals for the choices typed so far (its cart is named by the page's token). */
export async function fetchSubscriptionQuote(
  cartToken: string,
  choices: CheckoutChoices,
  fetchImpl: typeof fetch = fetch,
): Promise<QuoteOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(SUBSCRIPTION_QUOTE_API, jsonPost({ ...choices, cartToken }));
  } catch {
    return { ok: false, network: true };
  }
  if (!response.ok) return { ok: false, network: false };
  try {
    return { ok: true, quote: (await response.json()) as CheckoutQuote };
  } catch {
    return { ok: false, network: false };
  }
}
