/**
 * The owner's orders at /admin/orders on SQLite and PostgreSQL: the list (filters, search, cursor paging), an order's
 * page and JSON, fulfilling (one, several, undo, the shipping e-mail, two staff at once), notes, who may do what
 * (a viewer cannot fulfil, nobody sees no data), and orders of only digital goods fulfilled when placed.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD } from '../../src/core/crumb';
import { ContributorRole, ProductType } from '../../src/core/enums';
import { createOrder } from '../../src/modules/orders';
import { findSiteByHost } from '../../src/modules/site/sites';
import { buildApp } from '../../src/server/app';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB, withCrumb } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { signInAs } from '../support/siteUsers';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let siteId: string;
  let manager: string;
  let viewer: string;
  let numbers: number[] = [];
  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const postJson = (url: string, cookie: string, payload: unknown = {}) =>
    app.inject({ method: 'POST', url, headers: withCrumb({ host: SHOP_HOST, cookie }), payload: payload as object });
  const postForm = (url: string, cookie: string, fields: [string, string][]) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([...fields, [CRUMB_FIELD, TEST_CRUMB]]).toString(),
    });

  const place = async (i: number, types: number[] = [ProductType.PHYSICAL]) => {
    const order = await createOrder(getDb(), {
      siteId,
      cartId: `cart-${engine}-${i}-${Math.random()}`,
      email: i % 2 ? `grace${i}@example.com` : `Ada${i}@Example.com`,
      status: i % 5 === 0 ? 'awaiting-payment' : 'paid',
      currency: 'USD',
      totals: {
        subtotalCents: 1000 + i,
        shippingCents: 600,
        taxCents: 0,
        discountCents: 0,
        grandTotalCents: 1600 + i,
        pricesIncludeTax: false,
        taxName: 'Sales tax',
      } as never,
      shippingAddress: { ...NEW_YORK, firstName: i % 2 ? 'Grace' : 'Ada', lastName: `Tester${i}` },
      shippingOption: { id: 'standard', name: 'Standard', amount: 600 } as never,
      couponCode: null,
      paymentProvider: 'test',
      lines: types.map((productType, k) => ({
        itemId: 'tee',
        sku: `sku-${k}`,
        title: 'Tee',
        productType,
        attributes: { Size: 'M' },
        additionalFields: '',
        additionalFieldsSummary: [{ title: 'Engraving', lines: ['Happy birthday'] }] as never,
        image: null,
        quantity: 1,
        unitPrice: 1000,
        lineTotal: 1000,
      })),
      now: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    });
    return order.number;
  };

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    siteId = (await findSiteByHost(getDb(), SHOP_HOST))!.id;
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
    viewer = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
    numbers = [];
    for (let i = 1; i <= 60; i++) numbers.push(await place(i));
  });
  afterAll(async () => app?.close());

  it('keeps nobody out (no data) and shows the section to staff with orders.read', async () => {
    const page = await get('/admin/orders');
    expect(page.statusCode).toBe(303);
    expect(page.body).not.toContain('example.com');
    const api = await get('/api/admin/orders');
    expect(api.statusCode).toBe(401);
    expect((await get(`/api/admin/orders/${numbers[0]}`)).statusCode).toBe(401);
    const home = await get('/admin', viewer);
    expect(home.body).toContain('<a href="/admin/orders">Orders</a>');
  });

  it('lists newest first, 50 a page, with a cursor to the rest', async () => {
    const first = (await get('/api/admin/orders', viewer)).json();
    expect(first.orders).toHaveLength(50);
    expect(first.orders[0]).toMatchObject({
      number: numbers[59],
      customer: 'Ada Tester60',
      paymentLabel: 'Awaiting payment',
      fulfilmentLabel: 'Pending',
      totalCents: 1660,
    });
    const second = (await get(`/api/admin/orders?cursor=${first.next}`, viewer)).json();
    expect(second.orders).toHaveLength(10);
    expect(second.next).toBeNull();
    expect(second.orders.at(-1).number).toBe(numbers[0]);
    const html = await get('/admin/orders', viewer);
    expect(html.statusCode).toBe(200);
    expect(html.headers['cache-control']).toBe('no-store');
    expect(html.body).toContain('$16.60');
    expect(html.body).toContain('Older</a>');
  });

  it('filters by payment and fulfilment and searches by number, e-mail and name', async () => {
    const awaiting = (await get('/api/admin/orders?payment=awaiting-payment', viewer)).json();
    expect(awaiting.orders).toHaveLength(12);
    expect(awaiting.orders.every((o: { paymentLabel: string }) => o.paymentLabel === 'Awaiting payment')).toBe(true);
    expect((await get('/api/admin/orders?fulfilment=fulfilled', viewer)).json().orders).toHaveLength(0);
    // The home's 'orders to fulfil' leads here: paid and pending, never one awaiting its payment.
    const toFulfil = (await get('/api/admin/orders?to-fulfil=1', viewer)).json();
    expect(toFulfil.orders).toHaveLength(48);
    expect(toFulfil.next).toBeNull();
    expect((await get('/api/admin/home', viewer)).json().ordersToFulfil).toBe(48);
    expect(
      toFulfil.orders.every(
        (o: { payment: string; fulfilment: string }) => o.payment !== 'awaiting-payment' && o.fulfilment === 'pending',
      ),
    ).toBe(true);
    expect((await get('/api/admin/orders?fulfilment=pending', viewer)).json().orders.length).toBeGreaterThan(
      toFulfil.orders.length,
    );
    expect((await get('/api/admin/orders?to-fulfil=yes', viewer)).statusCode).toBe(400);
    expect((await get(`/api/admin/orders?q=%23${numbers[6]}`, viewer)).json().orders).toMatchObject([
      { number: numbers[6] },
    ]);
    expect((await get('/api/admin/orders?q=ada10%40example', viewer)).json().orders).toMatchObject([
      { email: 'Ada10@Example.com' },
    ]);
    expect((await get('/api/admin/orders?q=grace%20tester13', viewer)).json().orders).toMatchObject([
      { customer: 'Grace Tester13' },
    ]);
    expect((await get('/api/admin/orders?payment=bogus', viewer)).statusCode).toBe(400);
  });

  it("shows an order's page: lines with form answers, address, totals, payments, e-mails, Refunds spot", async () => {
    const page = await get(`/admin/orders/${numbers[2]}`, viewer);
    expect(page.statusCode).toBe(200);
    for (const text of [
      'Order #3',
      'Engraving: Happy birthday',
      '1 Main Street',
      'Total',
      '$16.03',
      'Refunds',
      'Timeline',
    ])
      expect(page.body).toContain(text);
    expect(page.body).not.toContain('Mark as fulfilled');
    const api = (await get(`/api/admin/orders/${numbers[2]}`, viewer)).json();
    expect(api).toMatchObject({ fulfilment: 'pending', paymentLabel: 'Paid', customer: 'Grace Tester3' });
    expect((await get('/admin/orders/99999', viewer)).statusCode).toBe(404);
  });

  it('refuses a viewer fulfilling (403, nothing changed)', async () => {
    const n = numbers[3]!;
    expect((await postJson(`/api/admin/orders/${n}/fulfil`, viewer)).statusCode).toBe(403);
    const form = await postForm('/admin/orders/fulfil', viewer, [['number', String(n)]]);
    expect(form.statusCode).toBe(403);
    expect((await postJson(`/api/admin/orders/${n}/notes`, viewer, { body: 'x' })).statusCode).toBe(403);
    expect((await get(`/api/admin/orders/${n}`, viewer)).json()).toMatchObject({ fulfilment: 'pending', notes: [] });
  });

  it('fulfils with tracking and the shipping e-mail, audits it, and undoes it', async () => {
    const n = numbers[4]!;
    const answer = await postJson(`/api/admin/orders/${n}/fulfil`, manager, {
      carrier: 'UPS',
      trackingNumber: '1Z999AA1',
    });
    expect(answer.statusCode).toBe(200);
    const detail = answer.json();
    expect(detail.fulfilment).toBe('fulfilled');
    expect(detail.shipments[0]).toMatchObject({
      carrier: 'UPS',
      trackingNumber: '1Z999AA1',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA1',
      notified: true,
    });
    const mail = await getDb()
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'order-shipped')
      .where('to_address', '=', detail.order.email)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain(`Your order #${n} is on its way`);
    expect(mail.text_body).toContain('1Z999AA1');
    expect(detail.timeline.map((t: { text: string }) => t.text).join('\n')).toContain(
      `Fulfilled order ${n} (UPS 1Z999AA1)`,
    );
    const again = await postJson(`/api/admin/orders/${n}/fulfil`, manager, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already fulfilled');
    const undo = await postJson(`/api/admin/orders/${n}/unfulfil`, manager);
    expect(undo.json()).toMatchObject({ fulfilment: 'pending', shipments: [] });
    expect((await postJson(`/api/admin/orders/${n}/unfulfil`, manager)).statusCode).toBe(409);
  });

  it('fulfils several from the list form (no JavaScript), without e-mail when unticked', async () => {
    const picked = [numbers[10]!, numbers[11]!];
    const before = await getDb().selectFrom('outbox').select('id').where('kind', '=', 'order-shipped').execute();
    const answer = await postForm('/admin/orders/fulfil', manager, [
      ['number', String(picked[0])],
      ['number', String(picked[1])],
      ['carrier', 'DHL'],
      ['trackingNumber', ''],
      ['back', '/admin/orders?fulfilment=pending'],
    ]);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toMatch(/^\/admin\/orders\?fulfilment=pending&done=Fulfilled%202%20orders/);
    for (const n of picked) expect((await get(`/api/admin/orders/${n}`, viewer)).json().fulfilment).toBe('fulfilled');
    const after = await getDb().selectFrom('outbox').select('id').where('kind', '=', 'order-shipped').execute();
    expect(after.length).toBe(before.length);
    const none = await postForm('/admin/orders/fulfil', manager, [['carrier', 'DHL']]);
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('Please select the orders to fulfil.');
  });

  it('lets one of two staff fulfilling the same order at once win', async () => {
    const n = numbers[20]!;
    const other = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.ADMIN);
    const answers = await Promise.all([
      postJson(`/api/admin/orders/${n}/fulfil`, manager, { trackingNumber: 'A1' }),
      postJson(`/api/admin/orders/${n}/fulfil`, other, { trackingNumber: 'B2' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const shipments = await getDb()
      .selectFrom('fulfilments')
      .selectAll()
      .where('tracking_number', 'in', ['A1', 'B2'])
      .execute();
    expect(shipments).toHaveLength(1);
  });

  it('adds a note (form and API) with its audit entry, refusing an empty one', async () => {
    const n = numbers[30]!;
    const form = await postForm(`/admin/orders/${n}/notes`, manager, [['body', 'Customer called <b>twice</b>']]);
    expect(form.statusCode).toBe(303);
    const page = await get(`/admin/orders/${n}`, manager);
    expect(page.body).toContain('Customer called &lt;b&gt;twice&lt;/b&gt;');
    expect(page.body).toContain(`Added a note to order ${n}`);
    expect((await postJson(`/api/admin/orders/${n}/notes`, manager, { body: '  ' })).statusCode).toBe(400);
  });

  it('places orders of only digital goods and gift cards fulfilled', async () => {
    const digital = await place(100, [ProductType.DIGITAL, ProductType.GIFT_CARD]);
    const mixed = await place(101, [ProductType.DIGITAL, ProductType.PHYSICAL]);
    expect((await get(`/api/admin/orders/${digital}`, viewer)).json().fulfilment).toBe('fulfilled');
    expect((await get(`/api/admin/orders/${mixed}`, viewer)).json().fulfilment).toBe('pending');
  });
});
