/**
 * The shop's e-mails to its staff, on SQLite and PostgreSQL: the new-order e-mail goes to every admin and store manager
 * of the site (never to viewers), one per order each even when the checkout is sent again with its idempotency key,
 * linking to the order at /admin/orders/N on the owner's origin; the daily low-stock e-mail goes once a day per site,
 * and not at all when nothing is low.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { sendLowStockNotice } from '../../src/modules/catalog';
import { registerModuleMailKinds } from '../../src/modules/mailKinds';
import { getSite, type Site } from '../../src/modules/site/sites';
import { drainOutbox } from '../../src/platform/mail/outbox';
import type { MailMessage, MailTransport } from '../../src/platform/mail/transport';
import { buildApp } from '../../src/server/app';
import { checkoutSite, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser } from '../support/siteUsers';

registerModuleMailKinds();

const OWNER_ORIGIN = `https://${SHOP_HOST}`;

function capturingTransport(): MailTransport & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (message) => void sent.push(message) };
}

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let site: Site;
  const STAFF = {
    admin: 'boss@example.com',
    manager: 'manager@example.com',
    // The shop's own address (store.checkout.shopEmail) is also a store manager's: one e-mail, not two.
    shopAddress: 'orders@shop.test',
    viewer: 'looker@example.com',
  };

  const rowsOf = (kind: string) =>
    getDb()
      .selectFrom('outbox')
      .select(['to_address', 'order_id', 'subject'])
      .where('kind', '=', kind)
      .orderBy('to_address')
      .execute();

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    site = (await getSite(getDb(), 'shop'))!;
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
    await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN, STAFF.admin);
    await addSiteUser(getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER, STAFF.manager);
    await addSiteUser(getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER, STAFF.shopAddress);
    await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER, STAFF.viewer);
  });
  afterAll(async () => app?.close());

  it('sends the new-order e-mail to each admin and store manager, once per order even when the checkout is retried', async () => {
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { host: SHOP_HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1, additionalFields: '' }),
    });
    expect(added.statusCode).toBe(200);
    const cart = `CART=${added.cookies.find((c) => c.name === 'CART')!.value}`;
    const checkout = () =>
      app.inject({
        method: 'POST',
        url: '/api/commerce/checkout/orders',
        headers: { host: SHOP_HOST, 'content-type': 'application/json', cookie: cart },
        payload: JSON.stringify({
          idempotencyKey: 'staff-mail-order-1',
          email: 'shopper@example.com',
          shippingAddress: NEW_YORK,
          shippingOptionId: 'standard',
          payment: TEST_CARD,
        }),
      });
    const first = await checkout();
    expect(first.statusCode).toBe(201);
    const again = await checkout();
    expect(again.json().order).toEqual(first.json().order);
    const { id, number } = first.json().order as { id: string; number: number };

    const notices = await rowsOf('new-order');
    expect(notices.map((n) => n.to_address)).toEqual([STAFF.admin, STAFF.manager, STAFF.shopAddress]);
    expect(notices.every((n) => n.order_id === id)).toBe(true);
    expect(notices[0]!.subject).toMatch(new RegExp(`^New order #${number} \\(`));

    const transport = capturingTransport();
    await drainOutbox(getDb(), transport);
    const sent = transport.sent.filter((m) => m.subject.startsWith('New order'));
    expect(sent).toHaveLength(3);
    for (const mail of sent) {
      expect(mail.text).toContain(`Order: ${OWNER_ORIGIN}/admin/orders/${number}`);
      expect(mail.html).toContain(`href="${OWNER_ORIGIN}/admin/orders/${number}"`);
    }
    expect(transport.sent.some((m) => m.to === STAFF.viewer)).toBe(false);
    // The shopper's confirmation still links to their own order page, not to /admin.
    const confirmation = transport.sent.find((m) => m.to === 'shopper@example.com')!;
    expect(confirmation.text).not.toContain('/admin/');
  });

  it('sends the low-stock e-mail once a day per site, to admins and store managers, and none when nothing is low', async () => {
    const day1 = new Date('2031-03-01T09:00:00Z');
    const first = await sendLowStockNotice(getDb(), site, OWNER_ORIGIN, day1);
    expect(first).toMatchObject({ action: 'sent', emails: 3 });
    const low = await rowsOf('low-stock');
    expect(low.map((r) => r.to_address)).toEqual([STAFF.admin, STAFF.manager, STAFF.shopAddress]);
    expect(low[0]!.subject).toMatch(/^Low stock: (1 variant is|\d+ variants are) running out — Shop$/);
    const body = await getDb()
      .selectFrom('outbox')
      .select(['text_body', 'html_body'])
      .where('kind', '=', 'low-stock')
      .executeTakeFirstOrThrow();
    expect(body.text_body).toContain('SKU ooak-1: 1 in stock');
    expect(body.text_body).toContain(`${OWNER_ORIGIN}/admin/inventory?filter=low`);
    expect(body.html_body).toContain(`href="${OWNER_ORIGIN}/admin/inventory?filter=low"`);

    const later = await sendLowStockNotice(getDb(), site, OWNER_ORIGIN, new Date('2031-03-01T20:00:00Z'));
    expect(later.action).toBe('already-sent');
    expect(await rowsOf('low-stock')).toHaveLength(3);

    // Several processes at once on a new day: one sends.
    const day2 = new Date('2031-03-02T09:00:00Z');
    const racing = await Promise.all([1, 2, 3, 4].map(() => sendLowStockNotice(getDb(), site, OWNER_ORIGIN, day2)));
    expect(racing.filter((o) => o.action === 'sent')).toHaveLength(1);
    expect(await rowsOf('low-stock')).toHaveLength(6);

    await getDb().updateTable('variants').set({ qty_in_stock: 100 }).where('unlimited', '=', 0).execute();
    const none = await sendLowStockNotice(getDb(), site, OWNER_ORIGIN, new Date('2031-03-03T09:00:00Z'));
    expect(none.action).toBe('none-low');
    expect(await rowsOf('low-stock')).toHaveLength(6);
  });
});
