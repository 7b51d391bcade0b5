/**
 * The cart page without JavaScript (issue 23) on SQLite and PostgreSQL: a visitor with a cart cookie gets /cart with
 * their lines drawn on the server (product link, options, form answers, quantity, line total, subtotal) and each
 * line's quantity and removal as real forms carrying the crumb; the forms change the line through the cart's own
 * rules and answer 303 back to /cart, where a refusal shows once with §8's title and its text. Bad input changes
 * nothing and is never a 500. Visitors without a cart still get the cached page, from the fast path.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';

/** The §5 / §8 texts, copied from the spec so that a change in the core is caught here. */
const SPEC = {
  unableToUpdate: 'Unable to update quantity',
  unableToRemove: 'Unable to remove item',
  outOfStock: 'Sorry, we do not have enough of that item available.',
  notANumber: 'Quantity must be a number.',
  emptyCart: 'You have nothing in your shopping cart.',
  sessionExpired: 'Your session has expired. Please reload the page and try again.',
};

class Jar {
  readonly cookies = new Map<string, string>([['crumb', TEST_CRUMB]]);
  take(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of response.cookies) {
      const expired =
        (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }
  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const textOf = (html: string): string =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The server-drawn lines of a cart page: each line's HTML. */
const linesOf = (html: string): string[] =>
  [...html.matchAll(/<li class="cart-line"[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);

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
    await getDb().deleteFrom('cart_entries').execute();
    await getDb().deleteFrom('carts').execute();
    await getDb()
      .updateTable('variants')
      .set({ qty_in_stock: 7 })
      .where('site_id', '=', 'shop')
      .where('sku', '=', 'limited-1')
      .execute();
  });

  const headers = (jar: Jar, extra: Record<string, string> = {}) => ({
    host: SHOP_HOST,
    accept: 'text/html',
    cookie: jar.header,
    ...extra,
  });
  const post = (
    jar: Jar,
    url: string,
    fields: Record<string, string | string[]>,
    crumb: string | null = TEST_CRUMB,
  ) => {
    const params = new URLSearchParams();
    if (crumb !== null) params.append('crumb', crumb);
    for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
    return app
      .inject({
        method: 'POST',
        url,
        headers: headers(jar, { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${SHOP_HOST}` }),
        payload: params.toString(),
      })
      .then((r) => jar.take(r));
  };
  const cartPage = (jar: Jar) =>
    app.inject({ method: 'GET', url: '/cart', headers: headers(jar) }).then((r) => jar.take(r));
  const add = async (jar: Jar, fields: Record<string, string>) => {
    const response = await post(jar, '/cart/add', fields);
    expect(response.statusCode).toBe(303);
    jar.cookies.delete('cartNotice');
  };
  const entries = () =>
    getDb().selectFrom('cart_entries').select(['id', 'sku', 'quantity']).orderBy('created_at').orderBy('id').execute();
  /** Follows a 303 to /cart and gives the page and its notice's text ('' when none). */
  const after = async (jar: Jar, response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(303);
    expect(response.headers['cache-control']).toBe('no-store');
    const location = String(response.headers.location);
    expect(location.split('#')[0]).toBe('/cart');
    const shown = await cartPage(jar);
    expect(shown.statusCode).toBe(200);
    const notice = /<div id="cart-notice"[^>]*>([\s\S]*?)<\/div>/.exec(shown.body);
    return { location, notice: notice ? textOf(notice[1]!) : '', page: shown };
  };

  describe('GET /cart', () => {
    it('draws the lines of a visitor with a cart: product link, options, quantity, line total, subtotal, Continue shopping', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'tee', 'option.Size': 'S', 'option.Colour': 'Blue', quantity: '2' });
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const page = await cartPage(jar);
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      const lines = linesOf(page.body);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain('<a href="/shop/p/tee">Tee</a>');
      expect(textOf(lines[0]!)).toContain('Size: S');
      expect(textOf(lines[0]!)).toContain('Colour: Blue');
      expect(lines[0]).toMatch(/name="quantity"[^>]*value="2"|value="2"[^>]*name="quantity"/);
      expect(textOf(lines[0]!)).toContain('$39.98');
      expect(lines[1]).toContain('<a href="/shop/p/limited">Limited print</a>');
      expect(textOf(lines[1]!)).toContain('$40.00');
      expect(textOf(page.body)).toMatch(/Subtotal \$79\.98/);
      expect(page.body).toContain('>Continue shopping</a>');
      expect(page.body).toMatch(/<a href="\/shop">Continue shopping<\/a>/);
      // Real forms with the visitor's crumb, the placeholder filled in.
      const forms = [
        ...page.body.matchAll(
          /<form class="cart-line__(quantity|remove-form)" action="([^"]+)" method="post">([\s\S]*?)<\/form>/g,
        ),
      ];
      expect(forms.map((f) => f[2])).toEqual(['/cart/update', '/cart/remove', '/cart/update', '/cart/remove']);
      for (const f of forms) expect(f[3]).toContain(`name="crumb" value="${TEST_CRUMB}"`);
      expect(page.body).not.toContain('vitrine-crumb-placeholder');
      // No floating pill on the cart page.
      expect(page.body).not.toContain('cart-pill');
    });

    it('shows a line’s form answers', async () => {
      const jar = new Jar();
      // The product form's page posts the add waiting for its answers.
      const pending = JSON.stringify({
        itemId: 'engraved',
        sku: 'engraved-1',
        quantity: '1',
        subscriptionOptionId: null,
        express: false,
      });
      const added = await post(jar, '/cart/add', {
        'vitrine.add': pending,
        'engraving-text': 'For Ada',
        lettering: 'Serif',
      });
      expect(added.statusCode).toBe(303);
      jar.cookies.delete('cartNotice');
      const line = linesOf((await cartPage(jar)).body)[0]!;
      expect(textOf(line)).toContain('Engraving text For Ada');
      expect(textOf(line)).toContain('Lettering Serif');
    });

    it('an empty cart (its last line removed) says so and links back to the shop', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [entry] = await entries();
      await after(jar, await post(jar, '/cart/remove', { entryId: entry!.id }));
      const page = await cartPage(jar);
      expect(linesOf(page.body)).toHaveLength(0);
      expect(textOf(page.body)).toContain(SPEC.emptyCart);
      expect(page.body).toMatch(/<a class="button" href="\/shop">Continue shopping<\/a>/);
    });

    it('a visitor without a cart gets the cached page (the empty cart, with its link to the shop)', async () => {
      const page = await cartPage(new Jar());
      expect(page.statusCode).toBe(200);
      expect(page.headers.etag).toBeDefined();
      expect(String(page.headers['cache-control'])).toContain('public');
      expect(textOf(page.body)).toContain(SPEC.emptyCart);
      expect(page.body).toMatch(/<a class="button" href="\/shop">Continue shopping<\/a>/);
    });

    it('a cart cookie naming no cart: the empty cart, and the cookies are dropped', async () => {
      const jar = new Jar();
      jar.cookies.set('CART', 'A'.repeat(22));
      jar.cookies.set('hasCart', 'true');
      const page = await cartPage(jar);
      expect(page.statusCode).toBe(200);
      expect(textOf(page.body)).toContain(SPEC.emptyCart);
      expect(jar.cookies.has('CART')).toBe(false);
      expect(jar.cookies.has('hasCart')).toBe(false);
    });

    it('real HTTP: the fast path answers /cart for visitors without a cart, never for one with a cart cookie', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        /**
         * Asks until an answer comes from before Fastify (the first request renders the page; on a loaded machine the
         * fast path also steps aside while the site list is over a second old): that answer's body.
         */
        const fromFastPath = async (path: string, cookie: string) => {
          for (let i = 0; i < 20; i++) {
            const before = app.pageFastPath.answered;
            const body = await (await fetch(`${address}${path}`, { headers: { host: SHOP_HOST, cookie } })).text();
            if (app.pageFastPath.answered === before + 1) return body;
          }
          throw new Error(`${path} was never answered before Fastify`);
        };
        expect(await fromFastPath('/cart', `crumb=${TEST_CRUMB}`)).toContain(SPEC.emptyCart);
        const before = app.pageFastPath.answered;
        const mine = await fetch(`${address}/cart`, { headers: { host: SHOP_HOST, cookie: jar.header } });
        const body = await mine.text();
        expect(linesOf(body)).toHaveLength(1);
        expect(body).toContain('Limited print');
        expect(app.pageFastPath.answered).toBe(before);
        // Other pages are still answered from the fast path with a cart cookie.
        await fromFastPath('/shop', jar.header);
      } finally {
        await app.close();
        app = await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 });
      }
    });
  });

  describe('POST /cart/update and /cart/remove', () => {
    it('changes a line’s quantity, then removes it (303 back to /cart each time)', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [entry] = await entries();
      const updated = await after(jar, await post(jar, '/cart/update', { entryId: entry!.id, quantity: '3' }));
      expect(updated.location).toBe('/cart');
      expect(updated.notice).toBe('');
      expect(await entries()).toMatchObject([{ sku: 'limited-1', quantity: 3 }]);
      expect(textOf(linesOf(updated.page.body)[0]!)).toContain('$120.00');
      const removed = await after(jar, await post(jar, '/cart/remove', { entryId: entry!.id }));
      expect(removed.notice).toBe('');
      expect(await entries()).toEqual([]);
      expect(textOf(removed.page.body)).toContain(SPEC.emptyCart);
    });

    it('refuses more than the stock with the §5 text under §8’s title, once, and changes nothing', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [entry] = await entries();
      const refused = await after(jar, await post(jar, '/cart/update', { entryId: entry!.id, quantity: '8' }));
      expect(refused.location).toBe('/cart#cart-notice');
      expect(refused.notice).toBe(`${SPEC.unableToUpdate} ${SPEC.outOfStock}`);
      expect(refused.page.body).toMatch(/<div id="cart-notice" class="cart-notice cart-notice--refused" role="alert"/);
      expect(await entries()).toMatchObject([{ quantity: 1 }]);
      // Shown once.
      expect((await cartPage(jar)).body).not.toContain('cart-notice');
    });

    it.each([
      ['-1', 'Quantity must be between 1 and 9999.'],
      ['0', 'Quantity must be between 1 and 9999.'],
      ['99999999999999999999', 'Quantity must be between 1 and 9999.'],
      ['abc', SPEC.notANumber],
      ['', SPEC.notANumber],
      ['1.5', 'Quantity must be a whole number'],
    ])('a quantity of %j: %s, nothing changed', async (quantity, message) => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [entry] = await entries();
      const refused = await after(jar, await post(jar, '/cart/update', { entryId: entry!.id, quantity }));
      expect(refused.notice).toBe(`${SPEC.unableToUpdate} ${message}`);
      expect(await entries()).toMatchObject([{ quantity: 1 }]);
    });

    it('an unknown line, or another visitor’s: “no longer in your cart”, nothing changed', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [mine] = await entries();
      const other = new Jar();
      await add(other, { itemId: 'limited', sku: 'limited-1' });
      // Not by position: both lines can be made in the same millisecond, and then their (random) ids order them.
      const theirs = (await entries()).find((e) => e.id !== mine!.id);
      for (const entryId of ['no-such-entry', theirs!.id]) {
        const update = await after(jar, await post(jar, '/cart/update', { entryId, quantity: '2' }));
        expect(update.notice).toBe(`${SPEC.unableToUpdate} That item is no longer in your cart.`);
        const remove = await after(jar, await post(jar, '/cart/remove', { entryId }));
        expect(remove.notice).toBe(`${SPEC.unableToRemove} That item is no longer in your cart.`);
      }
      expect((await entries()).map((e) => e.quantity)).toEqual([1, 1]);
    });

    it('without a cart at all: the notice, no cart made', async () => {
      const jar = new Jar();
      const response = await post(jar, '/cart/remove', { entryId: 'x' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/cart#cart-notice');
      expect(await getDb().selectFrom('carts').select('id').execute()).toEqual([]);
    });

    it('without the crumb: 403 with the §8 text, nothing changed', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [entry] = await entries();
      for (const crumb of [null, 'wrong-crumb-1234567890']) {
        const update = await post(jar, '/cart/update', { entryId: entry!.id, quantity: '2' }, crumb);
        expect(update.statusCode).toBe(403);
        expect(update.headers['content-type']).toMatch(/text\/html/);
        expect(textOf(update.body)).toContain(SPEC.sessionExpired);
        const remove = await post(jar, '/cart/remove', { entryId: entry!.id }, crumb);
        expect(remove.statusCode).toBe(403);
      }
      expect(await entries()).toMatchObject([{ quantity: 1 }]);
    });

    it('a post that is not the form (a field twice, no line, a value too long, JSON): 400 saying what was wrong, nothing changed', async () => {
      const jar = new Jar();
      await add(jar, { itemId: 'limited', sku: 'limited-1' });
      const [entry] = await entries();
      const bad: Record<string, string | string[]>[] = [
        { entryId: [entry!.id, entry!.id], quantity: '2' },
        { quantity: '2' },
        { entryId: entry!.id, quantity: '9'.repeat(500) },
        { entryId: 'x'.repeat(100) },
      ];
      for (const fields of bad) {
        const response = await post(jar, '/cart/update', fields);
        expect(response.statusCode).toBe(400);
        expect(response.body).toMatch(/entryId|quantity/);
      }
      const json = await app.inject({
        method: 'POST',
        url: '/cart/update',
        headers: { ...headers(jar), 'content-type': 'application/json', 'x-csrf-token': TEST_CRUMB },
        payload: JSON.stringify({ entryId: entry!.id, quantity: { n: 2 } }),
      });
      expect(json.statusCode).toBeGreaterThanOrEqual(400);
      expect(json.statusCode).toBeLessThan(500);
      expect(await entries()).toMatchObject([{ quantity: 1 }]);
    });
  });
});
