/**
 * Buying a gift card (/checkout/giftcard): the buyer's e-mail, the recipient, a message, a delivery date and payment.
 * The purchase is an order like any other — placed by the checkout's placeOrder (one payment attempt per idempotency
 * key, the payment voided when the order's transaction rolls back) from a one-line cart of its own, never the
 * visitor's cart — and the card is issued inside the order's transaction (ctx.withinOrder): the order, the card and
 * the recipient's e-mail (due on the delivery date) are written together or not at all.
 *
 * The one-line cart's token is derived from the idempotency key and the sku, so a double click or a retry finds the
 * same cart (and the same attempt) rather than buying twice.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { checkCardInput } from '../../core/checkout/card';
import { validateEmail } from '../../core/email';
import { ProductType } from '../../core/enums';
import { checkDeliveryDate } from '../../core/giftCard';
import { err, ok, type Result } from '../../core/result';
import { inTransaction } from '../../platform/db/transaction';
import type { Database } from '../../platform/db/tables';
import { getProduct } from '../catalog';
import { placeOrder, type CheckoutContext } from '../checkout';
import { issueGiftCard } from './giftCards';
import type { PlacedOrder } from '../orders';
import type { Product } from '../site';
import type { Site } from '../site';

type Db = Kysely<Database>;

export const GIFT_CARD_PURCHASE_MESSAGES = {
  fixDetails: 'Please check the details marked below.',
  required: 'Required',
  chooseAmount: 'Choose an amount.',
  nameTooLong: 'Please keep the name under 100 characters.',
  messageTooLong: 'Please keep the message under 1000 characters.',
} as const;

export const RECIPIENT_NAME_MAX_LENGTH = 100;
export const GIFT_MESSAGE_MAX_LENGTH = 1000;

/** The form's fields (one flat form, posted without JavaScript). */
export interface GiftCardPurchaseValues {
  sku: string;
  email: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** 'YYYY-MM-DD' in the site's time zone; '' for today. */
  deliveryDate: string;
}

export type GiftCardPurchaseField = keyof GiftCardPurchaseValues | 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'payment';

export interface GiftCardPurchaseFailure {
  /** The checkout's failure type, or INVALID_DETAILS for this form's own checks. */
  type: string;
  message: string;
  fields: Partial<Record<GiftCardPurchaseField, string>>;
  /** The HTTP status the page answers with. */
  status: number;
}

/** The gift-card product of this site, or undefined (another type, unknown id). */
export async function giftCardProduct(db: Db, siteId: string, productId: string): Promise<Product | undefined> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(productId)) return undefined;
  const product = await getProduct(db, siteId, productId);
  return product && product.productType === ProductType.GIFT_CARD ? (product as Product) : undefined;
}

/** The form's own checks (the core's rules); the payment is the provider's to judge. */
export function checkGiftCardPurchase(
  product: Product,
  values: GiftCardPurchaseValues,
  timeZone: string,
  now: Date,
): Result<
  {
    sku: string;
    amountCents: number;
    email: string;
    recipientEmail: string;
    delivery: { date: string; sendAfter: Date | null };
  },
  Partial<Record<GiftCardPurchaseField, string>>
> {
  const fields: Partial<Record<GiftCardPurchaseField, string>> = {};
  const variant =
    product.variants.find((v) => v.sku === values.sku) ??
    (product.variants.length === 1 ? product.variants[0] : undefined);
  if (!variant) fields.sku = GIFT_CARD_PURCHASE_MESSAGES.chooseAmount;
  const email = checkEmail(values.email);
  if (!email.ok) fields.email = email.error;
  const recipientEmail = checkEmail(values.recipientEmail);
  if (!recipientEmail.ok) fields.recipientEmail = recipientEmail.error;
  if (values.recipientName.trim() === '') fields.recipientName = GIFT_CARD_PURCHASE_MESSAGES.required;
  else if (values.recipientName.trim().length > RECIPIENT_NAME_MAX_LENGTH)
    fields.recipientName = GIFT_CARD_PURCHASE_MESSAGES.nameTooLong;
  if (values.message.length > GIFT_MESSAGE_MAX_LENGTH) fields.message = GIFT_CARD_PURCHASE_MESSAGES.messageTooLong;
  const delivery = checkDeliveryDate(values.deliveryDate, timeZone, now);
  if (!delivery.ok) fields.deliveryDate = delivery.error;
  if (Object.keys(fields).length > 0 || !variant || !email.ok || !recipientEmail.ok || !delivery.ok) return err(fields);
  return ok({
    sku: variant.sku,
    amountCents: variant.price,
    email: email.value,
    recipientEmail: recipientEmail.value,
    delivery: delivery.value,
  });
}

