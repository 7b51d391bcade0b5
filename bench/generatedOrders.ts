/**
 * Generated orders for the owner's-area bench (issue 25: the orders list at 100,000 orders): `count` orders of a shop
 * made by bench/generatedSite.ts, written straight into the tables in batches (placing them one by one through
 * checkout would take an hour and measure nothing the bench asks). The same count always makes the same orders: a
 * quarter as many customers as orders, one to three lines each, a day apart every 100 orders back from 2026-11-01;
 * nine in ten paid (one in five of those fulfilled), one in twenty refunded, one in twenty awaiting payment.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../src/platform/db/tables';

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Dennis'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Hamilton',
  'Ritchie',
];
const BATCH = 500;

/** The e-mail of the generated orders' `customer`-th customer (0 to a quarter of the orders' count). */
export function generatedEmail(customer: number): string {
  const first = FIRST[customer % FIRST.length]!;
  const last = LAST[Math.floor(customer / FIRST.length) % LAST.length]!;
  return `${first}.${last}${customer}@example.com`.toLowerCase();
}

export async function insertGeneratedOrders(
  db: Kysely<Database>,
  siteId: string,
  products: number,
  count: number,
  progress: (done: number) => void = () => {},
): Promise<void> {
  const start = Date.UTC(2026, 10, 1);
  for (let from = 1; from <= count; from += BATCH) {
    const orders: Insertable<Database['orders']>[] = [];
    const lines: Insertable<Database['order_lines']>[] = [];
    for (let n = from; n < Math.min(from + BATCH, count + 1); n++) {
      const customer = n % Math.max(1, Math.floor(count / 4));
      const first = FIRST[customer % FIRST.length]!;
      const last = LAST[Math.floor(customer / FIRST.length) % LAST.length]!;
      const at = new Date(start - (count - n) * 864_000).toISOString();
      const status = n % 20 === 0 ? 'refunded' : n % 20 === 1 ? 'awaiting-payment' : 'paid';
      const id = `bench-order-${siteId}-${n}`;
      let subtotal = 0;
      for (let position = 0; position < 1 + (n % 3); position++) {
        const product = 1 + ((n * 7919 + position * 104_729) % products);
        const quantity = 1 + (n % 2);
        const unitPrice = 1000 + (product % 50) * 100;
        subtotal += quantity * unitPrice;
        lines.push({
          order_id: id,
          position,
          item_id: `p${product}`,
          sku: `p${product}-0-0`,
          title: `Product ${product}`,
          product_type: 1,
          attributes: '{}',
          additional_fields: '',
          additional_fields_summary: '[]',
          image: null,
          quantity,
          unit_price: unitPrice,
          line_total: quantity * unitPrice,
        });
      }
      orders.push({
        id,
        site_id: siteId,
        number: n,
        cart_id: `bench-cart-${siteId}-${n}`,
        email: generatedEmail(customer),
        status,
        currency: 'USD',
        subtotal,
        shipping: 600,
        tax: 0,
        discount: 0,
        grand_total: subtotal + 600,
        prices_include_tax: 0,
        tax_name: 'Sales tax',
        shipping_address: JSON.stringify({
          firstName: first,
          lastName: last,
          address1: `${n} Main Street`,
          address2: '',
          city: 'New York',
          country: 'US',
          region: 'NY',
          postalCode: '10001',
        }),
        shipping_option: JSON.stringify({ id: 'standard', name: 'Standard', amount: 600 }),
        coupon_code: null,
        payment_provider: 'test',
        fulfilment: status === 'paid' && n % 5 === 0 ? 'fulfilled' : 'pending',
        created_at: at,
        updated_at: at,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('orders').values(orders).execute();
      for (let i = 0; i < lines.length; i += BATCH)
        await trx
          .insertInto('order_lines')
          .values(lines.slice(i, i + BATCH))
          .execute();
    });
    progress(Math.min(from + BATCH - 1, count));
  }
  await db
    .insertInto('order_counters')
    .values({ site_id: siteId, last_number: count })
    .onConflict((oc) => oc.column('site_id').doUpdateSet({ last_number: count }))
    .execute();
}
