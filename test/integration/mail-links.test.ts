/**
 * E-mail links never follow the Host header (issue 23, item 14), on SQLite and PostgreSQL. The test shop is the
 * default site, so it answers any Host: every mail a request with `Host: evil.example` causes — the order
 * confirmation, the shop's new-order mail, the newsletter confirmation, the gift card recipient's mail, the
 * subscription's started and renewal mails (sent later, from the stored origin) — is delivered to a real SMTP server
 * and every link in it must be on the site's own address (its first domain, https; or PUBLIC_URL when set). A
 * subscription stored before the fix with a forged origin is read, and its renewal mail links to the site.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { paymentProviderFor } from '../../src/modules/payments';
import { billDueSubscriptions } from '../../src/modules/subscriptions/billing';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { formSite } from '../support/formSite';
import { NEW_YORK, seedSite, subscriptionSite, TEST_CARD } from '../support/subscriptionSite';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';

const EVIL = 'evil.example';
/** The test shop lists `shop.test` only: links go to its first domain, over https. */
const SITE_ORIGIN = 'https://shop.test';
const PUBLIC_URL = 'https://shop.test:8443';

/** The subscription shop with the form tests' newsletter (and the gift card product every checkout site has). */
const site: SiteFileInput = {
  ...subscriptionSite,
  forms: [...(subscriptionSite.forms ?? []), ...(formSite.forms ?? []).filter((f) => f.id === 'newsletter')],
};

let keys = 0;
const newKey = () => `mail-links-${Date.now().toString(36)}-${(keys++).toString(36)}-abcdefgh`;

/** Every absolute link of a text or HTML body (href values and bare URLs). */
const linksIn = (body: string): string[] => [...body.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);

