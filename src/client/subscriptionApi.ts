/**
 * The subscription call of §7: POST /api/3/commerce/cart/subscription → { cartToken }, then the page goes to the
 * subscription checkout. A refusal answers like the cart calls ({ message, code, fields }).
 */
import type { AddRequestFailure } from '../core/addToCartErrors';
import { CRUMB_FAILURE_CODE } from '../core/crumb';
import { cookiesEnabled, crumbHeaders } from './crumb';

export const SUBSCRIPTION_CART_API = '/api/3/commerce/cart/subscription';

export interface SubscriptionCartPayload {
  itemId: string;
  sku: string;
  qty: number;
  /** JSON text of the form's answers, '' when none. */
  additionalFields: string;
  subscriptionOptionId?: string;
}

export type SubscriptionCartResult =
  { ok: true; cartToken: string } | { ok: false; failure: AddRequestFailure; fields?: Record<string, string> };

export async function postSubscriptionCart(
  payload: SubscriptionCartPayload,
  fetchImpl: typeof fetch = fetch,
): Promise<SubscriptionCartResult> {
  let response: Response;
  try {
    response = await fetchImpl(SUBSCRIPTION_CART_API, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...crumbHeaders() },
      body: JSON.stringify(payload),
    });
  } catch {
    return { ok: false, failure: { kind: 'network' } };
  }
  const body = (await response.json().catch(() => ({}))) as {
    cartToken?: unknown;
    message?: unknown;
    code?: unknown;
    fields?: unknown;
  };
  if (response.ok && typeof body.cartToken === 'string' && body.cartToken !== '')
    return { ok: true, cartToken: body.cartToken };
  if (body.code === CRUMB_FAILURE_CODE)
    return { ok: false, failure: { kind: 'crumb', cookiesEnabled: cookiesEnabled() } };
  const fields =
    typeof body.fields === 'object' && body.fields !== null ? (body.fields as Record<string, string>) : undefined;
  return {
    ok: false,
    failure: {
      kind: 'http',
      status: response.ok ? 502 : response.status,
      serverMessage: typeof body.message === 'string' ? body.message : null,
    },
    ...(fields ? { fields } : {}),
  };
}
