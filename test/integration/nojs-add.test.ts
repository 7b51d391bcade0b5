/**
 * Add to cart without JavaScript (issue 10) on SQLite and PostgreSQL: the pages' add buttons sit in real forms that
 * post to /cart/add with the visitor's crumb; the post adds through the cart's own rules and answers 303 back to the
 * page, which shows the §5 success or refusal text once. Gift cards and subscriptions go to their own checkouts, a
 * product with a custom form gets its form as a page first, express checkout goes to checkout. The crumb is required,
 * bad input is a 4xx saying what was wrong, and a refused post stores nothing.
 */
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const ADD = '/cart/add';
const PDP = '/shop/p/tee';
const SHOP = '/shop';

/** The §5/§8 texts, copied from the spec so that a change in the core is caught here. */
const SPEC = {
  unableToAdd: 'Unable to Add Item',
  giftCardTitle: 'Unable to purchase Gift Card',
  outOfStock: 'Sorry, we do not have enough of that item available.',
  unavailable: 'Sorry, that item variant is unavailable. Please select another variant.',
  notANumber: 'Quantity must be a number.',
  notWhole: 'Quantity must be a whole number',
  giftCard: 'Select a denomination for the Gift Card',
  sessionExpired: 'Your session has expired. Please reload the page and try again.',
  tooMany: 'Please try again in a few seconds.',
};

