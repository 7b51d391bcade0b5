/**
 * `vitrine subscriptions` on both engines: usage errors (exit 2, no stack trace), listing, showing with bills, billing
 * by hand with --now (a renewal order, stock taken), and cancelling.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { vitrine } from '../support/cli';
import { forEachEngine } from '../support/engines';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { NEW_YORK, seedSite, SHOP_HOST, subscriptionSite, TEST_CARD } from '../support/subscriptionSite';

describe('vitrine subscriptions: usage', () => {
  it('is in the help', async () => {
    const help = (await vitrine(['help'], 'sqlite::memory:')).out.join('\n');
    expect(help).toContain('subscriptions show ID');
    expect(help).toContain('subscriptions bill [--now DATE]');
  });

  it('refuses wrong usage with exit code 2 and a hint, before touching the database', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const cases: [string[], string][] = [
      [
        ['subscriptions', 'stop', 'x'],
        "unknown subscriptions command 'stop' (use 'vitrine subscriptions', 'vitrine subscriptions show ID', 'vitrine subscriptions cancel ID', 'vitrine subscriptions pause ID', 'vitrine subscriptions resume ID', 'vitrine subscriptions skip ID' or 'vitrine subscriptions bill [--now DATE]')",
      ],
      [
        ['subscriptions', '--status', 'stopped'],
        "option '--status' must be active, past_due, paused, cancelled or completed, not 'stopped'",
      ],
      [
        ['subscriptions', 'pause', 'abc'],
        "a subscription id is 22 letters, digits, '-' or '_' (as 'vitrine subscriptions' lists them), not 'abc'",
      ],
      [['subscriptions', 'skip'], "'subscriptions skip' needs the subscription's id: vitrine subscriptions skip ID"],
      [['subscriptions', '--limit', '0'], "option '--limit' must be a whole number from 1 to 10000, not '0'"],
      [['subscriptions', 'show'], "'subscriptions show' needs the subscription's id: vitrine subscriptions show ID"],
      [
        ['subscriptions', 'show', 'abc'],
        "a subscription id is 22 letters, digits, '-' or '_' (as 'vitrine subscriptions' lists them), not 'abc'",
      ],
      [['subscriptions', 'cancel', 'a', 'b'], "'subscriptions cancel' takes one subscription id, got 2"],
      [
        ['subscriptions', 'bill', '--now', 'tomorrow'],
        "option '--now' must be a date like 2026-05-01 or 2026-05-01T09:00:00Z, not 'tomorrow'",
      ],
      [
        ['subscriptions', 'bill', '--now', '2026-02-30T25:00'],
        "option '--now' must be a date like 2026-05-01 or 2026-05-01T09:00:00Z, not '2026-02-30T25:00'",
      ],
      [['subscriptions', 'bill', '--force'], "unknown option '--force' for 'subscriptions bill'"],
    ];
    for (const [args, message] of cases) {
      const run = await vitrine(args, unreachable);
      expect(run.err, args.join(' ')).toEqual([`vitrine: ${message}. Run 'vitrine help' for usage.`]);
      expect(run.code).toBe(2);
      expect(run.out).toEqual([]);
    }
  });
});

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  const run = (...args: string[]) => vitrine(['subscriptions', ...args], getFresh().url);

  beforeAll(async () => {
    await seedSite(getDb(), subscriptionSite);
    app = sendCrumbs(await buildApp({ db: getDb(), engine }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists, shows, bills by hand and cancels', async () => {
    expect((await run()).out).toEqual(['No subscriptions yet.']);
    const cart = await app.inject({
      method: 'POST',
      url: '/api/3/commerce/cart/subscription',
      headers: { host: SHOP_HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({
        itemId: 'beans',
        sku: 'beans-whole',
        qty: 1,
        additionalFields: '',
        subscriptionOptionId: 'monthly',
      }),
    });
    const placed = await app.inject({
      method: 'POST',
      url: `/checkout/subscribe?cartToken=${cart.json().cartToken}`,
      headers: { host: SHOP_HOST, 'content-type': 'application/x-www-form-urlencoded', cookie: `crumb=${TEST_CRUMB}` },
      payload: new URLSearchParams({
        crumb: TEST_CRUMB,
        intent: 'place',
        idempotencyKey: 'cli-subscription-key-1',
        email: 'ada@example.com',
        ...NEW_YORK,
        shippingOptionId: 'standard',
        ...TEST_CARD,
      }).toString(),
    });
    expect(placed.statusCode, placed.body).toBe(303);
    const sub = await getDb().selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow();

    const listed = await run();
    expect(listed.code).toBe(0);
    expect(listed.out[0]).toMatch(/^ID\s+STATUS\s+E-MAIL/);
    expect(listed.out[1]).toContain(sub.id);
    expect(listed.out[1]).toContain('Active');
    expect(listed.out[1]).toContain('$12.00 every month for 3 months');

    const early = await run('bill', '--now', '2000-01-01');
    expect(early.out).toEqual([
      'Billed at 2000-01-01T00:00:00.000Z: 0 paid, 0 awaiting payment, 0 declined (now past due), 0 sold out (not charged), 0 to retry.',
    ]);
    const billed = await run('bill', '--now', sub.next_billing_at!);
    expect(billed.code).toBe(0);
    expect(billed.out[0]).toContain(': 1 paid,');
    expect(
      Number(
        (
          await getDb()
            .selectFrom('variants')
            .select('qty_in_stock')
            .where('sku', '=', 'beans-whole')
            .executeTakeFirstOrThrow()
        ).qty_in_stock,
      ),
    ).toBe(3);

    const shown = await run('show', sub.id);
    expect(shown.code).toBe(0);
    const text = shown.out.join('\n');
    expect(text).toContain(`Subscription ${sub.id}`);
    expect(text).toContain('Plan:          $12.00 every month for 3 months');
    expect(text).toMatch(/1\s+paid\s+\$\d+\.\d\d\s+#1/);
    expect(text).toMatch(/2\s+paid\s+\$\d+\.\d\d\s+#2/);

    expect((await run('show', 'AAAAAAAAAAAAAAAAAAAAAA')).err).toEqual([
      "vitrine: there is no subscription 'AAAAAAAAAAAAAAAAAAAAAA'",
    ]);
    // An id may start with '-': it is read as the id, not as an option.
    expect((await run('show', '-AAAAAAAAAAAAAAAAAAAAA')).err).toEqual([
      "vitrine: there is no subscription '-AAAAAAAAAAAAAAAAAAAAA'",
    ]);
    const cancelled = await run('cancel', sub.id);
    expect(cancelled.code).toBe(0);
    expect(cancelled.out[0]).toContain(`Cancelled subscription ${sub.id}`);
    const again = await run('cancel', sub.id);
    expect(again.code).toBe(1);
    expect(again.err).toEqual([`vitrine: subscription ${sub.id} is already cancelled`]);
    expect((await run('--status', 'cancelled')).out[1]).toContain(sub.id);
  });
});
