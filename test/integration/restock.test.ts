/**
 * Restock notifications on SQLite and PostgreSQL (spec §3, §5, §7, §8): the sign-up call with the form's texts, one
 * sign-up per e-mail and variant, bad input refused with nothing stored, the mailing list's opt-in, the CAPTCHA, rate
 * limits (per client and per product, shared through Redis); the product page's form and its post without
 * JavaScript; restocks recorded by an import and a refund; sends e-mailing at most as many shoppers as units (oldest
 * first), each once even when sends run at once — in one process and in two; the unsubscribe link; the account
 * area's calls (roles, cursor paging) and the automatic send.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CRUMB_COOKIE } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { buildApp } from '../../src/server/app';
import { paymentProviderFor } from '../../src/modules/payments';
import { refundOrder } from '../../src/modules/orders/refunds';
import { runRestockAutoSend } from '../../src/modules/restock/autoSend';
import { listRestockGroups, listRestockSignUps } from '../../src/modules/restock/lists';
import { sendRestockNotifications } from '../../src/modules/restock/send';
import { getSite, type Site } from '../../src/modules/site/sites';
import { NEW_YORK, TEST_CARD } from '../support/checkoutSite';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { REDIS_URL, runRedisTests } from '../support/redis';
import {
  CAPTCHA_HOST,
  captchaRestockSite,
  MUG_CTA,
  PRINT_SUCCESS,
  restockSite,
  seedSite,
  SHOP_HOST,
  withStock,
} from '../support/restockSite';
import { addSiteUser, signIn, signInAs } from '../support/siteUsers';

const API = '/api/commerce/restock-notifications';
const ACCOUNT_API = '/api/site-users/account/notifications/restock';
const EASY_ALTCHA = { cost: 10, minCounter: 50, maxCounter: 200 };
const TSX = resolve('node_modules/.bin/tsx');
const SEND_PROCESS = resolve('test/support/restockSendProcess.ts');

/** React's text markers out of the way: what a reader sees. */
const withoutMarkers = (html: string) => html.replaceAll('<!-- -->', '');
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
const payload = (email: string, variantId = 'MUG-SAGE', productId = 'mug', extra: Record<string, unknown> = {}) => ({
  isJoinMailingList: false,
  productId,
  siteVisitorEmail: email,
  variantId,
  recaptchaEnterpriseV3Token: null,
  ...extra,
});

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  /** inject without the crumb header sendCrumbs adds: what a browser without JavaScript sends. */
  let plainInject: (options: InjectOptions) => Promise<LightMyRequestResponse>;
  let shop: Site;

  beforeAll(async () => {
    await seedSite(getDb(), restockSite);
    await seedSite(getDb(), captchaRestockSite);
    app = await buildApp({
      db: getDb(),
      engine,
      cartRateLimitPerMinute: 1_000_000,
      formRoutes: { altchaDifficulty: EASY_ALTCHA, submissionsPerMinute: 1_000_000 },
      restockRoutes: { signUpsPerMinute: 1_000_000, signUpsPerProductPerMinute: 1_000_000 },
      accountRoutes: { signInsPerMinute: 1_000_000 },
    });
    plainInject = app.inject.bind(app) as typeof plainInject;
    sendCrumbs(app);
    shop = (await getSite(getDb(), 'shop'))!;
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await seedSite(getDb(), restockSite);
    for (const table of ['restock_sign_ups', 'restock_variants', 'outbox', 'mailing_list'] as const)
      await getDb().deleteFrom(table).execute();
  });

  const signUp = (body: unknown, options: { host?: string; ip?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: API,
      headers: { host: options.host ?? SHOP_HOST, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
      ...(options.ip ? { remoteAddress: options.ip } : {}),
    });
  /** Signs these addresses up one after the other (a few ms apart: "oldest first" is by time). */
  const signUpAll = async (emails: string[], variantId = 'MUG-SAGE', productId = 'mug') => {
    for (const email of emails) {
      const answer = await signUp(payload(email, variantId, productId));
      expect(answer.statusCode, answer.body).toBe(200);
      await pause(3);
    }
  };
  const signUps = (sku: string) =>
    getDb()
      .selectFrom('restock_sign_ups')
      .selectAll()
      .where('sku', '=', sku)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  const restockMail = () =>
    getDb()
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'restock-notification')
      .orderBy('created_at')
      .orderBy('to_address')
      .execute();
  const restockVariant = (sku: string) =>
    getDb().selectFrom('restock_variants').selectAll().where('sku', '=', sku).executeTakeFirst();
  const emails = (n: number, prefix = 'shopper') =>
    Array.from({ length: n }, (_, i) => `${prefix}${i + 1}@example.com`);

  describe('signing up', () => {
    it('answers the §5 texts for the e-mail, then Signed up; one sign-up per e-mail and variant', async () => {
      const blank = await signUp(payload('  '));
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toMatchObject({
        code: 'invalid-input',
        message: 'Email cannot be blank',
        field: 'siteVisitorEmail',
      });
      const invalid = await signUp(payload('ada@example'));
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toMatchObject({ message: 'Email is invalid', field: 'siteVisitorEmail' });
      expect(await signUps('MUG-SAGE')).toEqual([]);

      const first = await signUp(payload(' Ada@Example.com '));
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ signedUp: true });
      expect(first.headers['cache-control']).toBe('no-store');
      // Again, in other letters: still one sign-up, the first one's place kept.
      const [row] = await signUps('MUG-SAGE');
      expect((await signUp(payload('ada@example.COM'))).statusCode).toBe(200);
      expect(await signUps('MUG-SAGE')).toEqual([row]);
      expect(row).toMatchObject({
        email: 'ada@example.com',
        product_id: 'mug',
        site_id: 'shop',
        notified_at: null,
        base_url: 'http://shop.test',
      });
      // Another variant is another sign-up.
      expect((await signUp(payload('ada@example.com', 'MUG-SLATE'))).statusCode).toBe(200);
      expect(await signUps('MUG-SLATE')).toHaveLength(1);
    });

    it('refuses what cannot be signed up for, naming it, and stores nothing', async () => {
      const cases: [unknown, number, Record<string, unknown>][] = [
        [
          payload('a@example.com', 'MUG-SAGE', 'nope'),
          404,
          { code: 'product-not-found', message: "There is no product 'nope' in this shop." },
        ],
        [
          payload('a@example.com', 'MUG-GOLD'),
          404,
          { code: 'product-not-found', message: "The product 'mug' has no variant 'MUG-GOLD'." },
        ],
        [
          payload('a@example.com', 'MUG-OAT'),
          409,
          { code: 'restock-not-offered', message: 'This item is in stock now: reload the page to buy it.' },
        ],
        [
          payload('a@example.com', 'BOWL', 'bowl'),
          409,
          { code: 'restock-not-offered', message: 'Restock notifications are not offered for this product.' },
        ],
        [
          payload('a@example.com', 'ebook-1', 'ebook'),
          409,
          { message: 'This item is in stock now: reload the page to buy it.' },
        ],
        [
          payload('nul\u0000@example.com'),
          400,
          { code: 'invalid-input', field: 'siteVisitorEmail', message: 'Email is invalid' },
        ],
        [payload('a@example.com', 'MUG-SAGE', 'Mug!'), 400, { code: 'invalid-input', field: 'productId' }],
        [payload('a@example.com', 'x'.repeat(65)), 400, { field: 'variantId' }],
        [
          payload('a@example.com', 'MUG-SAGE', 'mug', { isJoinMailingList: 'yes please' }),
          400,
          { message: 'isJoinMailingList must be true or false.' },
        ],
        [
          payload('a@example.com', 'MUG-SAGE', 'mug', { recaptchaEnterpriseV3Token: { a: 1 } }),
          400,
          { field: 'recaptchaEnterpriseV3Token' },
        ],
        [[payload('a@example.com')], 400, { message: 'The sign-up must be a JSON object.' }],
        ['a@example.com', 400, { message: 'The sign-up must be a JSON object.' }],
      ];
      for (const [body, status, expected] of cases) {
        const answer = await signUp(body);
        expect(answer.statusCode, JSON.stringify(body)).toBe(status);
        expect(answer.json(), JSON.stringify(body)).toMatchObject(expected);
      }
      const notJson = await app.inject({
        method: 'POST',
        url: API,
        headers: { host: SHOP_HOST, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json()).toMatchObject({ message: 'The sign-up must be a JSON object.' });
      const broken = await app.inject({
        method: 'POST',
        url: API,
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
        payload: '{"productId":',
      });
      expect(broken.statusCode).toBe(400);
      expect(await getDb().selectFrom('restock_sign_ups').selectAll().execute()).toEqual([]);
    });

    it('joins the mailing list (double opt-in) only when the shopper asks and the product offers it', async () => {
      expect(
        (await signUp(payload('joins@example.com', 'MUG-SAGE', 'mug', { isJoinMailingList: true }))).statusCode,
      ).toBe(200);
      expect(
        (await signUp(payload('asked@example.com', 'PRINT', 'print', { isJoinMailingList: true }))).statusCode,
      ).toBe(200);
      expect((await signUp(payload('not@example.com', 'MUG-SLATE'))).statusCode).toBe(200);
      const list = await getDb().selectFrom('mailing_list').select(['email', 'status', 'source_form_id']).execute();
      expect(list).toEqual([{ email: 'joins@example.com', status: 'pending', source_form_id: 'restock:mug' }]);
      const confirmations = await getDb().selectFrom('outbox').select(['to_address', 'kind']).execute();
      expect(confirmations).toEqual([{ to_address: 'joins@example.com', kind: 'newsletter-confirmation' }]);
      expect((await signUps('MUG-SAGE'))[0]?.joined_mailing_list).toBe(1);
      expect((await signUps('PRINT'))[0]?.joined_mailing_list).toBe(0);
      // Signing up again sends no second confirmation.
      expect(
        (await signUp(payload('joins@example.com', 'MUG-SAGE', 'mug', { isJoinMailingList: true }))).statusCode,
      ).toBe(200);
      expect(await getDb().selectFrom('outbox').select('id').execute()).toHaveLength(1);
    });

    it('asks for the site’s CAPTCHA (PRODUCT_WAITLIST_SUBMISSION): unsolved and replayed refused, solved accepted', async () => {
      const solved = async () => {
        const challenge = (
          await app.inject({ method: 'GET', url: '/api/form/altcha/challenge', headers: { host: CAPTCHA_HOST } })
        ).json() as Challenge;
        const solution = await solveChallenge({ challenge, deriveKey });
        return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      };
      const unsolved = await signUp(payload('cap@example.com'), { host: CAPTCHA_HOST });
      expect(unsolved.statusCode).toBe(400);
      expect(unsolved.json()).toMatchObject({
        code: 'captcha-refused',
        message: 'Complete CAPTCHA before submitting.',
      });
      const forged = await signUp(
        payload('cap@example.com', 'MUG-SAGE', 'mug', { recaptchaEnterpriseV3Token: 'bm90IGEgc29sdXRpb24=' }),
        { host: CAPTCHA_HOST },
      );
      expect(forged.json()).toMatchObject({ message: 'Complete CAPTCHA before submitting.' });
      const token = await solved();
      const ok = await signUp(payload('cap@example.com', 'MUG-SAGE', 'mug', { recaptchaEnterpriseV3Token: token }), {
        host: CAPTCHA_HOST,
      });
      expect(ok.statusCode, ok.body).toBe(200);
      const replay = await signUp(
        payload('other@example.com', 'MUG-SAGE', 'mug', { recaptchaEnterpriseV3Token: token }),
        { host: CAPTCHA_HOST },
      );
      expect(replay.statusCode).toBe(400);
      const rows = await getDb()
        .selectFrom('restock_sign_ups')
        .select(['site_id', 'email'])
        .where('site_id', '=', 'captcha-shop')
        .execute();
      expect(rows).toEqual([{ site_id: 'captcha-shop', email: 'cap@example.com' }]);
    });
  });

  describe('rate limits', () => {
    const limited = async (redisUrl?: string) =>
      sendCrumbs(
        await buildApp({
          db: getDb(),
          engine,
          ...(redisUrl ? { redisUrl } : {}),
          restockRoutes: { signUpsPerMinute: 24, signUpsPerProductPerMinute: 12 },
        }),
      );
    const expect429 = (answer: LightMyRequestResponse) => {
      expect(answer.statusCode).toBe(429);
      expect(answer.json()).toMatchObject({
        code: 'rate-limited',
        message: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
      });
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(10);
    };
    const post = (target: FastifyInstance, body: unknown, ip: string) =>
      target.inject({
        method: 'POST',
        url: API,
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
        remoteAddress: ip,
      });

    it('counts per client and product (2 per 10 s here) and per client (4 per 10 s): 429 with Retry-After and §8’s text', async () => {
      const limitedApp = await limited();
      try {
        const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
        expect((await post(limitedApp, payload('r1@example.com'), ip)).statusCode).toBe(200);
        // The same product (another variant of it).
        expect((await post(limitedApp, payload('r2@example.com', 'MUG-SLATE'), ip)).statusCode).toBe(200);
        expect429(await post(limitedApp, payload('r3@example.com'), ip));
        // Another product still has room in this client's budget … until the client's own budget is spent.
        expect((await post(limitedApp, payload('r4@example.com', 'PRINT', 'print'), ip)).statusCode).toBe(200);
        expect429(await post(limitedApp, payload('r5@example.com', 'PRINT', 'print'), ip));
        // Another client is not held back.
        expect((await post(limitedApp, payload('r6@example.com'), '198.51.100.250')).statusCode).toBe(200);
        expect((await signUps('MUG-SAGE')).map((r) => r.email)).toEqual(['r1@example.com', 'r6@example.com']);
      } finally {
        await limitedApp.close();
      }
    });

    it.runIf(runRedisTests)('shares the per-product budget between processes through Redis', async () => {
      const [a, b] = [await limited(REDIS_URL), await limited(REDIS_URL)];
      try {
        const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
        const body = (n: number) => payload(`redis${n}-${engine}-${Date.now()}@example.com`, 'PRINT', 'print');
        expect((await post(a, body(1), ip)).statusCode).toBe(200);
        expect((await post(b, body(2), ip)).statusCode).toBe(200);
        expect429(await post(a, body(3), ip));
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  describe('the product page', () => {
    const page = async (path: string) => {
      const answer = await app.inject({ method: 'GET', url: path, headers: { host: SHOP_HOST, accept: 'text/html' } });
      expect(answer.statusCode).toBe(200);
      return answer.body;
    };
    const islandOf = (html: string) =>
      /<div class="island" data-island="RestockSignUp"[^>]*>([\s\S]*?)<\/div><\/div>|<div class="island" data-island="RestockSignUp"[^>]*>/.exec(
        html,
      )?.[0] ?? null;

    it('carries the form where a variant is sold out and restock is on, with its texts', async () => {
      const mug = await page('/shop/p/mug');
      const island = islandOf(mug);
      expect(island).not.toBeNull();
      // No colour chosen yet: the choice among the sold-out ones is offered without JavaScript only.
      expect(mug).toContain('<noscript>');
      expect(mug).toContain(MUG_CTA);
      expect(mug).toMatch(/<option value="MUG-SAGE">Sage<\/option><option value="MUG-SLATE">Slate<\/option>/);
      expect(mug).toContain('Join our mailing list');
      expect(mug).toContain(
        '<input type="checkbox" name="isJoinMailingList" checked="" value="true"/>Join our mailing list',
      );
      expect(mug).toContain('>Sign Up</button>');

      const print = await page('/shop/p/print');
      expect(print).toMatch(
        /<details class="restock"><summary class="restock__cta">Notify me when this is back in stock<\/summary><form class="restock__form" [^>]*action="\/restock\/sign-up" method="post">/,
      );
      expect(print).toContain('<input type="hidden" name="variantId" value="PRINT"/>');
      expect(print).not.toContain('Join our mailing list');
      // The same page for every visitor (cached once): no crumb in it, the post is checked by its origin.
      expect(print).not.toContain('vitrine-crumb-placeholder');
      expect(print).not.toMatch(/name="crumb"/);

      expect(islandOf(await page('/shop/p/bowl'))).toBeNull();
      expect(islandOf(await page('/shop/p/limited'))).toBeNull();
    });

    it('works without JavaScript: the form posts, the product page comes back with the texts', async () => {
      const post = (fields: Record<string, string>, crumb: string | null = TEST_CRUMB) =>
        plainInject({
          method: 'POST',
          url: '/restock/sign-up',
          headers: {
            host: SHOP_HOST,
            accept: 'text/html',
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
          },
          payload: new URLSearchParams({
            productId: 'print',
            variantId: 'PRINT',
            ...(crumb ? { crumb } : {}),
            ...fields,
          }).toString(),
        });
      const blank = await post({ siteVisitorEmail: '' });
      expect(blank.statusCode).toBe(400);
      expect(blank.headers['content-type']).toContain('text/html');
      expect(blank.body).toMatch(
        /<p class="field__error" id="(_restock-[^"]+-email-error)" role="alert">Email cannot be blank<\/p><label for="_restock-[^"]+-email">Email<\/label><input [^>]*aria-invalid="true" aria-describedby="\1"/,
      );
      expect(blank.body).toContain('<details class="restock" open="">');
      const invalid = await post({ siteVisitorEmail: 'grace@' });
      expect(invalid.body).toContain('Email is invalid');
      expect(invalid.body).toContain('value="grace@"');
      const done = await post({ siteVisitorEmail: 'Grace@example.com' });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain(
        `<p class="restock__success" role="status" tabindex="-1">${PRINT_SUCCESS.replaceAll("'", '&#x27;')}</p>`,
      );
      expect(done.body).not.toContain('<form class="restock__form"');
      // The call to action stays.
      expect(done.body).toContain('<summary class="restock__cta">Notify me when this is back in stock</summary>');
      expect((await signUps('PRINT')).map((r) => r.email)).toEqual(['grace@example.com']);

      // The variant chosen in the form's own select (no JavaScript on a product with options): 'Signed up!'.
      const mug = await post({
        productId: 'mug',
        variantId: 'MUG-SLATE',
        siteVisitorEmail: 'hedy@example.com',
        isJoinMailingList: 'true',
      });
      expect(mug.statusCode).toBe(200);
      expect(mug.body).toContain('<p class="restock__success" role="status" tabindex="-1">Signed up!</p>');
      expect(await getDb().selectFrom('mailing_list').select('email').execute()).toEqual([
        { email: 'hedy@example.com' },
      ]);

      // Without the crumb, the browser's word that the form is this site's own is enough; with neither, refused.
      const noCrumb = await post({ siteVisitorEmail: 'x@example.com' }, null);
      expect(noCrumb.statusCode).toBe(403);
      const sameOrigin = await plainInject({
        method: 'POST',
        url: '/restock/sign-up',
        headers: {
          host: SHOP_HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
        },
        payload: new URLSearchParams({
          productId: 'print',
          variantId: 'PRINT',
          siteVisitorEmail: 'ada@example.com',
        }).toString(),
      });
      expect(sameOrigin.statusCode).toBe(200);
      expect((await signUps('PRINT')).map((r) => r.email).sort()).toEqual(['ada@example.com', 'grace@example.com']);
      expect((await post({ productId: 'nope', siteVisitorEmail: 'x@example.com' })).statusCode).toBe(404);
      expect(await signUps('PRINT')).toHaveLength(2);
    });
  });

  describe('sending', () => {
    it('an import that restocks is recorded; a send e-mails as many as units, oldest first, each with its links', async () => {
      await signUpAll(emails(5));
      expect(await restockVariant('MUG-SAGE')).toMatchObject({ restocked_at: null, auto_send_pending: 0 });
      // Sold out: nothing to send yet.
      const none = await sendRestockNotifications(getDb(), shop, { productId: 'mug', variantId: 'MUG-SAGE' });
      expect(none.ok && none.value).toMatchObject({ sent: 0, waiting: 5, qtyInStock: 0 });

      await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 3 }));
      expect(await restockVariant('MUG-SAGE')).toMatchObject({
        restock_source: 'import',
        restocked_qty: 3,
        auto_send_pending: 1,
      });
      expect((await restockVariant('MUG-SAGE'))?.restocked_at).not.toBeNull();

      const progress: number[] = [];
      const sent = await sendRestockNotifications(
        getDb(),
        shop,
        { productId: 'mug', variantId: 'MUG-SAGE' },
        { batchSize: 2, onProgress: (n) => progress.push(n) },
      );
      expect(sent.ok && sent.value).toMatchObject({ sent: 3, waiting: 2, qtyInStock: 3, emails: emails(3) });
      expect(progress).toEqual([2, 3]);
      const mail = await restockMail();
      expect(mail.map((m) => m.to_address).sort()).toEqual(emails(3));
      const first = mail[0]!;
      expect(first.subject).toBe('Back in stock: Speckled mug (Sage) — Shop');
      expect(first.text_body).toContain('Get it here: http://shop.test/shop/p/mug');
      expect(first.text_body).toMatch(/http:\/\/shop\.test\/restock\/unsubscribe\?token=[A-Za-z0-9_-]{43}/);
      expect(first.html_body).toContain('<a href="http://shop.test/shop/p/mug" style="color:#0b57d0">Get it here</a>');
      expect(await restockVariant('MUG-SAGE')).toMatchObject({ auto_send_pending: 0 });

      // Sent again with the same stock: those units are spoken for.
      const again = await sendRestockNotifications(getDb(), shop, { productId: 'mug', variantId: 'MUG-SAGE' });
      expect(again.ok && again.value).toMatchObject({ sent: 0, waiting: 2 });
      // More units (3 → 4, not a restock from 0): one more shopper.
      await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 4 }));
      const more = await sendRestockNotifications(getDb(), shop, { productId: 'mug', variantId: 'MUG-SAGE' });
      expect(more.ok && more.value.emails).toEqual(['shopper4@example.com']);
      // Told to send to all: the rest, whatever the stock.
      const all = await sendRestockNotifications(
        getDb(),
        shop,
        { productId: 'mug', variantId: 'MUG-SAGE' },
        { all: true },
      );
      expect(all.ok && all.value).toMatchObject({ sent: 1, waiting: 0, emails: ['shopper5@example.com'] });
      expect(await restockMail()).toHaveLength(5);

      const unknown = await sendRestockNotifications(getDb(), shop, { productId: 'mug', variantId: 'MUG-GOLD' });
      expect(unknown).toEqual({
        ok: false,
        error: { kind: 'not-found', message: "The product 'mug' has no variant 'MUG-GOLD'." },
      });
    });

    it('a shopper e-mailed for one restock who signs up again waits at the end of the line', async () => {
      await signUpAll(['a@example.com', 'b@example.com'], 'MUG-SLATE');
      await seedSite(getDb(), withStock(restockSite, { 'MUG-SLATE': 1 }));
      const sent = await sendRestockNotifications(getDb(), shop, { productId: 'mug', variantId: 'MUG-SLATE' });
      expect(sent.ok && sent.value.emails).toEqual(['a@example.com']);
      await seedSite(getDb(), withStock(restockSite, { 'MUG-SLATE': 0 }));
      await signUpAll(['a@example.com'], 'MUG-SLATE');
      expect((await signUps('MUG-SLATE')).map((r) => [r.email, r.notified_at])).toEqual([
        ['b@example.com', null],
        ['a@example.com', null],
      ]);
    });

    it('two, four sends at once e-mail each shopper once, and no more shoppers than units', async () => {
      await signUpAll(emails(10), 'MUG-SAGE');
      await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 4 }));
      const target = { productId: 'mug', variantId: 'MUG-SAGE' };
      const results = await Promise.all(
        Array.from({ length: 4 }, () => sendRestockNotifications(getDb(), shop, target, { batchSize: 1 })),
      );
      const sent = results.flatMap((r) => (r.ok ? r.value.emails : []));
      expect(sent.sort()).toEqual(emails(4).sort());
      const everyone = await Promise.all([
        sendRestockNotifications(getDb(), shop, target, { all: true, batchSize: 2 }),
        sendRestockNotifications(getDb(), shop, target, { all: true, batchSize: 3 }),
      ]);
      const rest = everyone.flatMap((r) => (r.ok ? r.value.emails : []));
      expect(rest.sort()).toEqual(emails(10).slice(4).sort());
      const mail = await restockMail();
      expect(mail.map((m) => m.to_address).sort()).toEqual(emails(10).sort());
      expect(new Set(mail.map((m) => m.to_address)).size).toBe(10);
    });

    it(
      'two processes sending at once e-mail each shopper once, and only as many as units',
      { timeout: 120_000 },
      async () => {
        await signUpAll(emails(8, 'proc'), 'MUG-SAGE');
        await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 5 }));
        const start = () => {
          const child = spawn(TSX, [SEND_PROCESS, getFresh().url, 'shop', 'mug', 'MUG-SAGE'], {
            stdio: ['pipe', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
          const ready = new Promise<void>((done, fail) => {
            const check = setInterval(() => out.includes('ready') && (clearInterval(check), done()), 20);
            child.on(
              'exit',
              (code) => (
                clearInterval(check),
                fail(new Error(`send process exited (${code}) before it was ready: ${err}`))
              ),
            );
          });
          const finished = new Promise<string[]>((done, fail) =>
            child.on('exit', (code) => {
              if (code !== 0) return fail(new Error(`send process exited with ${code}: ${err}`));
              done((JSON.parse(out.split('\n').find((l) => l.startsWith('{')) ?? '{}') as { sent: string[] }).sent);
            }),
          );
          return { child, ready, finished };
        };
        const processes = [start(), start()];
        await Promise.all(processes.map((p) => p.ready));
        for (const p of processes) p.child.stdin.end('go\n');
        const [a, b] = await Promise.all(processes.map((p) => p.finished));
        expect([...a!, ...b!].sort()).toEqual(emails(5, 'proc').sort());
        expect((await restockMail()).map((m) => m.to_address).sort()).toEqual(emails(5, 'proc').sort());
      },
    );

    it('a refund that puts units back is a restock; the automatic send e-mails where the site asks, and only says so elsewhere', async () => {
      // Buy the one of a kind print (stock 1 → 0), then sign up for it.
      const add = await app.inject({
        method: 'POST',
        url: '/api/commerce/shopping-cart/entries',
        headers: { host: SHOP_HOST, 'content-type': 'application/json' },
        payload: JSON.stringify({ itemId: 'one-of-a-kind', sku: 'ooak-1', quantity: 1 }),
      });
      expect(add.statusCode, add.body).toBe(200);
      const cookie = `CART=${add.cookies.find((c) => c.name === 'CART')!.value}`;
      const order = await app.inject({
        method: 'POST',
        url: '/api/commerce/checkout/orders',
        headers: { host: SHOP_HOST, 'content-type': 'application/json', cookie },
        payload: JSON.stringify({
          idempotencyKey: `restock-${engine}-${Date.now()}`,
          payment: TEST_CARD,
          email: 'buyer@example.com',
          shippingAddress: NEW_YORK,
          shippingOptionId: 'standard',
        }),
      });
      expect(order.statusCode, order.body).toBe(201);
      await signUpAll(['late@example.com', 'later@example.com'], 'ooak-1', 'one-of-a-kind');
      await getDb().deleteFrom('outbox').execute();

      // The site sends by hand: the job looks, says how many wait, sends nothing.
      const number = (order.json() as { order: { number: number } }).order.number;
      const refunded = await refundOrder(
        getDb(),
        'shop',
        number,
        paymentProviderFor({ provider: 'test', manualInstructions: '' }, {}),
      );
      expect(refunded.ok).toBe(true);
      expect(await restockVariant('ooak-1')).toMatchObject({
        restock_source: 'refund',
        restocked_qty: 1,
        auto_send_pending: 1,
      });
      expect(await runRestockAutoSend(getDb())).toEqual([
        { siteId: 'shop', productId: 'one-of-a-kind', variantId: 'ooak-1', action: 'left', sent: 0, waiting: 2 },
      ]);
      expect(await restockMail()).toEqual([]);
      expect(await runRestockAutoSend(getDb())).toEqual([]);

      // A site with the automatic send on: the import that restocks is followed by the e-mails (as many as units).
      await signUpAll(emails(3, 'auto'), 'MUG-SAGE');
      await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 2 }, { autoSend: true }));
      expect(await runRestockAutoSend(getDb())).toEqual([
        { siteId: 'shop', productId: 'mug', variantId: 'MUG-SAGE', action: 'sent', sent: 2, waiting: 1 },
      ]);
      expect((await restockMail()).map((m) => m.to_address).sort()).toEqual(emails(2, 'auto'));
      expect(await runRestockAutoSend(getDb())).toEqual([]);
    });
  });

  describe('unsubscribing', () => {
    it('the e-mail’s link shows a button (opening it removes nothing); confirming removes the sign-up, once', async () => {
      await signUpAll(['una@example.com'], 'PRINT', 'print');
      await seedSite(getDb(), withStock(restockSite, { PRINT: 1 }));
      await sendRestockNotifications(getDb(), shop, { productId: 'print', variantId: 'PRINT' });
      const [mail] = await restockMail();
      const link = new URL(/http:\/\/shop\.test\/restock\/unsubscribe\?token=[A-Za-z0-9_-]+/.exec(mail!.text_body)![0]);
      const token = link.searchParams.get('token')!;

      const shown = await app.inject({
        method: 'GET',
        url: link.pathname + link.search,
        headers: { host: SHOP_HOST, accept: 'text/html' },
      });
      expect(shown.statusCode).toBe(200);
      expect(withoutMarkers(shown.body)).toContain(
        'una@example.com is signed up to hear when Harbour print is back in stock at Shop.',
      );
      expect(shown.body).toContain('Remove my sign-up</button>');
      expect(await signUps('PRINT')).toHaveLength(1);

      const remove = (crumb: string | null) =>
        plainInject({
          method: 'POST',
          url: '/restock/unsubscribe',
          headers: {
            host: SHOP_HOST,
            accept: 'text/html',
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
          },
          payload: new URLSearchParams({ token, ...(crumb ? { crumb } : {}) }).toString(),
        });
      expect((await remove(null)).statusCode).toBe(403);
      expect(await signUps('PRINT')).toHaveLength(1);
      const removed = await remove(TEST_CRUMB);
      expect(removed.statusCode).toBe(200);
      expect(withoutMarkers(removed.body)).toContain('una@example.com is no longer signed up for Harbour print.');
      expect(await signUps('PRINT')).toEqual([]);
      const twice = await remove(TEST_CRUMB);
      expect(twice.statusCode).toBe(404);
      expect(twice.body).toContain('This link is not valid');
      for (const bad of ['', 'short', 'x'.repeat(43)]) {
        expect(
          (await app.inject({ method: 'GET', url: `/restock/unsubscribe?token=${bad}`, headers: { host: SHOP_HOST } }))
            .statusCode,
        ).toBe(404);
      }
    });
  });

  describe('the account area (§7)', () => {
    const get = (url: string, cookie?: string) =>
      app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
    const post = (url: string, body: unknown, cookie?: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(body),
      });

    it('needs a signed-in admin or store manager', async () => {
      expect((await get(`${ACCOUNT_API}/groups`)).statusCode).toBe(401);
      expect((await get(`${ACCOUNT_API}/groups`)).json()).toMatchObject({ code: 'sign-in-required' });
      const viewer = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
      const refused = await get(`${ACCOUNT_API}/groups`, viewer);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'role-not-allowed' });
      expect((await post(`${ACCOUNT_API}/send`, { productId: 'mug', variantId: 'MUG-SAGE' }, viewer)).statusCode).toBe(
        403,
      );
      for (const role of [ContributorRole.ADMIN, ContributorRole.STORE_MANAGER]) {
        expect((await get(`${ACCOUNT_API}/groups`, await signInAs(app, getDb(), SHOP_HOST, role))).statusCode).toBe(
          200,
        );
      }
    });

    it("signs a signed-in site user of any role up with their account's e-mail, under the shopper's rules", async () => {
      const payload = { productId: 'mug', variantId: 'MUG-SAGE', language: 'en-GB' };
      expect((await post(ACCOUNT_API, payload)).json()).toMatchObject({ code: 'sign-in-required' });
      const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER, 'Viewer@Example.com');
      const cookie = await signIn(app, SHOP_HOST, user.email);
      const signedUp = await post(ACCOUNT_API, payload, cookie);
      expect(signedUp.statusCode).toBe(200);
      expect(signedUp.json()).toEqual({ signedUp: true });
      // Once per e-mail and variant: again changes nothing.
      expect((await post(ACCOUNT_API, payload, cookie)).statusCode).toBe(200);
      expect((await signUps('MUG-SAGE')).map((r) => r.email)).toEqual(['viewer@example.com']);
      // The shopper's refusals, and the body's: an unknown variant, a variant in stock, a bad language tag.
      expect((await post(ACCOUNT_API, { productId: 'mug', variantId: 'NOPE' }, cookie)).statusCode).toBe(404);
      expect((await post(ACCOUNT_API, { productId: 'bowl', variantId: 'BOWL' }, cookie)).statusCode).toBe(409);
      const badLanguage = await post(ACCOUNT_API, { ...payload, language: 'english please' }, cookie);
      expect(badLanguage.statusCode).toBe(400);
      expect(badLanguage.json().message).toContain('language must be a language tag');
    });

    it('lists groups and sign-ups page by page, following nextPageCursor until hasNextPage is false', async () => {
      const manager = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER);
      await signUpAll(emails(3, 'g'), 'MUG-SAGE');
      await signUpAll(['s@example.com'], 'MUG-SLATE');
      await signUpAll(['p@example.com'], 'PRINT', 'print');

      const groups = await get(`${ACCOUNT_API}/groups`, manager);
      expect(groups.statusCode).toBe(200);
      expect(groups.json()).toEqual({
        signUpGroups: [
          {
            productId: 'mug',
            variantId: 'MUG-SAGE',
            productName: 'Speckled mug',
            variantLabel: 'Sage',
            waitingCount: 3,
            notifiedCount: 0,
            qtyInStock: 0,
            restockedAt: null,
            restockSource: null,
          },
          {
            productId: 'mug',
            variantId: 'MUG-SLATE',
            productName: 'Speckled mug',
            variantLabel: 'Slate',
            waitingCount: 1,
            notifiedCount: 0,
            qtyInStock: 0,
            restockedAt: null,
            restockSource: null,
          },
          {
            productId: 'print',
            variantId: 'PRINT',
            productName: 'Harbour print',
            variantLabel: 'PRINT',
            waitingCount: 1,
            notifiedCount: 0,
            qtyInStock: 0,
            restockedAt: null,
            restockSource: null,
          },
        ],
        hasNextPage: false,
        nextPageCursor: null,
      });

      // Pages of 2 (the service's page size is a parameter; the API's is 50): stable while sign-ups arrive.
      const first = await listRestockSignUps(
        getDb(),
        'shop',
        { productId: 'mug', variantId: 'MUG-SAGE' },
        { pageSize: 2 },
      );
      expect(first.ok && first.value.signUps.map((s) => s.email)).toEqual(['g1@example.com', 'g2@example.com']);
      expect(first.ok && first.value.hasNextPage).toBe(true);
      await signUpAll(['g4@example.com'], 'MUG-SAGE');
      const second = await listRestockSignUps(
        getDb(),
        'shop',
        { productId: 'mug', variantId: 'MUG-SAGE' },
        { pageSize: 2, cursor: first.ok ? first.value.nextPageCursor! : '' },
      );
      expect(second.ok && second.value.signUps.map((s) => s.email)).toEqual(['g3@example.com', 'g4@example.com']);
      expect(second.ok && second.value).toMatchObject({ hasNextPage: false, nextPageCursor: null });
      const groupPage = await listRestockGroups(getDb(), 'shop', { pageSize: 2 });
      expect(groupPage.ok && groupPage.value.signUpGroups.map((g) => g.variantId)).toEqual(['MUG-SAGE', 'MUG-SLATE']);
      const groupRest = await listRestockGroups(getDb(), 'shop', {
        pageSize: 2,
        cursor: groupPage.ok ? groupPage.value.nextPageCursor! : '',
      });
      expect(groupRest.ok && groupRest.value.signUpGroups.map((g) => g.variantId)).toEqual(['PRINT']);

      // Through the API, following the cursor (60 sign-ups: two pages of 50 and 10).
      await getDb()
        .insertInto('restock_sign_ups')
        .values(
          Array.from({ length: 56 }, (_, i) => ({
            id: `bulk-${String(i).padStart(3, '0')}`,
            site_id: 'shop',
            product_id: 'mug',
            sku: 'MUG-SAGE',
            email: `bulk${i}@example.com`,
            joined_mailing_list: 0 as const,
            base_url: 'http://shop.test',
            created_at: new Date(Date.now() + 60_000 + i).toISOString(),
            notified_at: null,
            unsubscribe_token_hash: null,
          })),
        )
        .execute();
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer = await get(
          `${ACCOUNT_API}?productId=mug&variantId=MUG-SAGE${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          manager,
        );
        expect(answer.statusCode, answer.body).toBe(200);
        const body = answer.json() as {
          signUps: { email: string }[];
          hasNextPage: boolean;
          nextPageCursor: string | null;
        };
        seen.push(...body.signUps.map((s) => s.email));
        cursor = body.hasNextPage ? body.nextPageCursor : null;
        pages++;
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);

      for (const [url, field] of [
        [`${ACCOUNT_API}/groups?cursor=nonsense`, 'cursor'],
        [`${ACCOUNT_API}/groups?cursor=${first.ok ? first.value.nextPageCursor : ''}`, 'cursor'],
        [`${ACCOUNT_API}?variantId=MUG-SAGE`, 'productId'],
        [`${ACCOUNT_API}?productId=mug&variantId=a%20b`, 'variantId'],
        [`${ACCOUNT_API}?productId=mug&productId=cup&variantId=MUG-SAGE`, 'productId'],
      ] as const) {
        const answer = await get(url, manager);
        expect(answer.statusCode, url).toBe(400);
        expect(answer.json(), url).toMatchObject({ code: 'invalid-input', field });
      }
    });

    it('sends one variant or several, as many as units each', async () => {
      const admin = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.ADMIN);
      await signUpAll(emails(3, 'x'), 'MUG-SAGE');
      await signUpAll(emails(2, 'y'), 'MUG-SLATE');
      await seedSite(getDb(), withStock(restockSite, { 'MUG-SAGE': 2, 'MUG-SLATE': 5 }));
      const one = await post(`${ACCOUNT_API}/send`, { productId: 'mug', variantId: 'MUG-SAGE' }, admin);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toEqual({ productId: 'mug', variantId: 'MUG-SAGE', sent: 2, waiting: 1, qtyInStock: 2 });
      const bulk = await post(
        `${ACCOUNT_API}/send/all`,
        {
          sendRequests: [
            { productId: 'mug', variantId: 'MUG-SAGE' },
            { productId: 'mug', variantId: 'MUG-SLATE' },
          ],
        },
        admin,
      );
      expect(bulk.statusCode, bulk.body).toBe(200);
      expect(bulk.json()).toEqual({
        results: [
          { productId: 'mug', variantId: 'MUG-SAGE', sent: 0, waiting: 1, qtyInStock: 2 },
          { productId: 'mug', variantId: 'MUG-SLATE', sent: 2, waiting: 0, qtyInStock: 5 },
        ],
        sent: 2,
      });
      expect(await restockMail()).toHaveLength(4);

      const refusals: [string, unknown, number, Record<string, unknown>][] = [
        [`${ACCOUNT_API}/send`, { productId: 'mug' }, 400, { field: 'variantId', message: 'variantId is required.' }],
        [
          `${ACCOUNT_API}/send`,
          { productId: 'mug', variantId: 'MUG-GOLD' },
          404,
          { message: "The product 'mug' has no variant 'MUG-GOLD'." },
        ],
        [`${ACCOUNT_API}/send/all`, { sendRequests: [] }, 400, { field: 'sendRequests' }],
        [
          `${ACCOUNT_API}/send/all`,
          {
            sendRequests: [
              { productId: 'mug', variantId: 'MUG-SAGE' },
              { productId: 'gone', variantId: 'X' },
            ],
          },
          404,
          { field: 'sendRequests.1.productId' },
        ],
        [`${ACCOUNT_API}/send/all`, [], 400, {}],
      ];
      for (const [url, body, status, expected] of refusals) {
        const answer = await post(url, body, admin);
        expect(answer.statusCode, JSON.stringify(body)).toBe(status);
        expect(answer.json()).toMatchObject(expected);
      }
      expect(await restockMail()).toHaveLength(4);
    });
  });
});
