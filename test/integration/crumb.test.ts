/**
 * CSRF defence (issue 12 item 6; spec §7, §8) on SQLite and PostgreSQL: pages hand out the crumb cookie, every
 * state-changing call must send it back in the crumb header (a form posted without JavaScript: in its hidden field),
 * and a request another website made the browser send (Origin, Sec-Fetch-Site) is refused — with nothing stored.
 * This app does not add crumbs by itself (no sendCrumbs): every header here is written out.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { STRIPE_WEBHOOK_PATH } from '../../src/modules/payments/routes';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { forEachEngine } from '../support/engines';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const QUOTE_API = '/api/commerce/checkout/quote';
const ORDERS_API = '/api/commerce/checkout/orders';
const SESSION_EXPIRED = 'Your session has expired. Please reload the page and try again.';
const ADD = JSON.stringify({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 });
const json = { host: SHOP_HOST, 'content-type': 'application/json' };
const BEACON = '/api/test/beacon';

/** The crumb cookie a page answer set, or undefined. */
const crumbSetBy = (response: LightMyRequestResponse) => response.cookies.find((c) => c.name === 'crumb');

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let crumb: string;

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    app = await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000, trustProxy: 1 });
    // A beacon route as the analytics routes declare theirs: sendBeacon cannot add a header.
    app.post(BEACON, { config: { crumb: 'origin-only' } }, async (_request, reply) => reply.code(202).send());
    const page = await app.inject({ method: 'GET', url: '/', headers: { host: SHOP_HOST } });
    crumb = crumbSetBy(page)!.value;
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
  });

  const carts = async () => (await getDb().selectFrom('carts').select('id').execute()).length;
  const withCrumb = (headers: Record<string, string>, value = crumb) => ({
    ...headers,
    cookie: `crumb=${value}`,
    'x-csrf-token': value,
  });
  const add = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: ENTRIES_API, headers, payload: ADD });

  function expectRefused(response: LightMyRequestResponse, code: string, message: string) {
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code, message, type: 'API_FAILURE' });
    expect(response.headers['set-cookie'] ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/^CART=/)]));
  }

  describe('the crumb cookie', () => {
    it('is given by a page to a visitor without one: 128 random bits, readable by scripts, Lax, for the whole site', async () => {
      const page = await app.inject({ method: 'GET', url: '/', headers: { host: SHOP_HOST } });
      const set = crumbSetBy(page)!;
      expect(set.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(set.value).not.toBe(crumb);
      expect(set).toMatchObject({ path: '/', sameSite: 'Lax' });
      expect(set.httpOnly).toBeFalsy();
      expect(set.secure).toBeFalsy();
      // The not-found page gives it too (this test site has no home page); a visitor who has one keeps it.
      expect(
        crumbSetBy(
          await app.inject({ method: 'GET', url: '/no-such-page', headers: { host: SHOP_HOST, accept: 'text/html' } }),
        ),
      ).toBeDefined();
      const again = await app.inject({
        method: 'GET',
        url: '/',
        headers: { host: SHOP_HOST, cookie: `crumb=${crumb}` },
      });
      expect(crumbSetBy(again)).toBeUndefined();
      // A page the browser kept (304) gives one too: a reload after the crumb was lost must bring a new one.
      const shop = await app.inject({
        method: 'GET',
        url: '/shop',
        headers: { host: SHOP_HOST, cookie: `crumb=${crumb}` },
      });
      expect(shop.statusCode).toBe(200);
      const kept = await app.inject({
        method: 'GET',
        url: '/shop',
        headers: { host: SHOP_HOST, 'if-none-match': shop.headers.etag as string },
      });
      expect(kept.statusCode).toBe(304);
      expect(crumbSetBy(kept)?.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // A malformed one is replaced.
      expect(
        crumbSetBy(await app.inject({ method: 'GET', url: '/', headers: { host: SHOP_HOST, cookie: 'crumb=short' } })),
      ).toBeDefined();
    });

    it('is Secure when the page came over https', async () => {
      const page = await app.inject({
        method: 'GET',
        url: '/',
        headers: { host: SHOP_HOST, 'x-forwarded-proto': 'https' },
      });
      expect(crumbSetBy(page)!.secure).toBe(true);
    });

    it('is not given by JSON calls and assets', async () => {
      expect(
        crumbSetBy(
          await app.inject({ method: 'GET', url: '/api/commerce/shopping-cart', headers: { host: SHOP_HOST } }),
        ),
      ).toBeUndefined();
    });
  });

  describe('state-changing calls', () => {
    it('are taken with the crumb cookie and the same value in the crumb header', async () => {
      const added = await add(withCrumb(json));
      expect(added.statusCode).toBe(200);
      expect(await carts()).toBe(1);
    });

    it('are refused with the §8 crumb failure, storing nothing, when the header is missing, differs or the cookie is gone', async () => {
      for (const headers of [
        { ...json, cookie: `crumb=${crumb}` },
        { ...json, 'x-csrf-token': crumb },
        { ...json, cookie: `crumb=${crumb}`, 'x-csrf-token': crumb.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
        { ...json, cookie: 'crumb=short', 'x-csrf-token': 'short' },
        json,
      ]) {
        expectRefused(await add(headers), 'crumb-invalid', SESSION_EXPIRED);
      }
      expect(await carts()).toBe(0);
    });

    it('are checked on every method and route that writes: quantity, remove, quote, order', async () => {
      const added = await add(withCrumb(json));
      const cookie = `CART=${added.cookies.find((c) => c.name === 'CART')!.value}`;
      const entryId = (added.json() as { shoppingCart: { entries: { id: string }[] } }).shoppingCart.entries[0]!.id;
      const headers = { ...json, cookie: `${cookie}; crumb=${crumb}` };
      const calls = [
        { method: 'PUT' as const, url: `${ENTRIES_API}/${entryId}/quantity`, payload: '{"quantity":3}' },
        { method: 'DELETE' as const, url: `${ENTRIES_API}/${entryId}` },
        { method: 'POST' as const, url: QUOTE_API, payload: '{}' },
        {
          method: 'POST' as const,
          url: ORDERS_API,
          payload: JSON.stringify({
            idempotencyKey: 'crumb-test-key-000000001',
            email: 'ada@example.com',
            shippingAddress: NEW_YORK,
            shippingOptionId: 'standard',
            payment: TEST_CARD,
          }),
        },
      ];
      for (const call of calls) {
        const { ['content-type']: _, ...noType } = headers;
        expectRefused(
          await app.inject({ ...call, headers: call.payload ? headers : noType }),
          'crumb-invalid',
          SESSION_EXPIRED,
        );
      }
      const cart = await app.inject({
        method: 'GET',
        url: '/api/commerce/shopping-cart',
        headers: { host: SHOP_HOST, cookie },
      });
      expect(cart.json()).toMatchObject({ totalQuantity: 1 });
      expect(await getDb().selectFrom('orders').select('id').execute()).toEqual([]);
      // With the header, the same calls go through.
      const quantity = await app.inject({ ...calls[0]!, headers: { ...headers, 'x-csrf-token': crumb } });
      expect(quantity.statusCode).toBe(200);
    });

    it('are refused when another website sent them, whatever the crumb: Origin of another host, an opaque Origin, Sec-Fetch-Site cross-site', async () => {
      for (const extra of [
        { origin: 'https://evil.example' } as Record<string, string>,
        { origin: `http://${SHOP_HOST}.evil.example` },
        { origin: 'null' },
        { origin: 'not a url' },
        { 'sec-fetch-site': 'cross-site' },
      ]) {
        expectRefused(
          await add({ ...withCrumb(json), ...extra }),
          'cross-site-refused',
          'This request came from another website, so it was refused. Please use this shop’s own pages.',
        );
      }
      expect(await carts()).toBe(0);
    });

    it('are taken from the shop’s own pages: Origin of this host (any letter case), Sec-Fetch-Site same-origin', async () => {
      for (const extra of [
        { origin: `http://${SHOP_HOST}` } as Record<string, string>,
        { origin: `https://${SHOP_HOST.toUpperCase()}` },
        { 'sec-fetch-site': 'same-origin' },
      ]) {
        expect((await add({ ...withCrumb(json), ...extra })).statusCode).toBe(200);
      }
    });

    it("a beacon route (config crumb 'origin-only') takes writes without the crumb, never from another website", async () => {
      const beacon = (headers: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: BEACON,
          headers: { host: SHOP_HOST, 'content-type': 'text/plain', ...headers },
          payload: 'x',
        });
      expect((await beacon({})).statusCode).toBe(202);
      expect((await beacon({ origin: `http://${SHOP_HOST}` })).statusCode).toBe(202);
      const foreign = await beacon({ origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().code).toBe('cross-site-refused');
    });

    it('GET and HEAD are never checked', async () => {
      const read = await app.inject({
        method: 'GET',
        url: '/api/commerce/shopping-cart',
        headers: { host: SHOP_HOST, origin: 'https://evil.example' },
      });
      expect(read.statusCode).toBe(200);
    });

    it('the payment webhook, called by the payment service, is not checked', async () => {
      const hook = await app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers: json, payload: '{}' });
      expect(hook.statusCode).toBe(404);
      expect(hook.json().message).toBe('Stripe is not configured.');
    });
  });

  describe('the checkout form posted without JavaScript', () => {
    async function cartWithShirt(): Promise<string> {
      const added = await add(withCrumb(json));
      return `CART=${added.cookies.find((c) => c.name === 'CART')!.value}`;
    }
    const form = { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

    it('carries the visitor’s crumb in a hidden field, and is taken with it', async () => {
      const cart = await cartWithShirt();
      const page = await app.inject({
        method: 'GET',
        url: '/checkout',
        headers: { host: SHOP_HOST, cookie: `${cart}; crumb=${crumb}` },
      });
      expect(page.body).toContain(`<input type="hidden" name="crumb" value="${crumb}"/>`);
      expect(crumbSetBy(page)).toBeUndefined();
      const posted = await app.inject({
        method: 'POST',
        url: '/checkout',
        headers: { ...form, cookie: `${cart}; crumb=${crumb}` },
        payload: `intent=quote&email=ada%40example.com&crumb=${crumb}`,
      });
      expect(posted.statusCode).toBe(200);
      expect(posted.body).toContain('Order summary');
    });

    it('gives a visitor without a crumb one, in the cookie and the field alike', async () => {
      const cart = await cartWithShirt();
      const page = await app.inject({ method: 'GET', url: '/checkout', headers: { host: SHOP_HOST, cookie: cart } });
      const given = crumbSetBy(page)!.value;
      expect(page.body).toContain(`<input type="hidden" name="crumb" value="${given}"/>`);
    });

    it('without the field, or from another website, is refused with a page that says why, and no order is placed', async () => {
      const cart = await cartWithShirt();
      const place = `intent=place&idempotencyKey=crumb-form-key-0000000001&email=ada%40example.com&cardNumber=4242424242424242&cardExpiry=12%2F34&cardCvc=123`;
      const missing = await app.inject({
        method: 'POST',
        url: '/checkout',
        headers: { ...form, cookie: `${cart}; crumb=${crumb}` },
        payload: place,
      });
      expect(missing.statusCode).toBe(403);
      expect(missing.headers['content-type']).toMatch(/^text\/html/);
      expect(missing.body).toContain(SESSION_EXPIRED);
      const foreign = await app.inject({
        method: 'POST',
        url: '/checkout',
        headers: { ...form, cookie: `${cart}; crumb=${crumb}`, origin: 'https://evil.example' },
        payload: `${place}&crumb=${crumb}`,
      });
      expect(foreign.statusCode).toBe(403);
      expect(await getDb().selectFrom('orders').select('id').execute()).toEqual([]);
    });
  });
});
