import { describe, expect, it, vi } from 'vitest';
import { failureMessage, type AddRequestFailure } from '../core/addToCartErrors';
import { CartStore, toSnapshot, UNKNOWN_CART } from './cartStore';

const cartAnswer = {
  totalQuantity: 3,
  subtotalCents: 7000,
  entries: [
    {
      id: 'e1',
      itemId: 'mug',
      productType: 1,
      chosenVariant: { sku: 'MUG-OAT', attributes: { Color: 'Oatmeal' } },
      quantity: 2,
      title: 'Mug',
      subTotal: 5600,
      purchasePriceCents: 2800,
    },
    {
      id: 'e2',
      itemId: 'scoop',
      chosenVariant: { sku: 'SCOOP', attributes: {} },
      quantity: 1,
      title: 'Scoop',
      purchasePriceCents: 1400,
    },
  ],
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('toSnapshot', () => {
  it('reads the §3 cart answer', () => {
    const cart = toSnapshot(cartAnswer);
    expect(cart).toMatchObject({ loaded: true, totalQuantity: 3, subtotalCents: 7000 });
    expect(cart.entries[0]).toEqual({
      id: 'e1',
      itemId: 'mug',
      sku: 'MUG-OAT',
      title: 'Mug',
      attributes: { Color: 'Oatmeal' },
      quantity: 2,
      unitPriceCents: 2800,
      subtotalCents: 5600,
      additionalFields: '',
      answers: [],
      productType: 1,
    });
    // A missing subTotal is unit price × quantity; a missing product type is not known (null).
    expect(cart.entries[1]?.subtotalCents).toBe(1400);
    expect(cart.entries[1]?.productType).toBeNull();
  });

  it("reads an entry's answers and their summary, keeping only well-formed summary items", () => {
    const cart = toSnapshot({
      entries: [
        {
          id: 'e3',
          additionalFields: '{"t":"Sam"}',
          additionalFieldsSummary: [
            { title: 'Engraving text', lines: ['Sam', 7] },
            { title: 3, lines: [] },
            null,
            { title: 'No lines' },
          ],
        },
      ],
    });
    expect(cart.entries[0]).toMatchObject({
      additionalFields: '{"t":"Sam"}',
      answers: [{ title: 'Engraving text', lines: ['Sam'] }],
    });
  });

  it('passes on the per-field messages of a refused add', async () => {
    const body = {
      code: 'invalid-form-answers',
      message: 'Engraving text: Required.',
      fields: { t: 'Required', bad: 1 },
    };
    const store = new CartStore(vi.fn().mockResolvedValue(json(400, body)));
    expect(await store.addEntry({ itemId: 'mug', sku: 'MUG', quantity: 1, additionalFields: '{}' })).toEqual({
      ok: false,
      failure: { kind: 'http', status: 400, serverMessage: 'Engraving text: Required.' },
      fields: { t: 'Required' },
    });
  });

  it('sends the crumb cookie back in the crumb header on every write (src/platform/http/crumb.ts)', async () => {
    const crumb = 'dGVzdC1jcnVtYi0xMjM0NQ';
    const fetchImpl = vi.fn().mockResolvedValue(json(200, { shoppingCart: cartAnswer }));
    const store = new CartStore(fetchImpl, { cookies: () => `hasCart=true; crumb=${crumb}`, storage: () => null });
    await store.addEntry({ itemId: 'mug', sku: 'MUG', quantity: 1 });
    await store.setQuantity('e1', 2);
    await store.removeEntry('e1');
    for (const [, init] of fetchImpl.mock.calls)
      expect((init as RequestInit).headers).toMatchObject({ 'x-csrf-token': crumb });
  });

  it('turns a refused crumb into the §8 crumb failure: session expired, or enable cookies when the browser keeps none', async () => {
    const refused = {
      code: 'crumb-invalid',
      message: 'Your session has expired. Please reload the page and try again.',
      type: 'API_FAILURE',
    };
    for (const cookiesEnabled of [true, false]) {
      const store = new CartStore(vi.fn().mockResolvedValue(json(403, refused)), {
        cookies: () => '',
        storage: () => null,
        cookiesEnabled: () => cookiesEnabled,
      });
      const result = await store.addEntry({ itemId: 'mug', sku: 'MUG', quantity: 1 });
      expect(result).toEqual({ ok: false, failure: { kind: 'crumb', cookiesEnabled } });
      expect(failureMessage((result as { failure: AddRequestFailure }).failure)).toBe(
        cookiesEnabled
          ? 'Your session has expired. Please reload the page and try again.'
          : 'Please enable cookies in your browser, reload the page, and try again.',
      );
    }
  });

  it('treats anything else as an empty cart', () => {
    expect(toSnapshot(null)).toMatchObject({ loaded: true, totalQuantity: 0, entries: [] });
    expect(toSnapshot({ entries: 'x' })).toMatchObject({ totalQuantity: 0, entries: [] });
  });
});

describe('CartStore', () => {
  it('does not fetch at start without a cart or a signed-in visitor (§4)', async () => {
    const fetchImpl = vi.fn();
    const store = new CartStore(fetchImpl);
    expect(store.getSnapshot()).toBe(UNKNOWN_CART);
    await store.start('other=1; hasCart=false');
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toMatchObject({ loaded: true, totalQuantity: 0 });
  });

  it('fetches at start when hasCart is true and tells subscribers', async () => {
    const fetchImpl = vi.fn(async () => json(200, cartAnswer));
    const store = new CartStore(fetchImpl);
    const listener = vi.fn();
    store.subscribe(listener);
    await store.start('hasCart=true');
    expect(fetchImpl).toHaveBeenCalledWith('/api/commerce/shopping-cart', expect.anything());
    expect(listener).toHaveBeenCalled();
    expect(store.getSnapshot().totalQuantity).toBe(3);
    expect(store.quantityInCart('MUG-OAT')).toBe(2);
    expect(store.getServerSnapshot()).toBe(UNKNOWN_CART);
  });

  it('posts an entry and publishes the answered cart', async () => {
    const fetchImpl = vi.fn(async () => json(200, { shoppingCart: cartAnswer, newlyAdded: cartAnswer.entries[0] }));
    const store = new CartStore(fetchImpl);
    const result = await store.addEntry({ itemId: 'mug', sku: 'MUG-OAT', quantity: 2 });
    expect(result.ok).toBe(true);
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ additionalFields: '', itemId: 'mug', sku: 'MUG-OAT', quantity: 2 });
    expect(store.getSnapshot().subtotalCents).toBe(7000);
  });

  it('reports an HTTP failure with the server message, and a network failure', async () => {
    const store = new CartStore(
      vi.fn(async () =>
        json(409, { code: 'out-of-stock', message: 'Sorry, we do not have enough of that item available.' }),
      ),
    );
    expect(await store.addEntry({ itemId: 'mug', sku: 'MUG-SAG', quantity: 1 })).toEqual({
      ok: false,
      failure: { kind: 'http', status: 409, serverMessage: 'Sorry, we do not have enough of that item available.' },
    });
    const offline = new CartStore(vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await offline.addEntry({ itemId: 'mug', sku: 'MUG-OAT', quantity: 1 })).toEqual({
      ok: false,
      failure: { kind: 'network' },
    });
    const proxy = new CartStore(vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })));
    expect(await proxy.addEntry({ itemId: 'mug', sku: 'MUG-OAT', quantity: 1 })).toEqual({
      ok: false,
      failure: { kind: 'http', status: 502, serverMessage: null },
    });
  });

  it('sets a quantity and removes a line through the cart page calls, publishing the answered cart', async () => {
    const fetchImpl = vi.fn(async () => json(200, { shoppingCart: cartAnswer }));
    const store = new CartStore(fetchImpl);
    expect((await store.setQuantity('e/1', '3')).ok).toBe(true);
    expect(await store.removeEntry('e1')).toMatchObject({ ok: true, cart: { totalQuantity: 3 } });
    const [[putUrl, put], [deleteUrl, del]] = fetchImpl.mock.calls as unknown as [
      [string, RequestInit],
      [string, RequestInit],
    ];
    expect([putUrl, put.method, JSON.parse(String(put.body))]).toEqual([
      '/api/commerce/shopping-cart/entries/e%2F1/quantity',
      'PUT',
      { quantity: '3' },
    ]);
    expect([deleteUrl, del.method, del.body]).toEqual(['/api/commerce/shopping-cart/entries/e1', 'DELETE', undefined]);
    expect(store.getSnapshot().entries).toHaveLength(2);
  });

  it('fetches the cart again when the line is already gone (404), and keeps it on other failures', async () => {
    const fetchImpl = vi
      .fn()
      .mockResolvedValueOnce(json(404, { message: 'That item is no longer in your cart.' }))
      .mockResolvedValueOnce(json(200, { ...cartAnswer, entries: [cartAnswer.entries[1]], totalQuantity: 1 }))
      .mockResolvedValueOnce(json(409, { message: 'Sorry, we do not have enough of that item available.' }));
    const store = new CartStore(fetchImpl);
    expect(await store.removeEntry('e1')).toEqual({
      ok: false,
      failure: { kind: 'http', status: 404, serverMessage: 'That item is no longer in your cart.' },
    });
    expect(store.getSnapshot()).toMatchObject({ loaded: true, totalQuantity: 1 });
    expect((await store.setQuantity('e2', 50)).ok).toBe(false);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    expect(store.getSnapshot().totalQuantity).toBe(1);
  });
});

