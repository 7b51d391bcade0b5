/**
 * What the storefront gathers, at /admin/gathered, on SQLite and PostgreSQL: form submissions per form and their CSV
 * (formula-safe), newsletter addresses, restock sign-ups with 'Send now' (as many as in stock, oldest first), gift
 * cards (history, disable: refused at checkout after), subscriptions (pause stops billing, skip moves the next billing
 * one interval on, resume, cancel), each change's audit entry, and the roles: a viewer reads but may not change (403),
 * nobody signed in is sent to the sign-in and sees no data.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { GIFT_CARD_MESSAGES, checkDeliveryDate } from '../../src/core/giftCard';
import { ok } from '../../src/core/result';
import { listAudit } from '../../src/modules/admin';
import { hashGiftCardCode } from '../../src/modules/giftCards/giftCardDelivery';
import { giftCardsForOrder, issueGiftCard } from '../../src/modules/giftCards/giftCards';
import { paymentProviderFor } from '../../src/modules/payments';
import type { PaymentProvider } from '../../src/modules/payments/provider';
import { findSiteByHost } from '../../src/modules/site/sites';
import { billDueSubscriptions } from '../../src/modules/subscriptions/billing';
import { inTransaction } from '../../src/platform/db/transaction';
import { buildApp } from '../../src/server/app';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { signInAs } from '../support/siteUsers';
import { vitrine } from '../support/cli';
import { NEW_YORK, seedSite, SHOP_HOST, subscriptionSite, TEST_CARD } from '../support/subscriptionSite';

const CARD_CODE = 'ABCD-EFGH-JKLM-NPQ7';

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  let siteId: string;
  let manager: string;
  let viewer: string;
  const inner = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
  /** Runs between a renewal's claim and its order (while the card is charged): a pause racing the renewal. */
  let duringCharge: (() => Promise<unknown>) | undefined;
  let voids = 0;
  const payments: PaymentProvider = {
    ...inner,
    chargeSavedMethod: async (req) => {
      await duringCharge?.();
      return inner.chargeSavedMethod!(req);
    },
    void: (ref, key) => (voids++, inner.void(ref, key)),
  };
  const billing = (now: Date) => billDueSubscriptions(getDb(), { now, paymentsFor: () => payments });

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const api = (url: string, cookie: string, body: unknown = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/json', [CRUMB_HEADER]: TEST_CRUMB },
      payload: JSON.stringify(body),
    });
  const form = (url: string, cookie: string, fields: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ [CRUMB_FIELD]: TEST_CRUMB, ...fields }).toString(),
    });
  const auditOf = async (type: string, id: string) =>
    (await listAudit(getDb(), siteId, { subject: { type, id } })).records;

  /** Buys a subscription through the checkout; answers its row. */
  const subscribe = async (
    email: string,
    key: string,
    line: { itemId: string; sku: string; subscriptionOptionId?: string },
  ) => {
    const cart = await app.inject({
      method: 'POST',
      url: '/api/3/commerce/cart/subscription',
      headers: { host: SHOP_HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...line, qty: 1, additionalFields: '' }),
    });
    const placed = await app.inject({
      method: 'POST',
      url: `/checkout/subscribe?cartToken=${cart.json().cartToken}`,
      headers: { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', cookie: `crumb=${TEST_CRUMB}` },
      payload: new URLSearchParams({
        crumb: TEST_CRUMB,
        intent: 'place',
        idempotencyKey: key,
        email,
        ...NEW_YORK,
        shippingOptionId: 'standard',
        ...TEST_CARD,
      }).toString(),
    });
    expect(placed.statusCode, placed.body).toBe(303);
    return getDb().selectFrom('subscriptions').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  };

  let subscriptionId: string;
  let cardId: string;

  beforeAll(async () => {
    await seedSite(getDb(), subscriptionSite);
    siteId = (await findSiteByHost(getDb(), SHOP_HOST))!.id;
    app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        paymentsFor: () => payments,
        cartRateLimitPerMinute: 1_000_000,
        accountRoutes: { signInsPerMinute: 1_000_000 },
      }),
    );
    manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
    viewer = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);

    const db = getDb();
    // Form submissions: three of the gift-note form, one answer that a spreadsheet would read as a formula.
    for (const [i, to] of ['Ada', '=HYPERLINK("http://evil.example","x")', 'Grace'].entries()) {
      await db
        .insertInto('form_submissions')
        .values({
          id: `sub-${i}`,
          site_id: siteId,
          form_id: 'note',
          form_name: 'Gift note',
          fields: JSON.stringify({ to }),
          answers: JSON.stringify([{ title: 'To', lines: [to] }]),
          page_path: '/shop/p/beans',
          created_at: `2026-05-0${i + 1}T10:00:00.000Z`,
        })
        .execute();
    }
    // Newsletter: one pending, one confirmed.
    await db
      .insertInto('mailing_list')
      .values([
        {
          id: 'ml-1',
          site_id: siteId,
          email: 'pending@example.com',
          status: 'pending',
          source_form_id: 'news',
          token_hash: 'x',
          created_at: '2026-05-01T00:00:00.000Z',
          confirmed_at: null,
        },
        {
          id: 'ml-2',
          site_id: siteId,
          email: 'confirmed@example.com',
          status: 'confirmed',
          source_form_id: 'news',
          token_hash: null,
          created_at: '2026-05-02T00:00:00.000Z',
          confirmed_at: '2026-05-02T01:00:00.000Z',
        },
      ])
      .execute();
    // Restock: seven shoppers wait for beans-filter (5 in stock).
    await db
      .insertInto('restock_sign_ups')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          id: `rs-${i}`,
          site_id: siteId,
          product_id: 'beans',
          sku: 'beans-filter',
          email: `waiting${i}@example.com`,
          joined_mailing_list: 0,
          base_url: 'http://shop.test',
          created_at: `2026-05-01T00:00:0${i}.000Z`,
          notified_at: null,
          unsubscribe_token_hash: null,
        })),
      )
      .execute();
    // A gift card, delivered (its code known to the test).
    const site = (await findSiteByHost(db, SHOP_HOST))!;
    const delivery = checkDeliveryDate('', site.settings.timeZone, new Date());
    if (!delivery.ok) throw new Error(delivery.error);
    const issued = await inTransaction(db, async (trx) =>
      ok(
        await issueGiftCard(trx, site, {
          amountCents: 5000,
          recipientName: 'Ada',
          recipientEmail: 'ada@example.com',
          message: '',
          purchaserEmail: null,
          orderId: null,
          delivery: delivery.value,
          shopUrl: 'http://shop.test/',
          now: new Date(),
        }),
      ),
    );
    if (!issued.ok) throw new Error('not issued');
    cardId = issued.value.card.id;
    await db
      .updateTable('gift_cards')
      .set({ status: 'active', code_hash: hashGiftCardCode(CARD_CODE.replace(/-/g, '')), last_four: 'NPQ7' })
      .where('id', '=', cardId)
      .execute();
    // A subscription, bought through the checkout: monthly beans, 3 cycles.
    subscriptionId = (
      await subscribe('bea@example.com', 'gathered-subscription-key-1', {
        itemId: 'beans',
        sku: 'beans-whole',
        subscriptionOptionId: 'monthly',
      })
    ).id;
  });
  afterAll(async () => app?.close());

  it('sends nobody to the sign-in and shows no data; a viewer reads but may not change', async () => {
    for (const path of [
      '/admin/gathered',
      '/admin/gathered/forms/note',
      '/admin/gathered/forms/note/submissions.csv',
      '/admin/gathered/newsletter.csv',
      '/admin/gathered/restock',
      '/admin/gathered/gift-cards',
      `/admin/gathered/subscriptions/${subscriptionId}`,
    ]) {
      const anonymous = await get(path);
      expect(anonymous.statusCode, path).toBe(303);
      expect(anonymous.headers.location).toBe(`/account/sign-in?next=${encodeURIComponent(path)}`);
      expect(anonymous.body).not.toContain('@example.com');
    }
    expect((await get('/api/admin/gathered/gift-cards')).statusCode).toBe(401);
    const anonymousPost = await form(`/admin/gathered/gift-cards/${cardId}/disable`, `crumb=${TEST_CRUMB}`);
    expect(anonymousPost.statusCode).toBe(303);
    expect(anonymousPost.headers.location).toMatch(/^\/account\/sign-in/);

    const page = await get('/admin/gathered', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<a href="\/admin\/gathered" aria-current="page">Gathered<\/a>/);
    expect((await get(`/admin/gathered/subscriptions/${subscriptionId}`, viewer)).body).not.toContain('>Pause<');

    const refusals = [
      await api(`/api/admin/gathered/gift-cards/${cardId}/disable`, viewer),
      await api(`/api/admin/gathered/subscriptions/${subscriptionId}/pause`, viewer),
      await api('/api/admin/gathered/restock/send', viewer, { productId: 'beans', variantId: 'beans-filter' }),
    ];
    for (const r of refusals) {
      expect(r.statusCode).toBe(403);
      expect(r.json().code).toBe('role-not-allowed');
    }
    const formRefused = await form(`/admin/gathered/subscriptions/${subscriptionId}/pause`, viewer);
    expect(formRefused.statusCode).toBe(403);
    expect(formRefused.body).toContain('Your account (viewer) may not do this.');
    expect((await getDb().selectFrom('subscriptions').select('status').executeTakeFirstOrThrow()).status).toBe(
      'active',
    );
    expect((await getDb().selectFrom('gift_cards').select('status').executeTakeFirstOrThrow()).status).toBe('active');
  });

  it('lists the forms and one form’s submissions newest first, and downloads them as formula-safe CSV', async () => {
    const forms = (await get('/api/admin/gathered/forms', viewer)).json().forms;
    expect(forms.find((f: { id: string }) => f.id === 'note')).toMatchObject({ name: 'Gift note', submissions: 3 });
    const subs = (await get('/api/admin/gathered/forms/note/submissions', viewer)).json();
    expect(subs.submissions.map((s: { id: string }) => s.id)).toEqual(['sub-2', 'sub-1', 'sub-0']);
    expect((await get('/api/admin/gathered/forms/nope/submissions', viewer)).statusCode).toBe(404);

    const page = await get('/admin/gathered/forms/note', viewer);
    expect(page.body).toContain('Gift note: submissions');
    expect(page.body).toContain('href="/admin/gathered/forms/note/submissions.csv"');

    const csv = await get('/admin/gathered/forms/note/submissions.csv', viewer);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="note-submissions.csv"');
    expect(csv.body).toBe(
      [
        'Submitted (UTC),Site,Form,Page,To',
        `2026-05-01T10:00:00.000Z,${siteId},note,/shop/p/beans,Ada`,
        `2026-05-02T10:00:00.000Z,${siteId},note,/shop/p/beans,"'=HYPERLINK(""http://evil.example"",""x"")"`,
        `2026-05-03T10:00:00.000Z,${siteId},note,/shop/p/beans,Grace`,
        '',
      ].join('\r\n'),
    );
    expect((await get('/api/admin/gathered/forms/note/submissions.csv', viewer)).body).toBe(csv.body);
  });

  it('lists the newsletter addresses, pending and confirmed, and as CSV', async () => {
    const all = (await get('/api/admin/gathered/newsletter', viewer)).json();
    expect(all.subscribers.map((s: { email: string }) => s.email)).toEqual([
      'confirmed@example.com',
      'pending@example.com',
    ]);
    const pending = (await get('/api/admin/gathered/newsletter?status=pending', viewer)).json();
    expect(pending.subscribers.map((s: { status: string }) => s.status)).toEqual(['pending']);
    expect((await get('/api/admin/gathered/newsletter?status=maybe', viewer)).statusCode).toBe(400);
    const page = await get('/admin/gathered/newsletter', viewer);
    expect(page.body).toContain('confirmed@example.com');
    expect(page.body).toContain('Pending');
    const csv = await get('/admin/gathered/newsletter.csv?status=confirmed', viewer);
    expect(csv.body).toBe(
      `E-mail,Status,Site,Signed up (UTC),Confirmed (UTC)\r\nconfirmed@example.com,confirmed,${siteId},2026-05-02T00:00:00.000Z,2026-05-02T01:00:00.000Z\r\n`,
    );
  });

  it('sends now as many restock e-mails as units in stock, oldest first, with its audit entry', async () => {
    const groups = (await get('/api/admin/gathered/restock', viewer)).json().signUpGroups;
    expect(groups).toEqual([
      expect.objectContaining({ variantId: 'beans-filter', waitingCount: 7, notifiedCount: 0, qtyInStock: 5 }),
    ]);
    const page = await get('/admin/gathered/restock', manager);
    expect(page.body).toContain('Send now');

    const sent = await form('/admin/gathered/restock/send', manager, {
      productId: 'beans',
      variantId: 'beans-filter',
      back: '/admin/gathered/restock',
    });
    expect(sent.statusCode).toBe(303);
    const back = await get(sent.headers.location as string, manager);
    expect(back.body).toContain(
      'E-mailed 5 waiting shoppers that Bean club (Filter) is back in stock. 2 still waiting.',
    );
    const mailed = await getDb()
      .selectFrom('outbox')
      .select('to_address')
      .where('kind', '=', 'restock-notification')
      .orderBy('to_address')
      .execute();
    expect(mailed.map((m) => m.to_address)).toEqual([0, 1, 2, 3, 4].map((i) => `waiting${i}@example.com`));
    // Again: its units are promised to those e-mailed; nothing more goes.
    const again = await api('/api/admin/gathered/restock/send', manager, {
      productId: 'beans',
      variantId: 'beans-filter',
    });
    expect(again.json()).toMatchObject({ sent: 0, waiting: 2, qtyInStock: 5 });
    expect(
      (await api('/api/admin/gathered/restock/send', manager, { productId: 'beans', variantId: 'x' })).statusCode,
    ).toBe(404);
    const audit = await auditOf('variant', 'beans-filter');
    expect(audit.map((a) => [a.action, a.summary])).toEqual([
      ['restock.sent', 'Sent the restock e-mail of beans-filter to 5 waiting shoppers'],
    ]);
  });

  it('shows a gift card with its history, disables it once (audit), and checkout refuses it after', async () => {
    const site = (await findSiteByHost(getDb(), SHOP_HOST))!;
    expect((await giftCardsForOrder(getDb(), site, [CARD_CODE], 1000)).applied).toHaveLength(1);
    const list = (await get('/api/admin/gathered/gift-cards', viewer)).json().giftCards;
    expect(list).toEqual([
      expect.objectContaining({
        id: cardId,
        lastFour: 'NPQ7',
        initialBalanceCents: 5000,
        balanceCents: 5000,
        state: 'active',
      }),
    ]);
    const one = (await get(`/api/admin/gathered/gift-cards/${cardId}`, viewer)).json();
    expect(one.history.map((h: { kind: string; amountCents: number }) => [h.kind, h.amountCents])).toEqual([
      ['issue', 5000],
    ]);
    const page = await get(`/admin/gathered/gift-cards/${cardId}`, manager);
    expect(page.body).toContain('Gift card …NPQ7');
    expect(page.body).toContain('>Disable<');

    const disabled = await form(`/admin/gathered/gift-cards/${cardId}/disable`, manager, {
      back: `/admin/gathered/gift-cards/${cardId}`,
    });
    expect(disabled.statusCode).toBe(303);
    const back = await get(disabled.headers.location as string, manager);
    expect(back.body).toContain('Disabled the gift card …NPQ7: it can no longer be used at checkout.');
    expect(back.body).not.toContain('>Disable<');

    const twice = await api(`/api/admin/gathered/gift-cards/${cardId}/disable`, manager);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: 'gift-card-conflict',
      message: 'The gift card …NPQ7 is already disabled.',
    });
    expect((await api('/api/admin/gathered/gift-cards/nope/disable', manager)).statusCode).toBe(404);

    const refused = await giftCardsForOrder(getDb(), site, [CARD_CODE], 1000);
    expect(refused.applied).toEqual([]);
    expect(refused.error).toBe(GIFT_CARD_MESSAGES.invalid);
    const audit = await auditOf('gift-card', cardId);
    expect(audit.map((a) => [a.action, a.summary, a.actor])).toEqual([
      ['giftcard.disabled', 'Disabled the gift card …NPQ7 (balance $50.00)', expect.stringContaining('@')],
    ]);
  });

  it('pauses (not billed), resumes, skips the next billing one interval on, cancels — each with its audit entry', async () => {
    const db = getDb();
    const row = () =>
      db.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirstOrThrow();
    const first = await row();
    const due = new Date(first.next_billing_at!);

    const paused = await form(`/admin/gathered/subscriptions/${subscriptionId}/pause`, manager, {
      back: `/admin/gathered/subscriptions/${subscriptionId}`,
    });
    expect(paused.statusCode).toBe(303);
    expect((await get(paused.headers.location as string, manager)).body).toContain(
      'Paused the subscription of bea@example.com: it is not billed until resumed.',
    );
    expect((await row()).status).toBe('paused');
    const run = await billing(new Date(due.getTime() + 60_000));
    expect(run.paid).toBe(0);
    expect((await row()).periods_billed).toBe(1);
    expect(
      await db.selectFrom('subscription_bills').select('id').where('subscription_id', '=', subscriptionId).execute(),
    ).toHaveLength(1);
    expect((await api(`/api/admin/gathered/subscriptions/${subscriptionId}/pause`, manager)).json()).toMatchObject({
      code: 'subscription-conflict',
      message: `Subscription ${subscriptionId} is paused: it cannot be paused.`,
    });
    expect((await api(`/api/admin/gathered/subscriptions/${subscriptionId}/skip`, manager)).statusCode).toBe(409);

    // Resumed before its date: the date stays.
    const resumed = await api(`/api/admin/gathered/subscriptions/${subscriptionId}/resume`, manager);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().subscription).toMatchObject({ status: 'active', nextBillingAt: first.next_billing_at });

    // Skip: period 2 is passed over, next billing is period 3's date (one interval on), nothing charged.
    const skipped = await api(`/api/admin/gathered/subscriptions/${subscriptionId}/skip`, manager);
    expect(skipped.statusCode).toBe(200);
    const afterSkip = await row();
    expect(afterSkip.periods_billed).toBe(2);
    const next = new Date(afterSkip.next_billing_at!);
    expect(next.getTime()).toBeGreaterThan(due.getTime() + 27 * 86_400_000);
    expect(next.getTime()).toBeLessThan(due.getTime() + 32 * 86_400_000);
    expect((await billing(new Date(due.getTime() + 60_000))).paid).toBe(0);
    const one = (await get(`/api/admin/gathered/subscriptions/${subscriptionId}`, viewer)).json();
    expect(one.bills).toEqual([
      expect.objectContaining({ periodNumber: 1, status: 'paid' }),
      expect.objectContaining({ periodNumber: 2, status: 'skipped', amount: 0 }),
    ]);
    // Billed at its new date: period 3, once.
    expect((await billing(new Date(next.getTime() + 60_000))).paid).toBe(1);
    expect((await row()).status).toBe('completed');

    const audit = await auditOf('subscription', subscriptionId);
    expect(audit.map((a) => a.action)).toEqual(['subscription.skipped', 'subscription.resumed', 'subscription.paused']);
    expect(audit[2]!.before).toMatchObject({ status: 'active' });
    expect(audit[2]!.after).toMatchObject({ status: 'paused' });

    const page = await get(`/admin/gathered/subscriptions/${subscriptionId}`, manager);
    expect(page.body).toContain('Skipped (not charged)');
    expect(page.body).toContain('Completed');
    const cancel = await form(`/admin/gathered/subscriptions/${subscriptionId}/cancel`, manager);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.body).toContain(`Subscription ${subscriptionId} is completed: it cannot be cancelled.`);
  });

  it('cancels, and a pause racing a renewal never bills the paused subscription', async () => {
    const db = getDb();
    const tea = await subscribe('cy@example.com', 'gathered-subscription-key-2', { itemId: 'tea', sku: 'tea-1' });
    const at = new Date(new Date(tea.next_billing_at!).getTime() + 60_000);
    const [run, pause] = await Promise.all([
      billing(at),
      api(`/api/admin/gathered/subscriptions/${tea.id}/pause`, manager),
    ]);
    const after = await db.selectFrom('subscriptions').selectAll().where('id', '=', tea.id).executeTakeFirstOrThrow();
    const bills = await db.selectFrom('subscription_bills').selectAll().where('subscription_id', '=', tea.id).execute();
    expect(pause.statusCode).toBe(200);
    expect(after.status).toBe('paused');
    // Billed only if the renewal committed before the pause: then period 2 was billed and the pause came after.
    if (run.paid === 1) expect(after.periods_billed).toBe(2);
    else expect(bills.filter((b) => b.period_number > 1 && b.status === 'paid')).toEqual([]);
    expect(bills.filter((b) => b.status === 'pending')).toEqual([]);
    // Paused: nothing more is billed, whatever the date.
    expect((await billing(new Date(at.getTime() + 90 * 86_400_000))).paid).toBe(0);

    // The pause lands while the renewal charges the card (after its claim, before its order): no order, the charge
    // is voided, the period's claim goes, and once resumed the period is billed on its schedule.
    expect((await api(`/api/admin/gathered/subscriptions/${tea.id}/resume`, manager)).statusCode).toBe(200);
    const resumed = await db.selectFrom('subscriptions').selectAll().where('id', '=', tea.id).executeTakeFirstOrThrow();
    const orders = async () =>
      Number(
        (
          await db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('email', '=', 'cy@example.com')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const ordersBefore = await orders();
    const voidsBefore = voids;
    duringCharge = () => api(`/api/admin/gathered/subscriptions/${tea.id}/pause`, manager);
    const raced = await billing(new Date(new Date(resumed.next_billing_at!).getTime() + 60_000));
    duringCharge = undefined;
    expect(raced.paid).toBe(0);
    expect(await orders()).toBe(ordersBefore);
    expect(voids).toBe(voidsBefore + 1);
    const racedRow = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', tea.id)
      .executeTakeFirstOrThrow();
    expect(racedRow).toMatchObject({ status: 'paused', periods_billed: resumed.periods_billed });
    expect(
      await db
        .selectFrom('subscription_bills')
        .select('status')
        .where('subscription_id', '=', tea.id)
        .where('period_number', '=', Number(resumed.periods_billed) + 1)
        .execute(),
    ).toEqual([]);

    const cancelled = await api(`/api/admin/gathered/subscriptions/${tea.id}/cancel`, manager);
    expect(cancelled.json().subscription).toMatchObject({ status: 'cancelled', nextBillingAt: null });
    expect((await auditOf('subscription', tea.id)).map((a) => a.action)).toEqual([
      'subscription.cancelled',
      'subscription.paused',
      'subscription.resumed',
      'subscription.paused',
    ]);
  });

  it('vitrine subscriptions pause|resume|skip and giftcards disable: the same changes, audited as the command', async () => {
    const sub = await subscribe('dee@example.com', 'gathered-subscription-key-3', { itemId: 'tea', sku: 'tea-1' });
    const run = (...args: string[]) => vitrine(args, getFresh().url);
    expect((await run('subscriptions', 'pause', sub.id)).out).toEqual([
      `Paused subscription ${sub.id} (dee@example.com): it is not billed until resumed.`,
    ]);
    const twice = await run('subscriptions', 'pause', sub.id);
    expect(twice.code).toBe(1);
    expect(twice.err).toEqual([`vitrine: Subscription ${sub.id} is paused: it cannot be paused.`]);
    expect((await run('subscriptions', 'resume', sub.id)).out[0]).toMatch(
      new RegExp(
        `^Resumed subscription ${sub.id} \\(dee@example.com\\); next billing \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`,
      ),
    );
    expect((await run('subscriptions', 'skip', sub.id)).out[0]).toContain(
      `Skipped the next billing of subscription ${sub.id}`,
    );
    const after = await getDb()
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', sub.id)
      .executeTakeFirstOrThrow();
    expect(after.periods_billed).toBe(2);
    expect(Date.parse(after.next_billing_at!) - Date.parse(sub.next_billing_at!)).toBe(14 * 86_400_000);
    expect((await run('subscriptions', 'cancel', sub.id)).out[0]).toContain(`Cancelled subscription ${sub.id}`);
    const audit = await auditOf('subscription', sub.id);
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ['subscription.cancelled', 'vitrine command'],
      ['subscription.skipped', 'vitrine command'],
      ['subscription.resumed', 'vitrine command'],
      ['subscription.paused', 'vitrine command'],
    ]);

    // A second card ending in the same four: the last four are refused as ambiguous, the id is not.
    const other = await getDb().selectFrom('gift_cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
    await getDb()
      .insertInto('gift_cards')
      .values({ ...other, id: 'second-card-id-000000', code_hash: 'h2', status: 'active', outbox_id: null })
      .execute();
    const ambiguous = await run('giftcards', 'disable', 'npq7');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err[0]).toContain('Several gift cards end in NPQ7');
    expect((await run('giftcards', 'disable', 'second-card-id-000000')).out).toEqual([
      'Disabled the gift card …NPQ7 (balance $50.00): it can no longer be used at checkout.',
    ]);
    expect((await run('giftcards', 'disable', 'ZZZZ')).err).toEqual(['vitrine: There is no gift card ZZZZ.']);
    expect((await auditOf('gift-card', 'second-card-id-000000')).map((a) => a.actor)).toEqual(['vitrine command']);
  });

  it('two staff at once: one pause, one skip and one disable win; the others are told', async () => {
    const sub = await subscribe('eve@example.com', 'gathered-subscription-key-4', { itemId: 'tea', sku: 'tea-1' });
    const statuses = async (url: string, body: unknown = {}) =>
      (await Promise.all(Array.from({ length: 5 }, () => api(url, manager, body)))).map((r) => r.statusCode).sort();
    expect(await statuses(`/api/admin/gathered/subscriptions/${sub.id}/pause`)).toEqual([200, 409, 409, 409, 409]);
    expect(await statuses(`/api/admin/gathered/subscriptions/${sub.id}/resume`)).toEqual([200, 409, 409, 409, 409]);
    // The page's skip says which period it skips: five presses at once skip one billing.
    expect(await statuses(`/api/admin/gathered/subscriptions/${sub.id}/skip`, { period: 2 })).toEqual([
      200, 409, 409, 409, 409,
    ]);
    expect((await api(`/api/admin/gathered/subscriptions/${sub.id}/skip`, manager, { period: 'x' })).statusCode).toBe(
      400,
    );
    const after = await getDb()
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', sub.id)
      .executeTakeFirstOrThrow();
    expect(after.periods_billed).toBe(2);
    expect((await auditOf('subscription', sub.id)).map((a) => a.action)).toEqual([
      'subscription.skipped',
      'subscription.resumed',
      'subscription.paused',
    ]);

    const card = await getDb().selectFrom('gift_cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
    await getDb()
      .insertInto('gift_cards')
      .values({ ...card, id: 'third-card-id-0000000', code_hash: 'h3', status: 'active', outbox_id: null })
      .execute();
    expect(await statuses('/api/admin/gathered/gift-cards/third-card-id-0000000/disable')).toEqual([
      200, 409, 409, 409, 409,
    ]);
    expect(await auditOf('gift-card', 'third-card-id-0000000')).toHaveLength(1);
  });

  it('answers bad input with a clear 4xx, never a 500', async () => {
    const bad = [
      await get('/api/admin/gathered/subscriptions?offset=-1', viewer),
      await get('/api/admin/gathered/subscriptions?status=sleeping', viewer),
      await get(`/api/admin/gathered/gift-cards/${'x'.repeat(100)}`, viewer),
      await get('/api/admin/gathered/restock?cursor=nope', viewer),
      await api('/api/admin/gathered/subscriptions/abc/explode', manager),
      await api('/api/admin/gathered/restock/send', manager, { productId: '' }),
    ];
    for (const answer of bad) {
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().message).toBeTruthy();
    }
    expect((await api('/api/admin/gathered/subscriptions/AAAAAAAAAAAAAAAAAAAAAA/pause', manager)).statusCode).toBe(404);
    const page = await get('/admin/gathered/restock?cursor=nope', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The cursor is not valid');
    const form422 = await form('/admin/gathered/restock/send', manager, { productId: 'beans' });
    expect(form422.statusCode).toBe(422);
    expect(form422.body).toContain('Choose a product and variant to send for.');
  });
});
