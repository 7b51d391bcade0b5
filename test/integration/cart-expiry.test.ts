/**
 * Cart expiry (issue 12, item 10) on both engines: open carts untouched for 30 days go with their entries, empty
 * ones after a day; recent, purchased and ordered carts stay; the batches loop until done; the job of
 * `vitrine serve`, `vitrine carts expire`, and a shopper whose cart expired.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { randomToken } from '../../src/platform/randomToken';
import { EMPTY_CART_LIFETIME_MS, expireCarts, OPEN_CART_LIFETIME_MS } from '../../src/modules/cart/cartExpiry';
import { cartExpiryJob } from '../../src/modules/cart';
import { startJobRunner } from '../../src/platform/jobs/runner';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { vitrineWith } from '../support/cli';
import { forEachEngine } from '../support/engines';
import { sendCrumbs } from '../support/crumb';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-03-01T12:00:00.000Z');
const ago = (ms: number, from = NOW) => new Date(from.getTime() - ms).toISOString();

/** `vitrine ARGS` in this process, with only the given settings in the environment (../support/cli.ts). */
const vitrine = vitrineWith;

describe('vitrine carts: usage', () => {
  it('is in the help, and wrong usage exits 2 before touching the database', async () => {
    expect((await vitrine(['help'], {})).stdout).toContain('carts expire');
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    for (const [args, message] of [
      [['carts'], "'carts' needs a command: vitrine carts expire"],
      [['carts', 'purge'], "unknown carts command 'purge'"],
      [['carts', 'expire', '--now'], "'carts expire' takes no arguments"],
    ] as const) {
      const run = await vitrine([...args], env);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain(message);
    }
  });
});