describe("CartStore: a new visitor's quick adds", () => {
  /** A fetch whose answers the test releases one by one; a successful add sets hasCart, as the server's cookie does. */
  function controlledFetch() {
    let cookies = '';
    const calls: { body: unknown; claim: string | null; answer: (status?: number) => void }[] = [];
    const fetchImpl = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          const headers = new Headers(init.headers);
          calls.push({
            body: JSON.parse(String(init.body)),
            claim: headers.get('x-cart-claim'),
            answer: (status = 200) => {
              if (status === 200) cookies = 'hasCart=true';
              resolve(
                status === 200
                  ? json(200, { shoppingCart: cartAnswer })
                  : json(status, { message: 'Sorry, we do not have enough of that item available.' }),
              );
            },
          });
        }),
    );
    return { fetchImpl: fetchImpl as unknown as typeof fetch, calls, cookies: () => cookies };
  }
  const memoryStorage = () => {
    const items = new Map<string, string>();
    return {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
      items,
    };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  let n = 0;
  const newClaim = () => `claim-${String(++n).padStart(16, '0')}`;

  it('sends the first add alone while no cart is known; the others follow it, with its cookie', async () => {
    const net = controlledFetch();
    const store = new CartStore(net.fetchImpl, { cookies: net.cookies, storage: () => null, newClaim });
    const results = [
      store.addEntry({ itemId: 'a', sku: 'A', quantity: 1 }),
      store.addEntry({ itemId: 'b', sku: 'B', quantity: 1 }),
      store.addEntry({ itemId: 'c', sku: 'C', quantity: 1 }),
    ];
    await settle();
    expect(net.calls.map((c) => c.body)).toEqual([{ additionalFields: '', itemId: 'a', sku: 'A', quantity: 1 }]);
    net.calls[0]!.answer();
    await settle();
    // The cart now exists (hasCart): the waiting adds go at once, both.
    expect(net.calls.map((c) => (c.body as { itemId: string }).itemId)).toEqual(['a', 'b', 'c']);
    net.calls[1]!.answer();
    net.calls[2]!.answer();
    expect((await Promise.all(results)).map((r) => r.ok)).toEqual([true, true, true]);
  });

  it('sends adds at once when a cart is known (hasCart=true)', async () => {
    const net = controlledFetch();
    const store = new CartStore(net.fetchImpl, { cookies: () => 'hasCart=true', storage: () => null, newClaim });
    const results = [1, 2, 3].map((i) => store.addEntry({ itemId: `i${i}`, sku: `S${i}`, quantity: 1 }));
    await settle();
    expect(net.calls).toHaveLength(3);
    net.calls.forEach((c) => c.answer());
    expect((await Promise.all(results)).every((r) => r.ok)).toBe(true);
  });

  it('lets the next waiting add create the cart when the first one was refused', async () => {
    const net = controlledFetch();
    const store = new CartStore(net.fetchImpl, { cookies: net.cookies, storage: () => null, newClaim });
    const first = store.addEntry({ itemId: 'a', sku: 'A', quantity: 9 });
    const second = store.addEntry({ itemId: 'b', sku: 'B', quantity: 1 });
    const third = store.addEntry({ itemId: 'c', sku: 'C', quantity: 1 });
    await settle();
    net.calls[0]!.answer(409);
    expect(await first).toMatchObject({ ok: false, failure: { status: 409 } });
    await settle();
    // Still no cart: the second goes alone, the third waits for it.
    expect(net.calls).toHaveLength(2);
    net.calls[1]!.answer();
    await settle();
    expect(net.calls).toHaveLength(3);
    net.calls[2]!.answer();
    expect([(await second).ok, (await third).ok]).toEqual([true, true]);
  });

  it('releases the waiting adds after a network failure too', async () => {
    const fetchImpl = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(json(200, { shoppingCart: cartAnswer }));
    const store = new CartStore(fetchImpl, { cookies: () => '', storage: () => null, newClaim });
    const [a, b] = await Promise.all([
      store.addEntry({ itemId: 'a', sku: 'A', quantity: 1 }),
      store.addEntry({ itemId: 'b', sku: 'B', quantity: 1 }),
    ]);
    expect([a.ok, b.ok]).toEqual([false, true]);
  });

  it("sends the page's claim with every add, keeps it in storage for the site's tabs, and drops it once an add succeeded", async () => {
    const storage = memoryStorage();
    const net = controlledFetch();
    const store = new CartStore(net.fetchImpl, { cookies: net.cookies, storage: () => storage, newClaim });
    const first = store.addEntry({ itemId: 'a', sku: 'A', quantity: 1 });
    await settle();
    const claim = net.calls[0]!.claim;
    expect(claim).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(storage.items.get('vitrine.cartClaim')).toBe(claim);
    // Another tab's store (same storage) sends the same claim, so the server makes one cart of both.
    const otherTab = controlledFetch();
    const other = new CartStore(otherTab.fetchImpl, { cookies: otherTab.cookies, storage: () => storage, newClaim });
    const second = other.addEntry({ itemId: 'b', sku: 'B', quantity: 1 });
    await settle();
    expect(otherTab.calls[0]!.claim).toBe(claim);
    net.calls[0]!.answer();
    otherTab.calls[0]!.answer();
    await Promise.all([first, second]);
    expect(storage.items.has('vitrine.cartClaim')).toBe(false);
  });

  it('drops a claim a page left in storage (it was left before reading its add) once a cart is loaded with hasCart', async () => {
    const storage = memoryStorage();
    storage.setItem('vitrine.cartClaim', newClaim());
    const fetchImpl = vi.fn(async () => json(200, cartAnswer));
    const withoutCookie = new CartStore(fetchImpl, { cookies: () => '', storage: () => storage, newClaim });
    await withoutCookie.load();
    // No cookie names a cart: the claim may still be an add's in flight in another tab, so it stays.
    expect(storage.items.has('vitrine.cartClaim')).toBe(true);
    const store = new CartStore(fetchImpl, { cookies: () => 'hasCart=true', storage: () => storage, newClaim });
    await store.start('hasCart=true');
    expect(store.getSnapshot().totalQuantity).toBe(3);
    expect(storage.items.has('vitrine.cartClaim')).toBe(false);
  });

  it('keeps the claim after a failed add, so that a retry joins a cart the lost answer may have made', async () => {
    const fetchImpl = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(json(200, { shoppingCart: cartAnswer }));
    const store = new CartStore(fetchImpl, { cookies: () => '', storage: () => null, newClaim });
    await store.addEntry({ itemId: 'a', sku: 'A', quantity: 1 });
    await store.addEntry({ itemId: 'a', sku: 'A', quantity: 1 });
    await store.addEntry({ itemId: 'b', sku: 'B', quantity: 1 });
    const claims = (fetchImpl.mock.calls as [string, RequestInit][]).map(([, init]) =>
      new Headers(init.headers).get('x-cart-claim'),
    );
    expect(claims[0]).toBe(claims[1]);
    expect(claims[2]).not.toBe(claims[1]);
  });

  it('makes a claim of 128 random bits in the browser, and works without storage', async () => {
    const fetchImpl = vi.fn(async () => json(200, { shoppingCart: cartAnswer }));
    const blocked = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    const store = new CartStore(fetchImpl, {
      cookies: () => '',
      storage: () => ({ getItem: blocked, setItem: blocked, removeItem: blocked }),
    });
    expect((await store.addEntry({ itemId: 'a', sku: 'A', quantity: 1 })).ok).toBe(true);
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).get('x-cart-claim')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
