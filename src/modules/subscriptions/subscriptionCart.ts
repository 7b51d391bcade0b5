/**
 * The subscription cart (§7 POST /api/3/commerce/cart/subscription): a cart of its own with the one line being
 * subscribed to, named by an unguessable token that the subscription checkout's URL carries. The shopper's own cart
 * (the CART cookie) is never touched. The §5 checks are the core's, as for an add; the option's (or product's) form
 * answers are checked with the core's form rules.
 */
import { SUBSCRIPTION_CART_MESSAGES } from '../../core/subscription';
import type { Kysely } from 'kysely';
import { checkAddToCart } from '../../core/addToCart';
import type { AddToCartError } from '../../core/addToCartErrors';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { checkProductFormAnswers, parseProductFormAnswers } from '../../core/forms/productForm';
import { purchasePriceCents } from '../../core/cartRules';
import { err, ok, type Result } from '../../core/result';
import { periodPrice } from '../../core/subscriptionPlan';
import { inTransaction } from '../../platform/db/transaction';
import type { Database } from '../../platform/db/tables';
import { randomToken } from '../../platform/randomToken';
import { getForm, getProduct } from '../catalog';
import { newCartRow, toProductForm } from '../cart';
import { toCoreProduct } from '../catalog';
import type { Site } from '../site';
import { productSubscription, subscriptionFormId } from './plans';

type Db = Kysely<Database>;

export interface SubscriptionCartInput {
  itemId: string;
  sku: string | null | undefined;
  /** Any JSON value: the core decides whether it is a quantity. */
  qty: unknown;
  /** Canonical JSON text, '' when none. */
  additionalFields: string;
  subscriptionOptionId?: string | undefined;
}

export type SubscriptionCartFailure =
  | AddToCartError
  | { type: 'PRODUCT_NOT_FOUND'; message: string }
  | { type: 'NOT_SUBSCRIBABLE'; message: string }
  | { type: 'OPTION_NOT_FOUND'; message: string }
  | { type: 'UNAVAILABLE'; message: string }
  | { type: 'INVALID_FORM_ANSWERS'; message: string; fields: Record<string, string> };

/** Checks the subscription like an add (§5) and stores it as a new subscription cart; a refusal stores nothing. */
export async function createSubscriptionCart(
  db: Db,
  site: Pick<Site, 'id' | 'currency'>,
  input: SubscriptionCartInput,
): Promise<Result<{ cartToken: string }, SubscriptionCartFailure>> {
  const currency = parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY;
  return inTransaction<{ cartToken: string }, SubscriptionCartFailure>(db, async (trx) => {
    const product = await getProduct(trx, site.id, input.itemId);
    if (!product) return err({ type: 'PRODUCT_NOT_FOUND', message: SUBSCRIPTION_CART_MESSAGES.productNotFound });
    const subscription = productSubscription(product, currency);
    if (!subscription) return err({ type: 'NOT_SUBSCRIBABLE', message: SUBSCRIPTION_CART_MESSAGES.notSubscribable });
    const optionId =
      input.subscriptionOptionId ?? (subscription.options.length > 0 ? subscription.options[0]?.id : undefined);
    const option = subscription.options.find((o) => o.id === optionId);
    if (subscription.options.length > 0 && !option)
      return err({ type: 'OPTION_NOT_FOUND', message: SUBSCRIPTION_CART_MESSAGES.optionNotFound });

    const core = toCoreProduct(product, currency);
    const sku = typeof input.sku === 'string' && input.sku.trim() !== '' ? input.sku : null;
    // The subscription cart is new: nothing of the sku is in it yet.
    const checked = checkAddToCart({
      product: core,
      selection: sku === null ? { attributes: {} } : { sku },
      quantityInput: input.qty,
      quantityInCart: 0,
    });
    if (!checked.ok) return checked;
    const { variant, quantity } = checked.value;

    const price = periodPrice({
      options: subscription.options,
      optionId: option?.id ?? null,
      variantPrice: { minorUnits: purchasePriceCents(variant), currency },
    });
    if (!price) return err({ type: 'UNAVAILABLE', message: SUBSCRIPTION_CART_MESSAGES.unavailable });

    let additionalFields = input.additionalFields;
    const formId = subscriptionFormId(product, option);
    const form = formId === undefined ? undefined : await getForm(trx, site.id, formId);
    if (form) {
      const answers = checkProductFormAnswers(toProductForm(form), parseProductFormAnswers(additionalFields));
      if (!answers.ok)
        return err({ type: 'INVALID_FORM_ANSWERS', message: answers.error.message, fields: answers.error.fields });
      additionalFields = answers.value;
    }

    const now = new Date().toISOString();
    const cart = newCartRow(site.id, now);
    const cartToken = cart.id;
    await trx.insertInto('carts').values(cart).execute();
    await trx
      .insertInto('cart_entries')
      .values({
        id: randomToken(12),
        cart_id: cartToken,
        item_id: product.id,
        sku: variant.sku,
        quantity,
        additional_fields: additionalFields,
        unit_price: price.minorUnits,
        created_at: now,
      })
      .execute();
    await trx
      .insertInto('subscription_carts')
      .values({
        cart_id: cartToken,
        site_id: site.id,
        item_id: product.id,
        sku: variant.sku,
        subscription_option_id: option?.id ?? null,
        created_at: now,
      })
      .execute();
    return ok({ cartToken });
  });
}
