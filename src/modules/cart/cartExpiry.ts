/**
 * Expiry of the carts nobody will come back to: every first add without a cookie makes a cart, so without this the
 * carts table only grows. An open cart untouched (updated_at: every write bumps it) for the cart cookie's lifetime
 * goes, with its entries (ON DELETE CASCADE); an empty one goes after a day. Purchased carts (is_purchased = 1) and
 * any cart an order names stay: orders keep them. Run by the `cart-expiry` job of `vitrine serve` and by
 * `vitrine carts expire`; see docs/architecture.md.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables';

/** The cart cookie's lifetime (30 days since the last add): after it no browser can name the cart any more. */
export const OPEN_CART_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** An empty cart (every line removed) is kept one day: its shopper's cookie then names no cart, as after a purchase. */
export const EMPTY_CART_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Carts removed per statement: each round is one short DELETE, so adds and checkouts never wait long. */
export const CART_EXPIRY_BATCH_SIZE = 500;

export interface ExpireCartsOptions {
  batchSize?: number;
  openLifetimeMs?: number;
  emptyLifetimeMs?: number;
}

export interface ExpireCartsResult {
  /** Carts removed (their entries went with them). */
  removed: number;
  /** DELETE statements run. */
  rounds: number;
}

/**
 * Removes the expired carts as of `now`, `batchSize` per DELETE, until a round removes fewer than that. Each round
 * picks the oldest expired carts and checks the conditions again on the rows it deletes, so a cart an add touches
 * meanwhile (on PostgreSQL it waits for the add's row lock, then sees the new updated_at) is kept.
 */
export async function expireCarts(
  db: Kysely<Database>,
  now: Date,
  options: ExpireCartsOptions = {},
): Promise<ExpireCartsResult> {
  const batchSize = options.batchSize ?? CART_EXPIRY_BATCH_SIZE;
  if (!(Number.isInteger(batchSize) && batchSize > 0))
    throw new RangeError(`batchSize must be a whole number above 0, not ${batchSize}`);
  const openBefore = new Date(now.getTime() - (options.openLifetimeMs ?? OPEN_CART_LIFETIME_MS)).toISOString();
  const emptyBefore = new Date(now.getTime() - (options.emptyLifetimeMs ?? EMPTY_CART_LIFETIME_MS)).toISOString();
  const expired = (eb: ExpressionBuilder<Database, 'carts'>) =>
    eb.and([
      eb('carts.is_purchased', '=', 0),
      eb.or([
        eb('carts.updated_at', '<', openBefore),
        eb.and([
          eb('carts.updated_at', '<', emptyBefore),
          eb.not(
            eb.exists(
              eb.selectFrom('cart_entries').select('cart_entries.id').whereRef('cart_entries.cart_id', '=', 'carts.id'),
            ),
          ),
        ]),
      ]),
      eb.not(eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.cart_id', '=', 'carts.id'))),
    ]);

  let removed = 0;
  let rounds = 0;
  for (;;) {
    const result = await db
      .deleteFrom('carts')
      .where('carts.id', 'in', (eb) =>
        eb.selectFrom('carts').select('carts.id').where(expired).orderBy('carts.updated_at').limit(batchSize),
      )
      .where(expired)
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    removed += deleted;
    rounds += 1;
    if (deleted < batchSize) return { removed, rounds };
  }
}