function checkEmail(value: string): Result<string, string> {
  if (value.trim() === '') return err(GIFT_CARD_PURCHASE_MESSAGES.required);
  const checked = validateEmail(value);
  return checked.ok ? ok(checked.value) : err(checked.error);
}

export interface GiftCardPurchaseInput {
  product: Product;
  values: GiftCardPurchaseValues;
  idempotencyKey: string;
  payment: Record<string, string>;
}

/** Buys the gift card: one order, one payment, one card and its e-mail — or nothing at all. */
export async function buyGiftCard(
  db: Db,
  site: Site,
  input: GiftCardPurchaseInput,
  ctx: Omit<CheckoutContext, 'withinOrder'> & { shopUrl: string },
): Promise<Result<PlacedOrder, GiftCardPurchaseFailure>> {
  const now = ctx.now ?? new Date();
  const checked = checkGiftCardPurchase(input.product, input.values, site.settings.timeZone, now);
  // The test provider's card fields are checked with the rest, so that one post lists every field to mend.
  const card = ctx.payments.name === 'test' ? checkCardInput(input.payment, now) : ok(undefined);
  if (!checked.ok || !card.ok) {
    const fields = { ...(checked.ok ? {} : checked.error), ...(card.ok ? {} : card.error) };
    return err({ type: 'INVALID_DETAILS', message: GIFT_CARD_PURCHASE_MESSAGES.fixDetails, fields, status: 400 });
  }
  const { sku, amountCents, email, recipientEmail, delivery } = checked.value;

  const token = await oneLineCart(db, site.id, input.idempotencyKey, input.product.id, sku, amountCents, now);
  const placed = await placeOrder(
    db,
    site,
    token,
    { email, idempotencyKey: input.idempotencyKey, payment: input.payment },
    {
      ...ctx,
      issuesGiftCards: true,
      withinOrder: async (trx, order, cart) => {
        for (const { entry } of cart.lines) {
          for (let i = 0; i < entry.quantity; i++) {
            await issueGiftCard(trx, site, {
              amountCents: entry.purchasePriceCents,
              recipientName: input.values.recipientName.trim(),
              recipientEmail,
              message: input.values.message.trim(),
              purchaserEmail: email,
              orderId: order.id,
              delivery,
              shopUrl: ctx.shopUrl,
              now,
            });
          }
        }
        return ok(undefined);
      },
    },
  );
  if (placed.ok) return placed;
  const failure = placed.error;
  return err({
    type: failure.type,
    message: failure.message,
    fields: (failure.fields ?? {}) as Partial<Record<GiftCardPurchaseField, string>>,
    status:
      failure.type === 'PAYMENT_DECLINED'
        ? 402
        : failure.type === 'PAYMENT_FAILED'
          ? 502
          : failure.type === 'IN_PROGRESS'
            ? 409
            : 400,
  });
}

/**
 * The purchase's own cart (never the visitor's): its token derived from the site, the idempotency key and the sku,
 * so the same attempt always names the same cart. Written once (a second request finds it as it is).
 */
async function oneLineCart(
  db: Db,
  siteId: string,
  idempotencyKey: string,
  productId: string,
  sku: string,
  unitPrice: number,
  now: Date,
): Promise<string> {
  const token = derived(`gift-card-cart:${siteId}:${idempotencyKey}:${sku}`);
  const time = now.toISOString();
  await inTransaction<void, never>(db, async (trx) => {
    await trx
      .insertInto('carts')
      .values({
        id: token,
        site_id: siteId,
        created_at: time,
        updated_at: time,
        is_purchased: 0,
        order_id: null,
        claim: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await trx
      .insertInto('cart_entries')
      .values({
        id: derived(`gift-card-entry:${token}`),
        cart_id: token,
        item_id: productId,
        sku,
        quantity: 1,
        additional_fields: '',
        unit_price: unitPrice,
        created_at: time,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return ok(undefined);
  });
  return token;
}

const derived = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 22);