forEachEngine((engine, getDb) => {
  let smtp: TestSmtpServer;
  const payments = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
  const apps: FastifyInstance[] = [];
  const appWith = async (publicUrl?: string) => {
    const app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        cartRateLimitPerMinute: 1_000_000,
        paymentsFor: () => payments,
        ...(publicUrl ? { publicUrl } : {}),
        formRoutes: { submissionsPerMinute: 1_000_000, submissionsPerFormPerMinute: 1_000_000 },
      }),
    );
    apps.push(app);
    return app;
  };
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), site);
    smtp = await startSmtpServer();
    app = await appWith();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    const db = getDb();
    for (const table of [
      'subscription_links',
      'subscription_bills',
      'subscriptions',
      'subscription_carts',
      'gift_card_transactions',
      'gift_cards',
      'mailing_list',
      'form_submissions',
      'form_keys',
      'outbox',
      'payments',
      'order_lines',
      'orders',
      'cart_entries',
      'carts',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
    await db
      .updateTable('variants')
      .set({ qty_in_stock: 5 })
      .where('sku', 'in', ['beans-whole', 'beans-filter'])
      .execute();
    smtp.reset();
  });

  const json = (on: FastifyInstance, method: 'POST' | 'GET', url: string, payload?: unknown, cookie?: string) =>
    on.inject({
      method,
      url,
      headers: {
        host: EVIL,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
      },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const form = (url: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: EVIL, 'content-type': 'application/x-www-form-urlencoded', cookie: `crumb=${TEST_CRUMB}` },
      payload: new URLSearchParams({ crumb: TEST_CRUMB, ...fields }).toString(),
    });
  const ok = (answer: LightMyRequestResponse, status = 200) => {
    expect(answer.statusCode, answer.body).toBe(status);
    return answer;
  };
  /** Sends every queued mail to the SMTP server; the mails received, by subject. */
  const delivered = async () => {
    const drained = await drainOutbox(getDb(), smtpTransport(smtp.url, 'Shop <shop@shop.test>'), {
      includeWaiting: true,
    });
    expect(drained.errors).toEqual([]);
    return smtp.received.map((m) => ({
      to: m.envelopeTo[0],
      subject: m.headers.get('subject') ?? '',
      links: [...linksIn(m.text), ...linksIn(m.html)],
    }));
  };
  const expectOnlyOrigin = (mails: { subject: string; links: string[] }[], origin: string) => {
    for (const mail of mails) {
      expect(mail.links.length, mail.subject).toBeGreaterThan(0);
      for (const link of mail.links) expect(link.startsWith(`${origin}/`), `${mail.subject}: ${link}`).toBe(true);
      expect(JSON.stringify(mail.links)).not.toContain(EVIL);
    }
  };

  it('order confirmation and the shop’s new-order mail', async () => {
    const added = ok(
      await json(app, 'POST', '/api/commerce/shopping-cart/entries', { itemId: 'ebook', sku: 'ebook-1', quantity: 1 }),
    );
    const cookie = `CART=${added.cookies.find((c) => c.name === 'CART')!.value}`;
    const placed = ok(
      await json(
        app,
        'POST',
        '/api/commerce/checkout/orders',
        {
          idempotencyKey: newKey(),
          email: 'ada@example.com',
          shippingAddress: NEW_YORK,
          shippingOptionId: 'standard',
          payment: TEST_CARD,
        },
        cookie,
      ),
      201,
    );
    const orderId = (placed.json() as { order: { id: string } }).order.id;
    const mails = await delivered();
    expect(mails.map((m) => m.to).sort()).toEqual(['ada@example.com', 'orders@shop.test']);
    expectOnlyOrigin(mails, SITE_ORIGIN);
    for (const mail of mails) expect(mail.links).toContain(`${SITE_ORIGIN}/checkout/order/${orderId}`);
  });

  it('newsletter confirmation; with PUBLIC_URL, links on that address', async () => {
    const signUp = async (on: FastifyInstance, email: string) => {
      const key = (ok(await json(on, 'POST', '/api/form/FormSubmissionKey')).json() as { key: string }).key;
      ok(
        await json(on, 'POST', '/api/form/SaveFormSubmission', {
          key,
          formId: 'newsletter',
          form: JSON.stringify({ email }),
          pagePath: '/',
        }),
      );
    };
    await signUp(app, 'fan@example.com');
    const mails = await delivered();
    expect(mails.map((m) => m.to)).toEqual(['fan@example.com']);
    expectOnlyOrigin(mails, SITE_ORIGIN);
    expect(mails[0]!.links.some((l) => l.startsWith(`${SITE_ORIGIN}/newsletter/confirm?token=`))).toBe(true);

    smtp.reset();
    await signUp(await appWith(PUBLIC_URL), 'other@example.com');
    const withPublicUrl = await delivered();
    expectOnlyOrigin(withPublicUrl, PUBLIC_URL);
    expect(withPublicUrl[0]!.links.some((l) => l.startsWith(`${PUBLIC_URL}/newsletter/confirm?token=`))).toBe(true);
  });

  it('the gift card recipient’s mail (and the buyer’s order mails)', async () => {
    const bought = await form('/checkout/giftcard?websiteId=shop&giftCardProductId=gift', {
      idempotencyKey: newKey(),
      sku: 'gift-50',
      email: 'buyer@example.com',
      recipientName: 'Grace Hopper',
      recipientEmail: 'grace@example.com',
      message: 'Happy birthday!',
      deliveryDate: '',
      ...TEST_CARD,
    });
    ok(bought, 303);
    const mails = await delivered();
    expect(mails.map((m) => m.to)).toContain('grace@example.com');
    expectOnlyOrigin(mails, SITE_ORIGIN);
    expect(mails.find((m) => m.to === 'grace@example.com')!.links).toContain(`${SITE_ORIGIN}/`);
  });

  describe('subscriptions', () => {
    const subscribe = async () => {
      const cart = ok(
        await json(app, 'POST', '/api/3/commerce/cart/subscription', {
          itemId: 'beans',
          sku: 'beans-whole',
          qty: 1,
          additionalFields: '',
          subscriptionOptionId: 'monthly',
        }),
      );
      const token = (cart.json() as { cartToken: string }).cartToken;
      ok(
        await form(`/checkout/subscribe?cartToken=${token}`, {
          intent: 'place',
          idempotencyKey: newKey(),
          email: 'ada@example.com',
          ...NEW_YORK,
          shippingOptionId: 'standard',
          ...TEST_CARD,
        }),
        303,
      );
    };
    const renew = () =>
      billDueSubscriptions(getDb(), { now: new Date(Date.now() + 40 * 86_400_000), paymentsFor: () => payments });

    it('the started mail, and the renewal mails sent later from what was stored', async () => {
      await subscribe();
      const stored = await getDb().selectFrom('subscriptions').select('base_url').executeTakeFirstOrThrow();
      expect(stored.base_url).toBe(SITE_ORIGIN);
      const started = await delivered();
      expect(started.map((m) => m.subject).some((s) => /subscription/i.test(s))).toBe(true);
      expectOnlyOrigin(started, SITE_ORIGIN);
      smtp.reset();
      expect((await renew()).paid).toBe(1);
      const renewed = await delivered();
      expect(renewed.length).toBeGreaterThanOrEqual(2);
      expectOnlyOrigin(renewed, SITE_ORIGIN);
      expect(renewed.flatMap((m) => m.links).some((l) => l.startsWith(`${SITE_ORIGIN}/subscriptions/cancel/`))).toBe(
        true,
      );
    });

    it('a subscription stored with a forged origin before the fix is still billed, its mails on the site’s address', async () => {
      await subscribe();
      await getDb()
        .updateTable('subscriptions')
        .set({ base_url: `http://${EVIL}` })
        .execute();
      await delivered();
      smtp.reset();
      expect((await renew()).paid).toBe(1);
      const renewed = await delivered();
      expect(renewed.length).toBeGreaterThanOrEqual(2);
      expectOnlyOrigin(renewed, SITE_ORIGIN);
    });
  });
});