/** A browser's cookie jar, kept from the answers' Set-Cookie. */
class Jar {
  readonly cookies = new Map<string, string>();
  constructor(crumb: string | null = TEST_CRUMB) {
    if (crumb) this.cookies.set('crumb', crumb);
  }
  take(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of response.cookies) {
      const expired =
        (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }
  /** Another tab of the same browser (same cookies, its own answers). */
  copy(): Jar {
    const copy = new Jar(null);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }
  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const form = (fields: Record<string, string | string[]>): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
  return params.toString();
};

/** The text of an HTML answer with tags removed and entities of the texts under test decoded. */
const textOf = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    app = await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await getDb().deleteFrom('subscription_carts').execute();
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
    await getDb()
      .updateTable('variants')
      .set({ qty_in_stock: 5 })
      .where('site_id', '=', 'shop')
      .where('sku', '=', 'engraved-1')
      .execute();
  });

  /** Posts the add form as a browser does: form-encoded, the crumb in its hidden field, the page as Referer. */
  const post = (
    jar: Jar,
    fields: Record<string, string | string[]>,
    from: string | null = PDP,
    extra: Record<string, string> = {},
  ) =>
    app
      .inject({
        method: 'POST',
        url: ADD,
        headers: {
          host: SHOP_HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: jar.header,
          origin: `http://${SHOP_HOST}`,
          ...(from ? { referer: `http://${SHOP_HOST}${from}` } : {}),
          ...extra,
        },
        payload: form({ crumb: jar.cookies.get('crumb') ?? '', ...fields }),
      })
      .then((r) => jar.take(r));
  const page = (jar: Jar, path: string) =>
    app
      .inject({ method: 'GET', url: path, headers: { host: SHOP_HOST, accept: 'text/html', cookie: jar.header } })
      .then((r) => jar.take(r));
  const stored = async () => {
    const entries = await getDb()
      .selectFrom('cart_entries')
      .select(['cart_id', 'sku', 'quantity', 'additional_fields'])
      .orderBy('created_at')
      .execute();
    return { carts: (await getDb().selectFrom('carts').select('id').execute()).length, entries };
  };
  /** Follows a 303 to a page of the site and gives the notice's text ('' when the page shows none). */
  const noticeAfter = async (jar: Jar, response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(303);
    const location = String(response.headers.location);
    const shown = await page(jar, location.split('#')[0]!);
    expect(shown.statusCode).toBe(200);
    const match = /<div id="cart-notice"[^>]*>([\s\S]*?)<\/div>/.exec(shown.body);
    return { location, text: match ? textOf(match[1]!).trim() : '', html: shown.body, page: shown };
  };

  describe('the pages carry real forms', () => {
    it('a product page: its purchase form posts to /cart/add with the product and option.* selects, and no per-visitor crumb (the page is one copy for everyone)', async () => {
      const jar = new Jar(null);
      const response = await page(jar, PDP);
      const purchase = /<form[^>]*class="purchase"[^>]*>([\s\S]*?)<\/form>/.exec(response.body);
      expect(purchase?.[0]).toMatch(/method="post"/);
      expect(purchase?.[0]).toMatch(/action="\/cart\/add"/);
      expect(purchase?.[1]).not.toContain('name="crumb"');
      const again = await page(new Jar(null), PDP);
      expect(again.headers.etag).toBe(response.headers.etag);
      expect(String(response.headers['cache-control'])).not.toContain('private');
      expect(purchase?.[1]).toContain('name="itemId" value="tee"');
      expect(purchase?.[1]).toContain('name="option.Size"');
      expect(purchase?.[1]).toContain('name="option.Colour"');
      expect(response.body).not.toContain('vitrine-crumb-placeholder');
    });

    it('a product list: every card’s button is the submit button of its own form (products without options name their SKU)', async () => {
      const jar = new Jar(null);
      const response = await page(jar, SHOP);
      const forms = [...response.body.matchAll(/<form class="add-to-cart-form"([^>]*)>([\s\S]*?)<\/form>/g)].map(
        (m) => {
          expect(m[1]).toMatch(/ method="post"/);
          expect(m[1]).toMatch(/ action="\/cart\/add"/);
          return m[2]!;
        },
      );
      expect(forms).toHaveLength(shopSite.products!.length);
      expect(forms.every((f) => !f.includes('name="crumb"') && /<button type="submit"/.test(f))).toBe(true);
      expect(forms.find((f) => f.includes('value="limited"'))).toContain('name="sku" value="limited-1"');
      expect(forms.find((f) => f.includes('value="tee"'))).not.toContain('name="sku"');
    });
  });

  describe('adding', () => {
    it('adds from a product page and comes back to it with §2’s text, once', async () => {
      const jar = new Jar();
      const response = await post(jar, { itemId: 'tee', 'option.Size': 'S', 'option.Colour': 'Red', quantity: '2' });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(jar.cookies.get('CART')).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(jar.cookies.get('hasCart')).toBe('true');
      const notice = await noticeAfter(jar, response);
      expect(notice.location).toBe(`${PDP}#cart-notice`);
      expect(notice.text).toBe('Tee was added to your cart. View cart');
      expect(notice.html).toMatch(
        /<div id="cart-notice" class="cart-notice cart-notice--added" role="status" tabindex="-1">/,
      );
      expect(notice.html).toContain('<a class="button button--small" href="/cart">View cart</a>');
      expect(notice.page.headers['cache-control']).toBe('no-store');
      expect(await stored()).toMatchObject({
        carts: 1,
        entries: [{ sku: 'tee-s-red', quantity: 2, additional_fields: '' }],
      });
      // Shown once: the next view of the page is the page as everyone gets it.
      expect(jar.cookies.has('cartNotice')).toBe(false);
      const again = await page(jar, PDP);
      expect(again.body).not.toContain('cart-notice');
      expect(again.headers.etag).toBeDefined();
    });

    it('adds from a grid card into the same cart, merging with the line it already has', async () => {
      const jar = new Jar();
      expect((await noticeAfter(jar, await post(jar, { itemId: 'limited', sku: 'limited-1' }, SHOP))).text).toBe(
        'Limited print was added to your cart. View cart',
      );
      const second = await noticeAfter(jar, await post(jar, { itemId: 'limited', sku: 'limited-1' }, SHOP));
      expect(second.location).toBe(`${SHOP}#cart-notice`);
      expect(await stored()).toMatchObject({ carts: 1, entries: [{ sku: 'limited-1', quantity: 2 }] });
    });

    it('goes back to the product page when the Referer is missing, of another site, or not a page', async () => {
      for (const referer of [
        null,
        'http://evil.example/shop',
        `http://${SHOP_HOST}/api/commerce/shopping-cart`,
        `http://${SHOP_HOST}//evil.example/x`,
      ]) {
        const jar = new Jar();
        const response = await post(jar, { itemId: 'limited', sku: 'limited-1' }, null, referer ? { referer } : {});
        expect(response.headers.location).toBe('/shop/p/limited#cart-notice');
      }
    });

    it('express checkout: adds, then 303 to the checkout', async () => {
      const jar = new Jar();
      const response = await post(jar, { itemId: 'limited', sku: 'limited-1', express: '1' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/commerce/goto-checkout');
      expect(await stored()).toMatchObject({ carts: 1, entries: [{ sku: 'limited-1', quantity: 1 }] });
    });

    it('never holds more than the stock when one visitor’s posts race (the cart row is locked)', async () => {
      const jar = new Jar();
      await post(jar, { itemId: 'limited', sku: 'limited-1' }, SHOP);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => post(jar.copy(), { itemId: 'limited', sku: 'limited-1' }, SHOP)),
      );
      expect(answers.every((a) => a.statusCode === 303)).toBe(true);
      const { carts, entries } = await stored();
      expect(carts).toBe(1);
      expect(entries).toEqual([expect.objectContaining({ sku: 'limited-1', quantity: 7 })]);
    });
  });

  describe('refusals come back to the page with the §5 text, and store nothing', () => {
    it.each<[string, Record<string, string>, string]>([
      ['out of stock', { 'option.Size': 'M', 'option.Colour': 'Red' }, SPEC.outOfStock],
      ['an option unselected', { 'option.Size': 'S', 'option.Colour': '' }, 'Please select the Colour option.'],
      ['no such variant', { 'option.Size': 'M', 'option.Colour': 'Blue' }, SPEC.unavailable],
      [
        'a quantity that is not a number',
        { 'option.Size': 'S', 'option.Colour': 'Red', quantity: 'abc' },
        SPEC.notANumber,
      ],
      ['a quantity that is not whole', { 'option.Size': 'S', 'option.Colour': 'Red', quantity: '1.5' }, SPEC.notWhole],
      ['more than the stock', { 'option.Size': 'S', 'option.Colour': 'Red', quantity: '4' }, SPEC.outOfStock],
    ])('%s', async (_name, fields, message) => {
      const jar = new Jar();
      const notice = await noticeAfter(jar, await post(jar, { itemId: 'tee', ...fields }));
      expect(notice.location).toBe(`${PDP}#cart-notice`);
      expect(notice.text).toBe(`${SPEC.unableToAdd} ${message}`);
      expect(notice.html).toMatch(
        /<div id="cart-notice" class="cart-notice cart-notice--refused" role="alert" tabindex="-1">/,
      );
      expect(await stored()).toEqual({ carts: 0, entries: [] });
    });

    it('counts what the cart already holds', async () => {
      const jar = new Jar();
      await post(jar, { itemId: 'limited', sku: 'limited-1', quantity: '5' });
      const notice = await noticeAfter(jar, await post(jar, { itemId: 'limited', sku: 'limited-1', quantity: '3' }));
      expect(notice.text).toBe(`${SPEC.unableToAdd} ${SPEC.outOfStock}`);
      expect(await stored()).toMatchObject({ entries: [{ quantity: 5 }] });
    });

    it('a card without selectors sends the shopper to the product page, which names the options to choose', async () => {
      const jar = new Jar();
      const notice = await noticeAfter(jar, await post(jar, { itemId: 'tee' }, SHOP));
      expect(notice.location).toBe(`${PDP}#cart-notice`);
      expect(notice.text).toBe(`${SPEC.unableToAdd} Please select the Size and Colour options.`);
      expect(await stored()).toEqual({ carts: 0, entries: [] });
    });
  });

  describe('their own checkouts and forms', () => {
    it('a gift card goes to its checkout with the chosen amount; without one, the §5 text under the gift card’s title', async () => {
      const jar = new Jar();
      const chosen = await post(jar, { itemId: 'gift', 'option.Amount': '50' }, '/shop/p/gift');
      expect(chosen.statusCode).toBe(303);
      expect(chosen.headers.location).toBe('/checkout/giftcard?websiteId=shop&giftCardProductId=gift&sku=gift-50');
      const card = await noticeAfter(jar, await post(jar, { itemId: 'gift' }, SHOP));
      expect(card.location).toBe('/shop/p/gift#cart-notice');
      expect(card.text).toBe(`${SPEC.giftCardTitle} ${SPEC.giftCard}`);
      expect(await stored()).toEqual({ carts: 0, entries: [] });
    });

    it('a subscription goes to the subscription checkout, leaving the shopper’s cart alone', async () => {
      const jar = new Jar();
      const response = await post(jar, { itemId: 'coffee', sku: 'coffee-1' }, SHOP);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toMatch(/^\/checkout\/subscribe\?cartToken=[A-Za-z0-9_-]+$/);
      expect(jar.cookies.has('CART')).toBe(false);
      expect(
        (await getDb().selectFrom('subscription_carts').select('item_id').execute()).map((r) => r.item_id),
      ).toEqual(['coffee']);
    });

    it('a product with a custom form: its form as a page first (nothing added), then the add with valid answers only', async () => {
      const jar = new Jar();
      const first = await post(jar, { itemId: 'engraved', sku: 'engraved-1', quantity: '2' }, SHOP);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      const text = textOf(first.body);
      expect(text).toContain('Engraving');
      expect(text).toContain('For Engraved mug');
      expect(first.body).toMatch(/<form class="form-dialog__form"[^>]* action="\/cart\/add" method="post">/);
      expect(first.body).toContain(`name="crumb" value="${TEST_CRUMB}"`);
      expect(await stored()).toEqual({ carts: 0, entries: [] });
      const pending = /name="vitrine\.add" value="([^"]+)"/.exec(first.body)![1]!.replace(/&quot;/g, '"');
      expect(JSON.parse(pending)).toMatchObject({ itemId: 'engraved', sku: 'engraved-1', quantity: '2', backTo: SHOP });

      // Answers missing: the form again, 400, each message above its field, what was typed kept.
      const refused = await post(jar, { 'vitrine.add': pending, notes: 'kept' }, ADD);
      expect(refused.statusCode).toBe(400);
      expect(textOf(refused.body)).toContain('Engraving text: Required. Lettering: Required.');
      expect(refused.body.match(/class="field__error"/g)).toHaveLength(2);
      expect(refused.body).toContain('>kept</textarea>');
      expect(await stored()).toEqual({ carts: 0, entries: [] });

      const added = await noticeAfter(
        jar,
        await post(jar, { 'vitrine.add': pending, 'engraving-text': 'Morning, Sam', lettering: 'Serif' }, ADD),
      );
      expect(added.location).toBe(`${SHOP}#cart-notice`);
      expect(added.text).toBe('Engraved mug was added to your cart. View cart');
      const { entries } = await stored();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ sku: 'engraved-1', quantity: 2 });
      expect(JSON.parse(entries[0]!.additional_fields)).toMatchObject({
        'engraving-text': 'Morning, Sam',
        lettering: 'Serif',
      });
    });

    it('a product with a custom form that is sold out: the §5 text, no form', async () => {
      await getDb()
        .updateTable('variants')
        .set({ qty_in_stock: 0 })
        .where('site_id', '=', 'shop')
        .where('sku', '=', 'engraved-1')
        .execute();
      const jar = new Jar();
      const notice = await noticeAfter(jar, await post(jar, { itemId: 'engraved', sku: 'engraved-1' }, SHOP));
      expect(notice.text).toBe(`${SPEC.unableToAdd} ${SPEC.outOfStock}`);
      expect(notice.html).not.toContain('vitrine.add');
    });
  });

  describe('the crumb and bad input', () => {
    it('takes a post without the crumb when the browser says it came from this site’s own page (Sec-Fetch-Site or Origin)', async () => {
      for (const proof of [{ 'sec-fetch-site': 'same-origin' }, { origin: `http://${SHOP_HOST}` }] as Record<
        string,
        string
      >[]) {
        const added = await app.inject({
          method: 'POST',
          url: ADD,
          headers: {
            host: SHOP_HOST,
            accept: 'text/html',
            'content-type': 'application/x-www-form-urlencoded',
            referer: `http://${SHOP_HOST}${PDP}`,
            ...proof,
          },
          payload: form({ itemId: 'limited', sku: 'limited-1' }),
        });
        expect(added.statusCode, JSON.stringify(proof)).toBe(303);
      }
      expect((await stored()).entries).toHaveLength(2);
    });

    it('refuses a post with neither the crumb nor a same-origin browser header, one from a sibling site, or from another site (403, §8 text), storing nothing', async () => {
      const noCrumb = await app.inject({
        method: 'POST',
        url: ADD,
        headers: { host: SHOP_HOST, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ itemId: 'limited', sku: 'limited-1' }),
      });
      expect(noCrumb.statusCode).toBe(403);
      expect(textOf(noCrumb.body)).toContain(SPEC.sessionExpired);
      const otherCrumb = await app.inject({
        method: 'POST',
        url: ADD,
        headers: {
          host: SHOP_HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `crumb=${TEST_CRUMB}`,
        },
        payload: form({ itemId: 'limited', sku: 'limited-1', crumb: 'AAAAAAAAAAAAAAAAAAAAAA' }),
      });
      expect(otherCrumb.statusCode).toBe(403);
      const sibling = await app.inject({
        method: 'POST',
        url: ADD,
        headers: {
          host: SHOP_HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-site',
        },
        payload: form({ itemId: 'limited', sku: 'limited-1' }),
      });
      expect(sibling.statusCode).toBe(403);
      const crossSite = await post(new Jar(), { itemId: 'limited', sku: 'limited-1' }, PDP, {
        origin: 'http://evil.example',
      });
      expect(crossSite.statusCode).toBe(403);
      expect(await stored()).toEqual({ carts: 0, entries: [] });
    });

    it.each<[string, Record<string, string | string[]>, number, string]>([
      ['no product', { sku: 'limited-1' }, 400, 'itemId is required: the form names no product.'],
      ['the product twice', { itemId: ['limited', 'tee'] }, 400, 'itemId must be given once, as text.'],
      ['an unknown product', { itemId: 'no-such-thing' }, 404, 'Sorry, that item is no longer available.'],
      [
        'a quantity of 101 characters',
        { itemId: 'limited', quantity: '1'.repeat(101) },
        400,
        'quantity must be at most 100 characters.',
      ],
      [
        'a damaged product-form state',
        { 'vitrine.add': '{"itemId":' },
        400,
        "The form's hidden details are damaged. Please go back to the product and add it again.",
      ],
    ])('%s: a 4xx saying what was wrong', async (_name, fields, status, message) => {
      const response = await post(new Jar(), fields);
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(textOf(response.body)).toContain(message);
      expect(await stored()).toEqual({ carts: 0, entries: [] });
    });

    it('refuses a body that is not a form (400) without a 500', async () => {
      const jar = new Jar();
      const response = await app.inject({
        method: 'POST',
        url: ADD,
        headers: {
          host: SHOP_HOST,
          accept: 'text/html',
          'content-type': 'text/plain',
          cookie: jar.header,
          'x-csrf-token': TEST_CRUMB,
        },
        payload: 'itemId=limited',
      });
      expect(response.statusCode).toBe(400);
      expect(textOf(response.body)).toContain('The request body must be a form (application/x-www-form-urlencoded).');
    });

    it('answers any form body with a page, a redirect or a 4xx, never a 500 (fast-check)', async () => {
      const name = fc.oneof(
        fc.constantFrom(
          'itemId',
          'sku',
          'quantity',
          'subscriptionOptionId',
          'express',
          'vitrine.add',
          'option.Size',
          'option.Colour',
          'option.',
          'engraving-text',
          'lettering',
        ),
        fc.string({ maxLength: 12 }),
      );
      const value = fc.oneof(
        fc.constantFrom(
          'tee',
          'limited',
          'engraved',
          'gift',
          'coffee',
          'ebook',
          'limited-1',
          'engraved-1',
          'S',
          'Red',
          '1',
          '0',
          '-1',
          '1e3',
          '9999999999999999999',
          '',
        ),
        fc.constantFrom(
          '{"itemId":"engraved","sku":"engraved-1"}',
          '{"itemId":"tee","sku":"nope","backTo":"//evil.example"}',
          '{}',
          'null',
          '[1]',
        ),
        fc.string({ maxLength: 24 }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 8 }), async (pairs) => {
          const response = await app.inject({
            method: 'POST',
            url: ADD,
            headers: {
              host: SHOP_HOST,
              accept: 'text/html',
              'content-type': 'application/x-www-form-urlencoded',
              cookie: `crumb=${TEST_CRUMB}`,
            },
            payload: new URLSearchParams([['crumb', TEST_CRUMB], ...pairs]).toString(),
          });
          expect([200, 303, 400, 403, 404]).toContain(response.statusCode);
          const location = response.headers.location;
          if (location !== undefined) expect(String(location)).toMatch(/^\/(?![/\\])/);
        }),
        { numRuns: 60 },
      );
    });

    it('ignores a notice cookie it did not write', async () => {
      const jar = new Jar();
      jar.cookies.set('cartNotice', 'r.tee.<script>');
      const shown = await page(jar, PDP);
      expect(shown.body).not.toContain('cart-notice');
      expect(jar.cookies.has('cartNotice')).toBe(false);
    });
  });
});

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    app = await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 60 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is rate-limited as the cart routes are (429, §8 text)', async () => {
    const send = () =>
      app.inject({
        method: 'POST',
        url: ADD,
        headers: {
          host: SHOP_HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `crumb=${TEST_CRUMB}`,
        },
        payload: form({ crumb: TEST_CRUMB, itemId: 'limited', sku: 'limited-1' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await send()).statusCode);
    expect(statuses).toEqual(Array(10).fill(303));
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(textOf(refused.body)).toContain(SPEC.tooMany);
  });
});
