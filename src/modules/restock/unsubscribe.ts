/**
 * The unsubscribe link of a restock e-mail (`/restock/unsubscribe?token=…`): its token (256 random bits, stored as its
 * sha256 when the e-mail is written) names one sign-up; following the link shows what it is for, and confirming
 * (a POST: link checkers and mail scanners that open links change nothing) removes it. A spent or made-up token
 * names nothing.
 */
import type { Kysely } from 'kysely';
import { variantLabel } from '../../core/restock';
import type { Database } from '../../platform/db/tables';
import * as catalog from '../catalog';
import { unsubscribeTokenHash } from './send';
import { EVERYTHING } from '../../core/publishing';

type Db = Kysely<Database>;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface RestockSubscription {
  email: string;
  productId: string;
  variantId: string;
  /** 'Speckled mug (Sage)', or the ids when the product is gone. */
  itemName: string;
}

async function describe(
  db: Db,
  siteId: string,
  row: { email: string; product_id: string; sku: string },
): Promise<RestockSubscription> {
  // Named even while it is off the storefront (a draft: issue 26).
  const product = await catalog.getProduct(db, siteId, row.product_id, EVERYTHING);
  const variant = product?.variants.find((v) => v.sku === row.sku);
  const itemName = product
    ? product.variantOptions.length > 0 && variant
      ? `${product.name} (${variantLabel(variant)})`
      : product.name
    : row.sku;
  return { email: row.email, productId: row.product_id, variantId: row.sku, itemName };
}

/** The sign-up an unsubscribe token names (on this site), or null. */
export async function findRestockSubscription(
  db: Db,
  siteId: string,
  token: unknown,
): Promise<RestockSubscription | null> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('restock_sign_ups')
    .select(['email', 'product_id', 'sku'])
    .where('site_id', '=', siteId)
    .where('unsubscribe_token_hash', '=', unsubscribeTokenHash(token))
    .executeTakeFirst();
  return row ? describe(db, siteId, row) : null;
}

/** Removes the sign-up the token names; what it was, or null when the token names none (already removed). */
export async function unsubscribeRestock(db: Db, siteId: string, token: unknown): Promise<RestockSubscription | null> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
  const removed = await db
    .deleteFrom('restock_sign_ups')
    .where('site_id', '=', siteId)
    .where('unsubscribe_token_hash', '=', unsubscribeTokenHash(token))
    .returning(['email', 'product_id', 'sku'])
    .executeTakeFirst();
  return removed ? describe(db, siteId, removed) : null;
}
