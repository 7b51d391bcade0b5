/**
 * Places an order through the cart and checkout routes, as a shopper does (the app should send crumbs: sendCrumbs),
 * for suites that need real orders (the report, customers).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/platform/db/tables';
import { NEW_YORK, SHOP_HOST, TEST_CARD } from './checkoutSite';

export interface PlacedOrder {
  id: string;
  number: number;
  total: number;
}

export async function placeOrder(
  app: FastifyInstance,
  db: Kysely<Database>,
  lines: { itemId: string; sku: string; quantity: number }[],
  options: { key: string; email?: string; firstName?: string; lastName?: string },
): Promise<PlacedOrder> {
  let cart = '';
  for (const line of lines) {
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cart ? { cookie: cart } : {}) },
      payload: JSON.stringify({ ...line, additionalFields: '' }),
    });
    if (added.statusCode !== 200) throw new Error(`add to cart: ${added.statusCode} ${added.body}`);
    const cookie = added.cookies.find((c) => c.name === 'CART');
    if (cookie) cart = `CART=${cookie.value}`;
  }
  const placed = await app.inject({
    method: 'POST',
    url: '/api/commerce/checkout/orders',
    headers: { host: SHOP_HOST, 'content-type': 'application/json', cookie: cart },
    payload: JSON.stringify({
      idempotencyKey: `placed-test-order-${options.key}`,
      email: options.email ?? 'ada@example.com',
      shippingAddress: {
        ...NEW_YORK,
        firstName: options.firstName ?? NEW_YORK.firstName,
        lastName: options.lastName ?? NEW_YORK.lastName,
      },
      shippingOptionId: 'standard',
      payment: TEST_CARD,
    }),
  });
  if (placed.statusCode !== 201) throw new Error(`checkout: ${placed.statusCode} ${placed.body}`);
  const { order } = placed.json() as { order: { id: string } };
  const row = await db
    .selectFrom('orders')
    .select(['id', 'number', 'grand_total'])
    .where('id', '=', order.id)
    .executeTakeFirstOrThrow();
  return { id: row.id, number: row.number, total: Number(row.grand_total) };
}
