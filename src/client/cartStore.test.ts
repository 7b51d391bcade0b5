import { describe, expect, it, vi } from 'vitest';
import { CartStore, toSnapshot, UNKNOWN_CART } from './cartStore';

const cartAnswer = {
  totalQuantity: 3,
  subtotalCents: 7000,
  entries: [
    { id: 'e1', itemId: 'mug', chosenVariant: { sku: 'MUG-OAT', attributes: { Color: 'Oatmeal' } }, quantity: 2, title: 'Mug', subTotal: 5600, purchasePriceCents: 2800 },
    { id: 'e2', itemId: 'scoop', chosenVariant: { sku: 'SCOOP', attributes: {} }, quantity: 1, title: 'Scoop', purchasePriceCents: 1400 },
  ],
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('toSnapshot', () => {
  it('reads the §3 cart answer', () => {
    const cart = toSnapshot(cartAnswer);
    expect(cart).toMatchObject({ loaded: true, totalQuantity: 3, subtotalCents: 7000 });
    expect(cart.entries[0]).toEqual({
      id: 'e1', itemId: 'mug', sku: 'MUG-OAT', title: 'Mug', attributes: { Color: 'Oatmeal' }, quantity: 2, unitPriceCents: 2800, subtotalCents: 5600,
      additionalFields: '', answers: [],
    });
    // A missing subTotal is unit price × quantity.
    expect(cart.entries[1]?.subtotalCents).toBe(1400);
  });

  it("reads an entry's answers and their summary, keeping only well-formed summary items", () => {
    const cart = toSnapshot({
      entries: [
        {
          id: 'e3',
          additionalFields: '{"t":"Sam"}',
          additionalFieldsSummary: [{ title: 'Engraving text', lines: ['Sam', 7] }, { title: 3, lines: [] }, null, { title: 'No lines' }],
        },
      ],
    });
    expect(cart.entries[0]).toMatchObject({ additionalFields: '{"t":"Sam"}', answers: [{ title: 'Engraving text', lines: ['Sam'] }] });
  });

  it('passes on the per-field messages of a refused add', async () => {
    const body = { code: 'invalid-form-answers', message: 'Engraving text: Required.', fields: { t: 'Required', bad: 1 } };
    const store = new CartStore(vi.fn().mockResolvedValue(json(400, body)));
    expect(await store.addEntry({ itemId: 'mug', sku: 'MUG', quantity: 1, additionalFields: '{}' })).toEqual({
      ok: false,
      failure: { kind: 'http', status: 400, serverMessage: 'Engraving text: Required.' },
      fields: { t: 'Required' },
    });
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
    const store = new CartStore(vi.fn(async () => json(409, { code: 'out-of-stock', message: 'Sorry, we do not have enough of that item available.' })));
    expect(await store.addEntry({ itemId: 'mug', sku: 'MUG-SAG', quantity: 1 })).toEqual({
      ok: false,
      failure: { kind: 'http', status: 409, serverMessage: 'Sorry, we do not have enough of that item available.' },
    });
    const offline = new CartStore(vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await offline.addEntry({ itemId: 'mug', sku: 'MUG-OAT', quantity: 1 })).toEqual({ ok: false, failure: { kind: 'network' } });
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
    const [[putUrl, put], [deleteUrl, del]] = fetchImpl.mock.calls as unknown as [[string, RequestInit], [string, RequestInit]];
    expect([putUrl, put.method, JSON.parse(String(put.body))]).toEqual(['/api/commerce/shopping-cart/entries/e%2F1/quantity', 'PUT', { quantity: '3' }]);
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