forEachEngine((engine, getDb, getFresh) => {
  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
  });
  beforeEach(async () => {
    await getDb().deleteFrom('order_lines').execute();
    await getDb().deleteFrom('orders').execute();
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
  });

  /** A cart last touched at `updatedAt` with `entries` lines. */
  async function cart(
    updatedAt: string,
    options: { entries?: number; purchased?: boolean; order?: boolean } = {},
  ): Promise<string> {
    const id = randomToken(16);
    const orderId = options.order || options.purchased ? randomToken(16) : null;
    await getDb()
      .insertInto('carts')
      .values({
        id,
        site_id: 'shop',
        created_at: updatedAt,
        updated_at: updatedAt,
        is_purchased: options.purchased ? 1 : 0,
        order_id: options.purchased ? orderId : null,
      })
      .execute();
    for (let i = 0; i < (options.entries ?? 0); i++) {
      await getDb()
        .insertInto('cart_entries')
        .values({
          id: randomToken(12),
          cart_id: id,
          item_id: 'ebook',
          sku: `ebook-${i}`,
          quantity: 1,
          additional_fields: '',
          unit_price: 999,
          created_at: updatedAt,
        })
        .execute();
    }
    if (orderId) {
      const number =
        Number(
          (
            await getDb()
              .selectFrom('orders')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ) + 1;
      await getDb()
        .insertInto('orders')
        .values({
          id: orderId,
          site_id: 'shop',
          number,
          cart_id: id,
          email: 'ada@example.com',
          status: 'paid',
          currency: 'USD',
          subtotal: 999,
          shipping: 0,
          tax: 0,
          discount: 0,
          grand_total: 999,
          prices_include_tax: 0,
          tax_name: 'Tax',
          shipping_address: null,
          shipping_option: null,
          coupon_code: null,
          payment_provider: 'test',
          created_at: updatedAt,
          updated_at: updatedAt,
        })
        .execute();
    }
    return id;
  }
  const cartIds = async () => (await getDb().selectFrom('carts').select('id').execute()).map((c) => c.id).sort();
  const entriesOf = async (id: string) =>
    (await getDb().selectFrom('cart_entries').select('id').where('cart_id', '=', id).execute()).length;

  describe('expireCarts', () => {
    it('removes open carts untouched for 30 days with their entries, and empty ones after a day; keeps the rest', async () => {
      const oldFull = await cart(ago(OPEN_CART_LIFETIME_MS + 60_000), { entries: 2 });
      const veryOld = await cart(ago(400 * DAY), { entries: 1 });
      const recentFull = await cart(ago(OPEN_CART_LIFETIME_MS - 60_000), { entries: 3 });
      await cart(ago(EMPTY_CART_LIFETIME_MS + 60_000)); // empty for more than a day: goes
      const newEmpty = await cart(ago(EMPTY_CART_LIFETIME_MS - 60_000));
      const bought = await cart(ago(400 * DAY), { entries: 2, purchased: true });
      const boughtEmpty = await cart(ago(400 * DAY), { purchased: true });
      // An order naming a cart keeps it even if it were not marked purchased.
      const ordered = await cart(ago(400 * DAY), { entries: 1, order: true });

      expect(await expireCarts(getDb(), NOW)).toEqual({ removed: 3, rounds: 1 });
      expect(await cartIds()).toEqual([recentFull, newEmpty, bought, boughtEmpty, ordered].sort());
      expect(await entriesOf(oldFull)).toBe(0);
      expect(await entriesOf(veryOld)).toBe(0);
      expect(await entriesOf(recentFull)).toBe(3);
      expect(await entriesOf(bought)).toBe(2);
      expect((await getDb().selectFrom('orders').select('id').execute()).length).toBe(3);
      expect(
        await getDb()
          .selectFrom('carts')
          .select(['is_purchased', 'order_id'])
          .where('id', '=', bought)
          .executeTakeFirst(),
      ).toMatchObject({ is_purchased: 1 });
      // Nothing more to do.
      expect(await expireCarts(getDb(), NOW)).toEqual({ removed: 0, rounds: 1 });
    });

    it('works in batches until done, oldest first', async () => {
      for (let i = 0; i < 7; i++) await cart(ago(OPEN_CART_LIFETIME_MS + (i + 1) * DAY), { entries: 1 });
      for (let i = 0; i < 4; i++) await cart(ago(2 * DAY));
      const kept = await cart(ago(DAY / 2));
      expect(await expireCarts(getDb(), NOW, { batchSize: 3 })).toEqual({ removed: 11, rounds: 4 });
      expect(await cartIds()).toEqual([kept]);

      for (let i = 0; i < 6; i++) await cart(ago(3 * DAY));
      // A last round that finds fewer than a batch (here none) ends the loop.
      expect(await expireCarts(getDb(), NOW, { batchSize: 3 })).toEqual({ removed: 6, rounds: 3 });
      await expect(expireCarts(getDb(), NOW, { batchSize: 0 })).rejects.toThrow(RangeError);
    });

    it('keeps a cart a shopper touched since; a shopper whose cart expired starts a new one', async () => {
      const app: FastifyInstance = sendCrumbs(await buildApp({ db: getDb(), engine }));
      try {
        const add = (cookie?: string) =>
          app.inject({
            method: 'POST',
            url: '/api/commerce/shopping-cart/entries',
            headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
            payload: JSON.stringify({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 }),
          });
        const first = await add();
        const token = first.cookies.find((c) => c.name === 'CART')!.value;
        const cookie = `CART=${token}`;
        // The cookie lives exactly as long as an untouched cart.
        expect(first.cookies.find((c) => c.name === 'CART')!.maxAge).toBe(OPEN_CART_LIFETIME_MS / 1000);
        const age = () =>
          getDb()
            .updateTable('carts')
            .set({ updated_at: ago(OPEN_CART_LIFETIME_MS + DAY, new Date()) })
            .where('id', '=', token)
            .execute();
        // Old, but not removed yet: an add touches it, so it is no longer expired.
        await age();
        expect((await add(cookie)).json().shoppingCart.totalQuantity).toBe(2);
        expect(await expireCarts(getDb(), new Date())).toEqual({ removed: 0, rounds: 1 });
        // Untouched again: it goes; the cookie then names no cart, and the next add makes a new one.
        await age();
        expect((await expireCarts(getDb(), new Date())).removed).toBe(1);
        const get = await app.inject({
          method: 'GET',
          url: '/api/commerce/shopping-cart',
          headers: { host: SHOP_HOST, cookie },
        });
        expect(get.json()).toMatchObject({ id: null, entries: [] });
        expect(get.cookies.map((c) => c.name).sort()).toEqual(['CART', 'hasCart']);
        expect((await add(cookie)).json().shoppingCart.totalQuantity).toBe(1);
        expect(await cartIds()).toHaveLength(1);
      } finally {
        await app.close();
      }
    });
  });

  describe('the job and the command', () => {
    it('the cart-expiry job of vitrine serve removes expired carts', async () => {
      await cart(ago(OPEN_CART_LIFETIME_MS + DAY, new Date()), { entries: 1 });
      const kept = await cart(new Date().toISOString(), { entries: 1 });
      const logged: object[] = [];
      const runner = startJobRunner({
        jobs: [cartExpiryJob(getDb(), { info: (d) => logged.push(d), error: (d) => logged.push(d) })],
        log: { info: () => {}, error: () => {} },
      });
      try {
        await runner.runNow('cart-expiry');
      } finally {
        await runner.stop();
      }
      expect(await cartIds()).toEqual([kept]);
      expect(logged).toEqual([{ job: 'cart-expiry', removed: 1 }]);
    });

    it('vitrine carts expire removes them now and says how many', async () => {
      for (let i = 0; i < 3; i++) await cart(ago(2 * DAY, new Date()));
      const kept = await cart(new Date().toISOString(), { entries: 1 });
      const env = { DATABASE_URL: getFresh().url };
      const run = await vitrine(['carts', 'expire'], env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Removed 3 expired carts (open and untouched for 30 days, or empty for a day).');
      expect(await cartIds()).toEqual([kept]);
      const again = await vitrine(['carts', 'expire'], env);
      expect(again.stdout).toContain('No expired carts to remove.');
    });
  });
});
