/**
 * The cart API of spec §7 through Fastify's inject, on a freshly migrated SQLite and PostgreSQL database:
 * shapes of §3, cookies, the ordered checks of §5 with their exact texts, bad input, and adds racing on one cart.
 */
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { clearCartCookies } from '../../src/modules/cart/cookies';
import { forEachEngine } from '../support/engines';
import { OTHER_HOST, SHOP_HOST, otherSite, seedSite, shopSite } from '../support/cartSite';
import { sendCrumbs } from '../support/crumb';

const CART_API = '/api/commerce/shopping-cart';
const ENTRIES_API = '/api/commerce/shopping-cart/entries';

/** The §5 texts, copied from the spec so that a change in the core is caught here. */
const SPEC = {
  selectTwo: 'Please select the Size and Colour options.',
  selectThree: 'Please select the Size, Colour and Material options.',
  giftCard: 'Select a denomination for the Gift Card',
  unavailable: 'Sorry, that item variant is unavailable. Please select another variant.',
  outOfStock: 'Sorry, we do not have enough of that item available.',
  notANumber: 'Quantity must be a number.',
  notWhole: 'Quantity must be a whole number',
};

/** The Set-Cookie lines of a reply made by `clear` in a bare Fastify with @fastify/cookie. */
async function setCookieLinesOf(clear: (reply: FastifyReply) => void): Promise<string[]> {
  const bare = Fastify();
  await bare.register(fastifyCookie);
  bare.get('/', async (_request, reply) => {
    clear(reply);
    return 'ok';
  });
  const response = await bare.inject({ method: 'GET', url: '/' });
  await bare.close();
  return [response.headers['set-cookie'] ?? []].flat();
}

/** What clearCartCookies writes. */
const clearedCartCookies = (secure: boolean) => setCookieLinesOf((reply) => clearCartCookies(reply, secure));

/** What @fastify/cookie's clearCookie writes for the cart cookies (how clearCartCookies cleared them before issue 13). */
const fastifyClearedCartCookies = (secure: boolean) =>
  setCookieLinesOf((reply) => {
    reply.clearCookie('CART', { path: '/', sameSite: 'lax', secure, httpOnly: true });
    reply.clearCookie('hasCart', { path: '/', sameSite: 'lax', secure });
  });

function cartCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'CART');
  if (!cookie) throw new Error(`no CART cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return `CART=${cookie.value}`;
}

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    await seedSite(getDb(), otherSite);
    // Hundreds of requests from one address within seconds: above any shopper's budget (rate limits: rate-limits.test.ts).
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
  });

  const add = (payload: unknown, cookie?: string, host = SHOP_HOST) =>
    app.inject({
      method: 'POST',
      url: ENTRIES_API,
      headers: { host, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const get = (cookie?: string, host = SHOP_HOST) =>
    app.inject({ method: 'GET', url: CART_API, headers: { host, ...(cookie ? { cookie } : {}) } });
  const counts = async () => ({
    carts: (await getDb().selectFrom('carts').select('id').execute()).length,
    entries: (await getDb().selectFrom('cart_entries').select('id').execute()).length,
  });

  describe('reading and adding', () => {
    it('answers the empty cart shape without a cookie, and creates nothing', async () => {
      const response = await get();
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.json()).toEqual({
        id: null,
        websiteId: 'shop',
        orderId: null,
        created: null,
        isPurchased: false,
        entries: [],
        shippingOptions: [],
        selectedShippingOption: null,
        shippingLocation: null,
        applicableTaxRules: [],
        coupons: [],
        validCoupons: [],
        invalidCoupons: [],
        subtotalCents: 0,
        taxCents: 0,
        shippingCostCents: 0,
        discountCents: 0,
        grandTotalCents: 0,
        totalQuantity: 0,
        hasDigital: false,
        purelyDigital: false,
        requiresShipping: false,
      });
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('accepts the query flags of §7', async () => {
      const response = await app.inject({
        method: 'GET',
        url: `${CART_API}?mock=false&timecode=123&calculateSubtotal=true`,
        headers: { host: SHOP_HOST },
      });
      expect(response.statusCode).toBe(200);
    });

    it('creates the cart on the first add, sets the cookies, and GET returns the same cart', async () => {
      const response = await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 2, additionalFields: '' });
      expect(response.statusCode).toBe(200);
      const { shoppingCart, newlyAdded } = response.json();
      expect(newlyAdded).toEqual({
        id: expect.any(String),
        itemId: 'tee',
        // Physical (1): what the cart's pay-later badge asks of every line.
        productType: 1,
        chosenVariant: { sku: 'tee-s-blue', attributes: { Size: 'S', Colour: 'Blue' } },
        quantity: 2,
        title: 'Tee',
        subTotal: 3998,
        purchasePriceCents: 1999,
        additionalFields: '',
        additionalFieldsSummary: [],
      });
      expect(shoppingCart).toMatchObject({
        websiteId: 'shop',
        isPurchased: false,
        entries: [newlyAdded],
        subtotalCents: 3998,
        grandTotalCents: 3998,
        totalQuantity: 2,
        hasDigital: false,
        purelyDigital: false,
        requiresShipping: true,
      });
      expect(typeof shoppingCart.id).toBe('string');
      expect(Math.abs(shoppingCart.created - Date.now())).toBeLessThan(60_000);

      const cart = response.cookies.find((c) => c.name === 'CART');
      expect(cart).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cart!.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // The token is the cart's key: it never appears in the body, where page scripts could read it.
      expect(response.body).not.toContain(cart!.value);
      const hasCart = response.cookies.find((c) => c.name === 'hasCart');
      expect(hasCart).toMatchObject({ value: 'true', sameSite: 'Lax', path: '/' });
      expect(hasCart!.httpOnly).toBeFalsy();
      // The lines are written once per add without @fastify/cookie (issue 13): byte for byte what it writes.
      const options = { path: '/', sameSite: 'lax', secure: false, maxAge: 30 * 24 * 3600 } as const;
      expect(response.headers['set-cookie']).toEqual([
        app.serializeCookie('CART', cart!.value, { ...options, httpOnly: true }),
        app.serializeCookie('hasCart', 'true', { ...options, httpOnly: false }),
      ]);
      expect(response.headers['cache-control']).toBe('no-store');

      const again = await get(cartCookie(response));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(shoppingCart);
    });

    // A new cart's answer is made from what the add read and wrote, without reading the cart back (issue 13): it
    // must be, byte for byte, the cart a read of it answers, whatever the line (options, none, digital, a form).
    it("answers a new cart's first add exactly as a later read of that cart, with a cookie or a claim", async () => {
      const lines = [
        { itemId: 'tee', sku: 'tee-s-blue', quantity: 2, additionalFields: '' },
        { itemId: 'kit', sku: 'kit-1' },
        { itemId: 'limited', quantity: '3' },
        { itemId: 'ebook', sku: 'ebook-1', additionalFields: { z: 1, a: ['x'] } },
        { itemId: 'coffee', sku: 'coffee-1' },
        { itemId: 'engraved', additionalFields: { 'engraving-text': 'Ada', lettering: 'Serif' } },
      ];
      for (const [i, line] of lines.entries()) {
        // A claim is 22 base64url characters (src/core/cartClaim.ts).
        for (const claim of [undefined, `new-cart-claim-0000-${String(i).padStart(2, '0')}`]) {
          const response = await app.inject({
            method: 'POST',
            url: ENTRIES_API,
            headers: {
              host: SHOP_HOST,
              'content-type': 'application/json',
              ...(claim ? { 'x-cart-claim': claim } : {}),
            },
            payload: JSON.stringify(line),
          });
          expect(response.statusCode, response.body).toBe(200);
          const { shoppingCart, newlyAdded } = response.json();
          expect(shoppingCart.entries).toEqual([newlyAdded]);
          const read = await get(cartCookie(response));
          expect(read.body).toBe(JSON.stringify(shoppingCart));
          const stored = await getDb()
            .selectFrom('carts')
            .select('claim')
            .where('id', '=', cartCookie(response).slice('CART='.length))
            .executeTakeFirstOrThrow();
          expect(stored.claim).toBe(claim ?? null);
        }
      }
    });

    it('merges the same sku with the same additional fields, and keeps different answers apart', async () => {
      const first = await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1, additionalFields: '{"b":2,"a":"x"}' });
      const cookie = cartCookie(first);
      const same = await add(
        { itemId: 'tee', sku: 'tee-s-blue', quantity: 2, additionalFields: { a: 'x', b: 2 } },
        cookie,
      );
      expect(same.statusCode).toBe(200);
      expect(same.json().shoppingCart.entries).toHaveLength(1);
      expect(same.json().newlyAdded).toMatchObject({
        quantity: 3,
        additionalFields: '{"a":"x","b":2}',
        subTotal: 5997,
      });

      const other = await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1, additionalFields: '{"a":"y"}' }, cookie);
      expect(other.json().shoppingCart.entries).toHaveLength(2);
      expect(other.json().shoppingCart).toMatchObject({ totalQuantity: 4, subtotalCents: 4 * 1999 });
      expect(await counts()).toEqual({ carts: 1, entries: 2 });
      // Adding to an existing cart does not issue a new token.
      expect(cartCookie(other)).toBe(cookie);
    });

    it('computes totals and delivery flags over mixed lines', async () => {
      const first = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 3 });
      const cookie = cartCookie(first);
      expect(first.json().shoppingCart).toMatchObject({
        hasDigital: true,
        purelyDigital: true,
        requiresShipping: false,
        subtotalCents: 2997,
      });
      const second = await add({ itemId: 'limited', sku: 'limited-1', quantity: 1 }, cookie);
      expect(second.json().shoppingCart).toMatchObject({
        hasDigital: true,
        purelyDigital: false,
        requiresShipping: true,
        subtotalCents: 2997 + 4000,
        grandTotalCents: 2997 + 4000,
        totalQuantity: 4,
      });
    });

    it('takes the only variant of a product without options when no sku is sent, and one unit without a quantity', async () => {
      const response = await add({ itemId: 'limited' });
      expect(response.statusCode).toBe(200);
      expect(response.json().newlyAdded).toMatchObject({
        chosenVariant: { sku: 'limited-1', attributes: {} },
        quantity: 1,
      });
    });
  });

  describe("a new visitor's add of a product added before: the product as it is now", () => {
    // On PostgreSQL such an add is one statement that writes only while the rows are those the process read before
    // (src/modules/cart/knownProducts.ts); these hold whatever the rows did since.
    const limited = () =>
      getDb().selectFrom('variants').selectAll().where('sku', '=', 'limited-1').executeTakeFirstOrThrow();
    const product = () =>
      getDb().selectFrom('products').selectAll().where('id', '=', 'limited').executeTakeFirstOrThrow();
    let variantBefore: Awaited<ReturnType<typeof limited>>;
    let productBefore: Awaited<ReturnType<typeof product>>;
    beforeAll(async () => {
      variantBefore = await limited();
      productBefore = await product();
    });
    afterEach(async () => {
      const { price, sale_price, on_sale, qty_in_stock } = variantBefore;
      await getDb()
        .updateTable('variants')
        .set({ price, sale_price, on_sale, qty_in_stock })
        .where('sku', '=', 'limited-1')
        .execute();
      const { data, live_from } = productBefore;
      await getDb().updateTable('products').set({ data, live_from }).where('id', '=', 'limited').execute();
    });
    const addLimited = () => add({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
    /** The add's answer, which must be what a later read of its cart says. */
    const addedAsRead = async () => {
      const added = await addLimited();
      expect(added.statusCode, added.body).toBe(200);
      const { shoppingCart, newlyAdded } = added.json();
      expect((await get(cartCookie(added))).body).toBe(JSON.stringify(shoppingCart));
      return newlyAdded;
    };

    it('adds at the price and sale as they are after a change, and answers as a read of the cart', async () => {
      expect((await addedAsRead()).purchasePriceCents).toBe(4000);
      await getDb()
        .updateTable('variants')
        .set({ price: 4200, sale_price: 3900, on_sale: 1 })
        .where('sku', '=', 'limited-1')
        .execute();
      const added = await addedAsRead();
      expect(added.purchasePriceCents).toBe(3900);
      const stored = await getDb().selectFrom('cart_entries').select('unit_price').where('id', '=', added.id).execute();
      expect(stored).toEqual([{ unit_price: 3900 }]);
      expect(await counts()).toEqual({ carts: 2, entries: 2 });
    });

    it('refuses what sold out since, then adds it once back in stock, storing only what it adds', async () => {
      await addedAsRead();
      await getDb().updateTable('variants').set({ qty_in_stock: 0 }).where('sku', '=', 'limited-1').execute();
      const soldOut = await addLimited();
      expect(soldOut.statusCode).toBe(409);
      expect(soldOut.json()).toMatchObject({ type: 'OUT_OF_STOCK', message: SPEC.outOfStock });
      expect(await counts()).toEqual({ carts: 1, entries: 1 });
      await getDb().updateTable('variants').set({ qty_in_stock: 7 }).where('sku', '=', 'limited-1').execute();
      await addedAsRead();
      expect(await counts()).toEqual({ carts: 2, entries: 2 });
    });

    it('names the product by its record as it is now, and refuses it once it is off the storefront', async () => {
      await addedAsRead();
      const renamed = JSON.stringify({ ...JSON.parse(productBefore.data), name: 'Limited print, second run' });
      await getDb().updateTable('products').set({ data: renamed }).where('id', '=', 'limited').execute();
      expect((await addedAsRead()).title).toBe('Limited print, second run');
      await getDb()
        .updateTable('products')
        .set({ live_from: '2999-01-01T00:00:00.000Z' })
        .where('id', '=', 'limited')
        .execute();
      const gone = await addLimited();
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ code: 'product-not-found' });
      expect(await counts()).toEqual({ carts: 2, entries: 2 });
    });
  });

  describe('the checks of §5, in order, storing nothing when refused', () => {
    const refused = async (response: LightMyRequestResponse, status: number, type: string, message: string) => {
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject({ type, message });
      expect(response.headers['set-cookie']).toBeUndefined();
    };

    it('names the unselected options (2 and 3 options) and asks for a gift card denomination', async () => {
      await refused(await add({ itemId: 'tee', quantity: 1 }), 400, 'NO_VARIANT_SELECTED', SPEC.selectTwo);
      await refused(await add({ itemId: 'tee', sku: '', quantity: 1 }), 400, 'NO_VARIANT_SELECTED', SPEC.selectTwo);
      const three = await add({ itemId: 'kit', sku: null, quantity: 1 });
      await refused(three, 400, 'NO_VARIANT_SELECTED', SPEC.selectThree);
      expect(three.json().unselectedOptions).toEqual(['Size', 'Colour', 'Material']);
      await refused(await add({ itemId: 'gift', quantity: 1 }), 400, 'NO_VARIANT_SELECTED', SPEC.giftCard);
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('refuses a sku that is not a variant of the item', async () => {
      await refused(
        await add({ itemId: 'tee', sku: 'tee-m-blue', quantity: 1 }),
        400,
        'VARIANT_UNAVAILABLE',
        SPEC.unavailable,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'kit-1', quantity: 1 }),
        400,
        'VARIANT_UNAVAILABLE',
        SPEC.unavailable,
      );
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('refuses more than the stock, counting what the cart already holds of the sku (all its lines)', async () => {
      await refused(await add({ itemId: 'tee', sku: 'tee-m-red', quantity: 1 }), 409, 'OUT_OF_STOCK', SPEC.outOfStock);
      await refused(await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 4 }), 409, 'OUT_OF_STOCK', SPEC.outOfStock);
      expect(await counts()).toEqual({ carts: 0, entries: 0 });

      const first = await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 2, additionalFields: '{"note":"a"}' });
      const cookie = cartCookie(first);
      const second = await add(
        { itemId: 'tee', sku: 'tee-s-red', quantity: 1, additionalFields: '{"note":"b"}' },
        cookie,
      );
      expect(second.statusCode).toBe(200);
      const before = (await get(cookie)).json();
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 1 }, cookie),
        409,
        'OUT_OF_STOCK',
        SPEC.outOfStock,
      );
      expect((await get(cookie)).json()).toEqual(before);
      expect(await counts()).toEqual({ carts: 1, entries: 2 });
    });

    it('checks the quantity after the stock', async () => {
      await refused(
        await add({ itemId: 'tee', sku: 'tee-m-red', quantity: 'abc' }),
        409,
        'OUT_OF_STOCK',
        SPEC.outOfStock,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 'abc' }),
        400,
        'QUANTITY_NOT_A_NUMBER',
        SPEC.notANumber,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: true }),
        400,
        'QUANTITY_NOT_A_NUMBER',
        SPEC.notANumber,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: null }),
        400,
        'QUANTITY_NOT_A_NUMBER',
        SPEC.notANumber,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: { n: 1 } }),
        400,
        'QUANTITY_NOT_A_NUMBER',
        SPEC.notANumber,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 1.5 }),
        400,
        'QUANTITY_NOT_A_NUMBER',
        SPEC.notWhole,
      );
      await refused(
        await add({ itemId: 'tee', sku: 'tee-s-red', quantity: '2.5' }),
        400,
        'QUANTITY_NOT_A_NUMBER',
        SPEC.notWhole,
      );
      await refused(
        await add({ itemId: 'coffee', sku: 'coffee-1', quantity: 1.5 }),
        400,
        'SUB_QUANTITY_NOT_A_WHOLE_NUMBER',
        SPEC.notWhole,
      );
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('refuses quantities outside 1..9999, huge numbers included, and lines that would grow past 9999', async () => {
      for (const quantity of [0, -1, 10_000, 1e12, 1e308, '99999999999999999999']) {
        const response = await add({ itemId: 'ebook', sku: 'ebook-1', quantity });
        expect(response.statusCode, String(quantity)).toBe(400);
        expect(response.json()).toMatchObject({
          type: 'QUANTITY_NOT_A_NUMBER',
          message: 'Quantity must be between 1 and 9999.',
        });
      }
      const big = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 9999 });
      expect(big.statusCode).toBe(200);
      const more = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 }, cartCookie(big));
      expect(more.statusCode).toBe(400);
      expect(more.json().message).toBe('Quantity must be between 1 and 9999.');
      expect((await get(cartCookie(big))).json().totalQuantity).toBe(9999);
    });

    it('accepts a JSON body whose Content-Type names a charset', async () => {
      const response = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'application/json; charset=utf-8' },
        payload: JSON.stringify({ itemId: 'ebook', sku: 'ebook-1', quantity: 2 }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().newlyAdded.quantity).toBe(2);
    });

    it('accepts a quantity typed as text', async () => {
      const response = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: ' 3 ' });
      expect(response.statusCode).toBe(200);
      expect(response.json().newlyAdded.quantity).toBe(3);
    });
  });

  describe('bad input: 4xx with a clear message, nothing stored', () => {
    const bad = async (response: LightMyRequestResponse, status: number, message: string | RegExp, field?: string) => {
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json();
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
      expect(body.type).toBe('API_FAILURE');
      if (field) expect(body.field).toBe(field);
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    };

    it('names missing and mistyped fields', async () => {
      await bad(await add({ sku: 'tee-s-red', quantity: 1 }), 400, 'itemId is required.', 'itemId');
      await bad(await add({ itemId: 42, sku: 'tee-s-red', quantity: 1 }), 400, 'itemId must be a string.', 'itemId');
      await bad(await add({ itemId: '', quantity: 1 }), 400, 'itemId must not be empty.', 'itemId');
      await bad(await add({ itemId: 'tee', sku: 7, quantity: 1 }), 400, 'sku must be a string.', 'sku');
      await bad(await add({ itemId: 'x'.repeat(201) }), 400, 'itemId must be at most 200 characters.', 'itemId');
      await bad(
        await add({ itemId: 'tee', sku: 'tee-s-red', additionalFields: '{oops' }),
        400,
        'additionalFields must be valid JSON text.',
        'additionalFields',
      );
      await bad(
        await add({ itemId: 'tee', sku: 'tee-s-red', additionalFields: '"text"' }),
        400,
        'additionalFields must be a JSON object or array.',
      );
      await bad(
        await add({ itemId: 'tee', sku: 'tee-s-red', additionalFields: 12 }),
        400,
        'additionalFields must be a JSON string, an object or null.',
      );
      await bad(
        await add({ itemId: 'tee', sku: 'tee-s-red', additionalFields: { x: 'y'.repeat(20_001) } }),
        400,
        /^additionalFields must be at most/,
      );
    });

    it('refuses bodies that are not a JSON object', async () => {
      await bad(await add([1, 2]), 400, 'The request body must be a JSON object.');
      await bad(await add('null'), 400, 'The request body must be a JSON object.');
      await bad(await add('{"itemId": "tee",'), 400, 'The request body is not valid JSON.');
      await bad(
        await add('{"__proto__": {"x": 1}, "itemId": "tee"}'),
        400,
        'The request body must not contain the keys __proto__ or constructor.prototype.',
      );
      await bad(
        await add('{"constructor": {"prototype": {"x": 1}}, "itemId": "tee"}'),
        400,
        'The request body must not contain the keys __proto__ or constructor.prototype.',
      );
      const empty = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
      });
      await bad(empty, 400, 'The request body is empty; a JSON object is expected.');
      const noType = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST },
        payload: 'itemId=tee',
      });
      expect(noType.statusCode).toBeGreaterThanOrEqual(400);
      expect(noType.statusCode).toBeLessThan(500);
      const text = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'text/plain' },
        payload: '{"itemId":"ebook"}',
      });
      await bad(text, 400, 'The request body must be a JSON object.');
      const xml = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      await bad(xml, 415, 'The request body must be JSON (Content-Type: application/json).');
      const form = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'itemId=ebook',
      });
      await bad(form, 415, 'The request body must be JSON (Content-Type: application/json).');
      await bad(await add(JSON.stringify({ itemId: 'ebook', pad: 'x'.repeat(300_000) })), 413, /larger than/);
    });

    it('answers 404 for an unknown item', async () => {
      const response = await add({ itemId: 'nope', sku: 'x', quantity: 1 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'product-not-found',
        message: 'Sorry, that item is no longer available.',
      });
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('refuses repeated query flags clearly', async () => {
      const response = await app.inject({
        method: 'GET',
        url: `${CART_API}?mock=1&mock=2`,
        headers: { host: SHOP_HOST },
      });
      await bad(response, 400, 'mock must be given once, as text.', 'mock');
    });

    it('treats garbage, unknown and malformed cart cookies as no cart', async () => {
      for (const cookie of [
        'CART=garbage',
        'CART=AAAAAAAAAAAAAAAAAAAAAA',
        'CART=%E0%A4%A',
        'CART',
        '=;;=; CART="',
        `CART=${'x'.repeat(5000)}`,
      ]) {
        const read = await get(cookie);
        expect(read.statusCode, cookie).toBe(200);
        expect(read.json().id).toBeNull();
      }
      const stale = await get('CART=AAAAAAAAAAAAAAAAAAAAAA; hasCart=true');
      // The stale cookies are dropped so that the browser stops loading a cart at page start.
      expect(
        stale.cookies
          .filter((c) => c.value === '')
          .map((c) => c.name)
          .sort(),
      ).toEqual(['CART', 'hasCart']);
      // The lines are written without @fastify/cookie (issue 13): byte for byte what its clearCookie writes.
      const cleared = [stale.headers['set-cookie']].flat().filter((line) => /^(CART|hasCart)=/.test(line ?? ''));
      expect(cleared).toEqual(await fastifyClearedCartCookies(false));
      for (const secure of [false, true])
        expect(await clearedCartCookies(secure), `secure: ${secure}`).toEqual(await fastifyClearedCartCookies(secure));
      const response = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 }, 'CART=AAAAAAAAAAAAAAAAAAAAAA');
      expect(response.statusCode).toBe(200);
      expect(cartCookie(response)).not.toBe('CART=AAAAAAAAAAAAAAAAAAAAAA');
      expect(await counts()).toEqual({ carts: 1, entries: 1 });
    });

    it("does not let one site's cart cookie open a cart of another site", async () => {
      const foreign = await add({ itemId: 'tee', sku: 'other-tee', quantity: 1 }, undefined, OTHER_HOST);
      expect(foreign.statusCode).toBe(200);
      expect(foreign.json().shoppingCart).toMatchObject({ websiteId: 'other', subtotalCents: 1000 });
      const cookie = cartCookie(foreign);
      expect((await get(cookie)).json()).toMatchObject({ id: null, websiteId: 'shop', entries: [] });
      const mine = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 }, cookie);
      expect(mine.statusCode).toBe(200);
      expect(cartCookie(mine)).not.toBe(cookie);
      expect(mine.json().shoppingCart.entries).toHaveLength(1);
      expect((await get(cookie, OTHER_HOST)).json().entries).toHaveLength(1);
    });

    it('answers JSON 404 for unknown API routes and methods', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/commerce/nope', headers: { host: SHOP_HOST } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'route-not-found', type: 'API_FAILURE' });
      const del = await app.inject({ method: 'DELETE', url: CART_API, headers: { host: SHOP_HOST } });
      expect(del.statusCode).toBe(404);
    });
  });

  describe('PUT …/entries/{entryId}/additionalFields', () => {
    const put = (entryId: string, payload: unknown, cookie?: string) =>
      app.inject({
        method: 'PUT',
        url: `${ENTRIES_API}/${encodeURIComponent(entryId)}/additionalFields`,
        headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(payload),
      });

    it('replaces the answers of an entry and merges it into a twin line', async () => {
      const a = await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1, additionalFields: '{"n":"a"}' });
      const cookie = cartCookie(a);
      const b = await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 2, additionalFields: '{"n":"b"}' }, cookie);
      const entryA = a.json().newlyAdded.id as string;
      const entryB = b.json().newlyAdded.id as string;

      const changed = await put(entryA, { itemId: 'tee', sku: 'tee-s-blue', additionalFields: '{"n":"c"}' }, cookie);
      expect(changed.statusCode).toBe(200);
      expect(changed.json().updatedEntry).toMatchObject({ id: entryA, additionalFields: '{"n":"c"}', quantity: 1 });
      expect(changed.json().shoppingCart.entries).toHaveLength(2);

      const merged = await put(entryA, { itemId: 'tee', sku: 'tee-s-blue', additionalFields: { n: 'b' } }, cookie);
      expect(merged.statusCode).toBe(200);
      expect(merged.json().updatedEntry).toMatchObject({ id: entryB, quantity: 3, additionalFields: '{"n":"b"}' });
      expect(merged.json().shoppingCart.entries).toHaveLength(1);
    });

    it("answers 404 for an unknown entry or another cart's entry, changing nothing", async () => {
      const a = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 });
      const entry = a.json().newlyAdded.id as string;
      expect((await put('nope', { additionalFields: '' }, cartCookie(a))).statusCode).toBe(404);
      const stranger = await put(entry, { additionalFields: '{"x":1}' });
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json()).toMatchObject({ code: 'entry-not-found', field: 'entryId' });
      expect((await get(cartCookie(a))).json().entries[0].additionalFields).toBe('');
      expect((await put(entry, { additionalFields: 5 }, cartCookie(a))).statusCode).toBe(400);
    });
  });

  describe('a product with a form (additionalFields checked against it, §4 and §5)', () => {
    const putAnswers = (entryId: string, additionalFields: unknown, cookie?: string) =>
      app.inject({
        method: 'PUT',
        url: `${ENTRIES_API}/${encodeURIComponent(entryId)}/additionalFields`,
        headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify({ additionalFields }),
      });
    const allEntries = async () =>
      getDb().selectFrom('cart_entries').select(['item_id', 'additional_fields', 'quantity']).execute();

    it('refuses missing required answers with 400, naming the fields, and stores nothing', async () => {
      for (const additionalFields of ['', '{}', { notes: 'hi' }, undefined]) {
        const response = await add({
          itemId: 'engraved',
          quantity: 1,
          ...(additionalFields === undefined ? {} : { additionalFields }),
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          code: 'invalid-form-answers',
          type: 'API_FAILURE',
          field: 'additionalFields',
          message: 'Engraving text: Required. Lettering: Required.',
          fields: { 'engraving-text': 'Required', lettering: 'Required' },
        });
        expect(response.cookies.find((c) => c.name === 'CART')).toBeUndefined();
      }
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('refuses answers that break a field rule (character limit, an option the field does not offer)', async () => {
      const response = await add({
        itemId: 'engraved',
        additionalFields: { 'engraving-text': 'Sam', lettering: 'Gothic', notes: 'x'.repeat(21) },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'invalid-form-answers',
        message: 'Lettering: Gothic is not one of the expected options. Notes: You have exceeded the character limit.',
        fields: {
          lettering: 'Gothic is not one of the expected options',
          notes: 'You have exceeded the character limit.',
        },
      });
      expect(await counts()).toEqual({ carts: 0, entries: 0 });
    });

    it('still runs the §5 checks first: stock before the form', async () => {
      const response = await add({ itemId: 'engraved', quantity: 6, additionalFields: '' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ type: 'OUT_OF_STOCK', message: SPEC.outOfStock });
    });

    it('stores valid answers as canonical JSON of every field, merges equal answers, and shows them in the cart', async () => {
      const first = await add({
        itemId: 'engraved',
        quantity: 1,
        additionalFields: '{"lettering":"Serif","engraving-text":"Morning, Sam","extra":"dropped"}',
      });
      expect(first.statusCode).toBe(200);
      const stored = '{"engraving-text":"Morning, Sam","lettering":"Serif","notes":""}';
      expect(first.json().newlyAdded).toMatchObject({
        itemId: 'engraved',
        additionalFields: stored,
        additionalFieldsSummary: [
          { title: 'Engraving text', lines: ['Morning, Sam'] },
          { title: 'Lettering', lines: ['Serif'] },
          { title: 'Notes', lines: ['None'] },
        ],
      });
      const cookie = cartCookie(first);
      const again = await add(
        {
          itemId: 'engraved',
          quantity: 2,
          additionalFields: { 'engraving-text': 'Morning, Sam', lettering: 'Serif', notes: '' },
        },
        cookie,
      );
      expect(again.json().newlyAdded).toMatchObject({ quantity: 3, additionalFields: stored });
      expect(await allEntries()).toEqual([{ item_id: 'engraved', additional_fields: stored, quantity: 3 }]);
      expect((await get(cookie)).json().entries[0].additionalFieldsSummary[0]).toEqual({
        title: 'Engraving text',
        lines: ['Morning, Sam'],
      });
    });

    it('checks a changed answer (PUT …/additionalFields) the same way', async () => {
      const first = await add({
        itemId: 'engraved',
        additionalFields: { 'engraving-text': 'Sam', lettering: 'Serif' },
      });
      const cookie = cartCookie(first);
      const entryId = first.json().newlyAdded.id as string;
      const refused = await putAnswers(entryId, { 'engraving-text': ' ', lettering: 'Serif' }, cookie);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'invalid-form-answers',
        message: 'Engraving text: Required.',
        fields: { 'engraving-text': 'Required' },
      });
      expect((await allEntries())[0]?.additional_fields).toBe(
        '{"engraving-text":"Sam","lettering":"Serif","notes":""}',
      );

      const changed = await putAnswers(entryId, '{"engraving-text":"Ada","lettering":"Sans serif"}', cookie);
      expect(changed.statusCode).toBe(200);
      expect(changed.json().updatedEntry).toMatchObject({
        additionalFields: '{"engraving-text":"Ada","lettering":"Sans serif","notes":""}',
        additionalFieldsSummary: [
          { title: 'Engraving text', lines: ['Ada'] },
          { title: 'Lettering', lines: ['Sans serif'] },
          { title: 'Notes', lines: ['None'] },
        ],
      });
    });

    it('leaves a product without a form as it was: any answers (or none) are stored as sent, with no summary', async () => {
      const none = await add({ itemId: 'limited', quantity: 1, additionalFields: '' });
      expect(none.statusCode).toBe(200);
      expect(none.json().newlyAdded).toMatchObject({ additionalFields: '', additionalFieldsSummary: [] });
      const some = await add(
        { itemId: 'limited', quantity: 1, additionalFields: { z: 1, a: ['x'] } },
        cartCookie(none),
      );
      expect(some.statusCode).toBe(200);
      expect(some.json().newlyAdded).toMatchObject({
        additionalFields: '{"a":["x"],"z":1}',
        additionalFieldsSummary: [],
      });
    });
  });

  describe('the cart page: PUT …/entries/{entryId}/quantity and DELETE …/entries/{entryId}', () => {
    const setQuantity = (entryId: string, payload: unknown, cookie?: string) =>
      app.inject({
        method: 'PUT',
        url: `${ENTRIES_API}/${encodeURIComponent(entryId)}/quantity`,
        headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    const remove = (entryId: string, cookie?: string, host = SHOP_HOST) =>
      app.inject({
        method: 'DELETE',
        url: `${ENTRIES_API}/${encodeURIComponent(entryId)}`,
        headers: { host, ...(cookie ? { cookie } : {}) },
      });

    it('sets a quantity within stock and answers the cart with the updated entry', async () => {
      const a = await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 });
      const cookie = cartCookie(a);
      const entry = a.json().newlyAdded.id as string;
      const changed = await setQuantity(entry, { quantity: '4' }, cookie);
      expect(changed.statusCode).toBe(200);
      expect(changed.headers['cache-control']).toBe('no-store');
      expect(changed.json().updatedEntry).toMatchObject({ id: entry, quantity: 4, subTotal: 4 * 1999 });
      expect(changed.json().shoppingCart).toMatchObject({ totalQuantity: 4, subtotalCents: 4 * 1999 });
      expect((await get(cookie)).json().entries[0].quantity).toBe(4);
    });

    it('refuses to raise past the stock, counting the other lines of the sku, and always allows lowering', async () => {
      const a = await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 1, additionalFields: '{"n":"a"}' });
      const cookie = cartCookie(a);
      await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 1, additionalFields: '{"n":"b"}' }, cookie);
      const entry = a.json().newlyAdded.id as string;
      const before = (await get(cookie)).json();

      const tooMany = await setQuantity(entry, { quantity: 3 }, cookie);
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json()).toMatchObject({ type: 'OUT_OF_STOCK', message: SPEC.outOfStock });
      expect((await get(cookie)).json()).toEqual(before);
      expect((await setQuantity(entry, { quantity: 2 }, cookie)).statusCode).toBe(200);

      // Stock falls below what the cart holds (a re-import): the shopper can still lower, not raise.
      await getDb().updateTable('variants').set({ qty_in_stock: 0 }).where('sku', '=', 'tee-s-red').execute();
      expect((await setQuantity(entry, { quantity: 2 }, cookie)).statusCode).toBe(200);
      expect((await setQuantity(entry, { quantity: 3 }, cookie)).statusCode).toBe(409);
      const lowered = await setQuantity(entry, { quantity: 1 }, cookie);
      expect(lowered.statusCode).toBe(200);
      expect(lowered.json().shoppingCart.totalQuantity).toBe(2);
      await getDb().updateTable('variants').set({ qty_in_stock: 3 }).where('sku', '=', 'tee-s-red').execute();
    });

    it('gives the quantity texts for a bad quantity, changing nothing', async () => {
      const a = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 2 });
      const cookie = cartCookie(a);
      const entry = a.json().newlyAdded.id as string;
      const cases: [unknown, string][] = [
        [{ quantity: 0 }, 'Quantity must be between 1 and 9999.'],
        [{ quantity: 10_000 }, 'Quantity must be between 1 and 9999.'],
        [{ quantity: 'lots' }, SPEC.notANumber],
        [{ quantity: null }, SPEC.notANumber],
        [{ quantity: 2.5 }, SPEC.notWhole],
        [{}, 'quantity is required.'],
        [[], 'The request body must be a JSON object.'],
      ];
      for (const [payload, message] of cases) {
        const response = await setQuantity(entry, payload, cookie);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().message, JSON.stringify(payload)).toBe(message);
      }
      expect((await setQuantity(entry, '{"quantity":', cookie)).statusCode).toBe(400);
      expect((await get(cookie)).json().totalQuantity).toBe(2);
    });

    it('removes an entry and keeps the cart; a second removal is a clear 404', async () => {
      const a = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 2 });
      const cookie = cartCookie(a);
      await add({ itemId: 'limited', sku: 'limited-1', quantity: 1 }, cookie);
      const entry = a.json().newlyAdded.id as string;
      const removed = await remove(entry, cookie);
      expect(removed.statusCode).toBe(200);
      expect(removed.json().shoppingCart).toMatchObject({ totalQuantity: 1, subtotalCents: 4000 });
      expect(removed.json().shoppingCart.entries.map((e: { itemId: string }) => e.itemId)).toEqual(['limited']);
      const again = await remove(entry, cookie);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'entry-not-found', message: 'That item is no longer in your cart.' });
      const last = (await get(cookie)).json().entries[0].id as string;
      const emptied = await remove(last, cookie);
      expect(emptied.json().shoppingCart).toMatchObject({ entries: [], totalQuantity: 0 });
      expect(emptied.json().shoppingCart.id).not.toBeNull();
      expect(await counts()).toEqual({ carts: 1, entries: 0 });
    });

    it("answers 404 without a cart, for another cart's entry and from another site, changing nothing", async () => {
      const a = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 });
      const entry = a.json().newlyAdded.id as string;
      const b = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 });
      for (const response of [
        await remove(entry),
        await remove(entry, cartCookie(b)),
        await remove(entry, cartCookie(a), OTHER_HOST),
        await setQuantity(entry, { quantity: 5 }),
        await setQuantity(entry, { quantity: 5 }, cartCookie(b)),
        await remove('x'.repeat(65), cartCookie(a)),
      ]) {
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, response.body).toBeLessThan(500);
      }
      expect((await get(cartCookie(a))).json().entries).toMatchObject([{ id: entry, quantity: 1 }]);
      expect(await counts()).toEqual({ carts: 2, entries: 2 });
    });
  });

  describe('concurrency', () => {
    it('never lets simultaneous adds to one cart pass the stock check together', async () => {
      const first = await add({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const cookie = cartCookie(first);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => add({ itemId: 'limited', sku: 'limited-1', quantity: 1 }, cookie)),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s === 409)).toHaveLength(14);
      const cart = (await get(cookie)).json();
      expect(cart.entries).toHaveLength(1);
      expect(cart.totalQuantity).toBe(7);
      expect(cart.subtotalCents).toBe(7 * 4000);
    });

    it('loses no update when simultaneous adds merge into one line', async () => {
      const first = await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 });
      const cookie = cartCookie(first);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1, additionalFields: i % 2 ? '{"gift":true}' : '' }, cookie),
        ),
      );
      expect(responses.every((r) => r.statusCode === 200)).toBe(true);
      const cart = (await get(cookie)).json();
      expect(cart.entries).toHaveLength(2);
      expect(cart.totalQuantity).toBe(21);
    });

    it('never lets simultaneous quantity changes and adds on one cart pass the stock check together', async () => {
      const first = await add({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
      const cookie = cartCookie(first);
      const entry = first.json().newlyAdded.id as string;
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2
            ? add({ itemId: 'limited', sku: 'limited-1', quantity: 1, additionalFields: '{"n":1}' }, cookie)
            : app.inject({
                method: 'PUT',
                url: `${ENTRIES_API}/${entry}/quantity`,
                headers: { host: SHOP_HOST, 'content-type': 'application/json', cookie },
                payload: JSON.stringify({ quantity: 2 + i / 2 }),
              }),
        ),
      );
      expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
      expect((await get(cookie)).json().totalQuantity).toBeLessThanOrEqual(7);
    });
  });
});
