/**
 * A new visitor's quick adds (issue 12, item 2): adds sent at once without a cart cookie, as the browser's cart store
 * sends them — each with the page's X-Cart-Claim — make one cart holding every item, and no orphan carts, on both
 * engines. Different claims stay different shoppers; a cookie wins over a claim; a claim is honoured only briefly.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { CART_CLAIM_WINDOW_MS } from '../../src/modules/cart/cart';
import { randomToken } from '../../src/platform/randomToken';
import { forEachEngine } from '../support/engines';
import { OTHER_HOST, SHOP_HOST, otherSite, seedSite, shopSite } from '../support/cartSite';
import { sendCrumbs } from '../support/crumb';

const CART_API = '/api/commerce/shopping-cart';
const ENTRIES_API = '/api/commerce/shopping-cart/entries';

/** Six different lines a shopper may add from a product list. */
const ITEMS = [
  { itemId: 'tee', sku: 'tee-s-blue', quantity: 1 },
  { itemId: 'ebook', sku: 'ebook-1', quantity: 1 },
  { itemId: 'tee', sku: 'tee-s-red', quantity: 1 },
  { itemId: 'limited', sku: 'limited-1', quantity: 1 },
  { itemId: 'coffee', sku: 'coffee-1', quantity: 1 },
  { itemId: 'kit', sku: 'kit-1', quantity: 1 },
];

const cartCookieValue = (response: LightMyRequestResponse): string | undefined =>
  response.cookies.find((c) => c.name === 'CART')?.value;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    await seedSite(getDb(), otherSite);
    // Many adds from one address within seconds: above any shopper's rate-limit budget.
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
  });

  const add = (payload: unknown, options: { claim?: string; cookie?: string; host?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: ENTRIES_API,
      headers: {
        host: options.host ?? SHOP_HOST,
        'content-type': 'application/json',
        ...(options.claim !== undefined ? { 'x-cart-claim': options.claim } : {}),
        ...(options.cookie !== undefined ? { cookie: options.cookie } : {}),
      },
      payload: JSON.stringify(payload),
    });
  const get = (cookie: string, host = SHOP_HOST) =>
    app.inject({ method: 'GET', url: CART_API, headers: { host, cookie } });
  const carts = () => getDb().selectFrom('carts').selectAll().execute();

  describe('adds sent at once without a cookie, with one claim', () => {
    it('make one cart holding every item, every answer naming it (10 rounds)', async () => {
      for (let round = 0; round < 10; round++) {
        await getDb().deleteFrom('cart_entries').execute();
        await getDb().deleteFrom('carts').execute();
        const claim = randomToken(16);
        const responses = await Promise.all(ITEMS.map((item) => add(item, { claim })));
        expect(responses.map((r) => r.statusCode)).toEqual(ITEMS.map(() => 200));
        const tokens = new Set(responses.map(cartCookieValue));
        expect(tokens.size, `round ${round}: one cart cookie for every answer`).toBe(1);
        const rows = await carts();
        expect(rows, `round ${round}: one cart, no orphans`).toHaveLength(1);
        const cart = (await get(`CART=${[...tokens][0]}`)).json();
        expect(cart.entries.map((e: { chosenVariant: { sku: string } }) => e.chosenVariant.sku).sort()).toEqual(
          ITEMS.map((i) => i.sku).sort(),
        );
        expect(cart.totalQuantity).toBe(ITEMS.length);
      }
    });

    it('leave no cart for refused adds, and still one cart for the others', async () => {
      const claim = randomToken(16);
      const responses = await Promise.all([
        add({ itemId: 'tee', sku: 'tee-m-red', quantity: 1 }, { claim }), // out of stock
        add({ itemId: 'missing', quantity: 1 }, { claim }),
        add(ITEMS[0], { claim }),
        add(ITEMS[1], { claim }),
      ]);
      expect(responses.map((r) => r.statusCode)).toEqual([409, 404, 200, 200]);
      const rows = await carts();
      expect(rows).toHaveLength(1);
      expect((await get(`CART=${rows[0]!.id}`)).json().totalQuantity).toBe(2);

      const refusedOnly = randomToken(16);
      await Promise.all([
        add({ itemId: 'tee', sku: 'tee-m-red', quantity: 1 }, { claim: refusedOnly }),
        add({ itemId: 'missing' }, { claim: refusedOnly }),
      ]);
      expect(await carts()).toHaveLength(1);
    });

    it('serialize on the one cart: they never pass the stock check together', async () => {
      const claim = randomToken(16);
      // 7 in stock: 12 simultaneous adds of one each make one cart with 7.
      const responses = await Promise.all(
        Array.from({ length: 12 }, () => add({ itemId: 'limited', sku: 'limited-1', quantity: 1 }, { claim })),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(7);
      expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(5);
      const rows = await carts();
      expect(rows).toHaveLength(1);
      expect((await get(`CART=${rows[0]!.id}`)).json().totalQuantity).toBe(7);
    });
  });

  describe('what a claim does not do', () => {
    it('keeps shoppers with different claims, or none, apart', async () => {
      const responses = await Promise.all([
        add(ITEMS[0], { claim: randomToken(16) }),
        add(ITEMS[1], { claim: randomToken(16) }),
        add(ITEMS[2]),
        add(ITEMS[3]),
        add(ITEMS[4], { claim: 'not a claim' }),
      ]);
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(responses.map(cartCookieValue)).size).toBe(5);
      expect(await carts()).toHaveLength(5);
    });

    it("lets the cart cookie win over a claim, and never shares a claim's cart with another site", async () => {
      const claim = randomToken(16);
      const first = await add(ITEMS[0], { claim });
      const other = await add({ itemId: 'tee', sku: 'other-tee', quantity: 1 }, { claim, host: OTHER_HOST });
      expect(other.statusCode).toBe(200);
      expect(cartCookieValue(other)).not.toBe(cartCookieValue(first));

      const mine = await add(ITEMS[1]);
      const withCookie = await add(ITEMS[2], { claim, cookie: `CART=${cartCookieValue(mine)}` });
      expect(cartCookieValue(withCookie)).toBe(cartCookieValue(mine));
      expect((await get(`CART=${cartCookieValue(first)}`)).json().totalQuantity).toBe(1);
      expect(await carts()).toHaveLength(3);
    });

    it('starts a new cart for a claim whose cart was bought or is older than the claim window', async () => {
      const claim = randomToken(16);
      const bought = cartCookieValue(await add(ITEMS[0], { claim }))!;
      await getDb().updateTable('carts').set({ is_purchased: 1 }).where('id', '=', bought).execute();
      const next = cartCookieValue(await add(ITEMS[1], { claim }))!;
      expect(next).not.toBe(bought);

      const old = new Date(Date.now() - CART_CLAIM_WINDOW_MS - 1000).toISOString();
      await getDb().updateTable('carts').set({ created_at: old }).where('id', '=', next).execute();
      const third = cartCookieValue(await add(ITEMS[2], { claim }))!;
      expect(third).not.toBe(next);
      expect((await get(`CART=${next}`)).json().totalQuantity).toBe(1);
      expect((await get(`CART=${third}`)).json().totalQuantity).toBe(1);
      // The bought cart is untouched.
      expect(
        await getDb().selectFrom('carts').select(['is_purchased']).where('id', '=', bought).executeTakeFirst(),
      ).toEqual({ is_purchased: 1 });
    });
  });
});
