/**
 * Site users on SQLite and PostgreSQL: the sign-in form (no JavaScript needed), wrong and missing details, the
 * session cookie (HttpOnly, stored only hashed, this site only, ended by signing out or by its expiry), the
 * return path (this site's paths only), the crumb, the per-account limit on tries, the roles check of the account
 * area (requireSiteUser), the census not tracking the shop's own staff (§6), and `vitrine users`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { STORE_ROLES } from '../../src/core/siteUserRoles';
import { buildApp } from '../../src/server/app';
import { ACCOUNT_TRIES, SIGN_IN_MESSAGES } from '../../src/modules/siteUsers/pages';
import { analyticsRecorderOf } from '../../src/modules/analytics/routes';
import { requireSiteUser, SITE_USER_COOKIE } from '../../src/modules/siteUsers/siteUserSession';
import { hashPassword, needsRehash, verifyPassword } from '../../src/modules/siteUsers/passwords';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { otherSite, OTHER_HOST } from '../support/cartSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { vitrine } from '../support/cli';
import { addSiteUser, signIn, signInAs, TEST_PASSWORD } from '../support/siteUsers';

describe('site users: passwords', () => {
  it('are kept as scrypt hashes with their parameters, verified only by the right password', async () => {
    const hash = await hashPassword('open sesame 123');
    expect(hash).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('open sesame');
    expect(await verifyPassword('open sesame 123', hash)).toBe(true);
    expect(await verifyPassword('open sesame 124', hash)).toBe(false);
    expect(await hashPassword('open sesame 123')).not.toBe(hash);
    expect(needsRehash(hash)).toBe(false);
    for (const garbage of ['', 'plain', 'scrypt$99$8$1$a$b', 'scrypt$15$8$1$AAAA$short', 'bcrypt$x$y$z$a$b']) {
      expect(await verifyPassword('x', garbage)).toBe(false);
    }
  });
});

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  const form = (cookie = `${CRUMB_COOKIE}=${TEST_CRUMB}`) => ({
    host: SHOP_HOST,
    'content-type': 'application/x-www-form-urlencoded',
    cookie,
  });
  const postSignIn = (fields: Record<string, string>, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: '/account/sign-in',
      headers: form(cookie),
      payload: new URLSearchParams({ [CRUMB_FIELD]: TEST_CRUMB, ...fields }).toString(),
    });
  const get = (url: string, cookie?: string, host = SHOP_HOST) =>
    app.inject({ method: 'GET', url, headers: { host, ...(cookie ? { cookie } : {}) } });

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    await seedSite(getDb(), otherSite);
    app = await buildApp({
      db: getDb(),
      engine,
      cartRateLimitPerMinute: 1_000_000,
      accountRoutes: { signInsPerMinute: 1_000_000 },
    });
    // A route of the account area as the restock calls use it: store roles only.
    app.get('/api/site-users/account/test-only', async (request) => ({
      email: (await requireSiteUser(request, STORE_ROLES)).email,
    }));
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await getDb().deleteFrom('site_user_sessions').execute();
    await getDb().deleteFrom('site_users').execute();
  });

  describe('the sign-in form', () => {
    it('is a plain form with labelled fields, the crumb and the return path', async () => {
      const page = await get('/account/sign-in?next=/shop');
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('action="/account/sign-in" method="post"');
      expect(page.body).toContain('<label for="sign-in-email">E-mail</label>');
      expect(page.body).toMatch(
        /<input id="sign-in-password" type="password" autocomplete="current-password" required=""/i,
      );
      expect(page.body).toMatch(/name="crumb" value="[A-Za-z0-9_-]{22}"/);
      expect(page.body).toContain('name="next" value="/shop"');
    });

    it('signs in: a 303 to the return path with an HttpOnly, SameSite=Lax session cookie whose token is stored only hashed', async () => {
      const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER, 'Manager@Example.com');
      const answer = await postSignIn({ email: ' manager@example.com ', password: TEST_PASSWORD, next: '/shop' });
      expect(answer.statusCode, answer.body).toBe(303);
      expect(answer.headers.location).toBe('/shop');
      const cookie = answer.cookies.find((c) => c.name === SITE_USER_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.maxAge).toBe(14 * 24 * 60 * 60);
      const [row] = await getDb().selectFrom('site_user_sessions').selectAll().execute();
      expect(row!.site_user_id).toBe(user.id);
      expect(row!.token_hash).toBe(createHash('sha256').update(cookie.value).digest('hex'));
      const account = await get('/account', `${SITE_USER_COOKIE}=${cookie.value}`);
      expect(account.statusCode).toBe(200);
      expect(account.body.replaceAll('<!-- -->', '')).toContain(
        'Signed in as <strong>manager@example.com</strong> (store-manager).',
      );
    });

    it('refuses a wrong password and an unknown e-mail with the same text (401), keeping the e-mail typed', async () => {
      await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN, 'owner@example.com');
      for (const fields of [
        { email: 'owner@example.com', password: 'not the password' },
        { email: 'nobody@example.com', password: TEST_PASSWORD },
      ]) {
        const answer = await postSignIn(fields);
        expect(answer.statusCode).toBe(401);
        expect(answer.body).toContain(
          `<p class="form-error" role="alert" id="sign-in-error">${SIGN_IN_MESSAGES.wrong}</p>`,
        );
        expect(answer.body).toContain(`value="${fields.email}"`);
        expect(answer.cookies.find((c) => c.name === SITE_USER_COOKIE)).toBeUndefined();
      }
      expect(await getDb().selectFrom('site_user_sessions').selectAll().execute()).toEqual([]);
    });

    it('asks for both fields (400) and never answers 500 to odd bodies', async () => {
      expect((await postSignIn({ email: '', password: '' })).body).toContain(SIGN_IN_MESSAGES.missing);
      expect((await postSignIn({ email: 'a@b.co' })).statusCode).toBe(400);
      const huge = await postSignIn({ email: 'a@b.co', password: 'x'.repeat(5000) });
      expect(huge.statusCode).toBe(401);
      const json = await app.inject({
        method: 'POST',
        url: '/account/sign-in',
        headers: { ...form(), 'content-type': 'application/json', 'x-csrf-token': TEST_CRUMB },
        payload: '{"email":["a"],"password":{}}',
      });
      expect(json.statusCode).toBe(400);
      const tooBig = await postSignIn({ email: 'a@b.co', password: 'x', filler: 'y'.repeat(20_000) });
      expect(tooBig.statusCode).toBe(413);
    });

    it('returns only to a path of this site', async () => {
      const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN);
      for (const next of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', '']) {
        const answer = await postSignIn({ email: user.email, password: TEST_PASSWORD, next });
        expect(answer.headers.location, next).toBe('/account');
      }
    });

    it('needs the crumb', async () => {
      const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN);
      const answer = await app.inject({
        method: 'POST',
        url: '/account/sign-in',
        headers: form(''),
        payload: new URLSearchParams({ email: user.email, password: TEST_PASSWORD }).toString(),
      });
      expect(answer.statusCode).toBe(403);
      expect(answer.body).toContain('Your session has expired. Please reload the page and try again.');
    });

    it(`allows ${ACCOUNT_TRIES} tries per account in 15 minutes, then answers 429 with Retry-After, even with the right password`, async () => {
      const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN, `tries-${engine}@example.com`);
      for (let i = 0; i < ACCOUNT_TRIES; i++)
        expect((await postSignIn({ email: user.email, password: 'wrong guess' })).statusCode).toBe(401);
      const blocked = await postSignIn({ email: user.email.toUpperCase(), password: TEST_PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
      expect(blocked.body).toContain(SIGN_IN_MESSAGES.tooMany);
    });
  });

  describe('the session', () => {
    it('sends a visitor who is not signed in from /account to the sign-in, and back', async () => {
      const answer = await get('/account');
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe('/account/sign-in?next=%2Faccount');
    });

    it('belongs to its site only, and ends on signing out', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.ADMIN);
      expect((await get('/account', cookie)).statusCode).toBe(200);
      expect((await get('/account', cookie, OTHER_HOST)).statusCode).toBe(303);
      const out = await app.inject({
        method: 'POST',
        url: '/account/sign-out',
        headers: { ...form(cookie) },
        payload: `${CRUMB_FIELD}=${TEST_CRUMB}`,
      });
      expect(out.statusCode).toBe(303);
      expect(out.cookies.find((c) => c.name === SITE_USER_COOKIE)?.value).toBe('');
      expect((await get('/account', cookie)).statusCode).toBe(303);
      expect(await getDb().selectFrom('site_user_sessions').selectAll().execute()).toEqual([]);
    });

    it('is refused once expired, and a forged or malformed cookie is nobody', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.ADMIN);
      await getDb()
        .updateTable('site_user_sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      expect((await get('/account', cookie)).statusCode).toBe(303);
      for (const forged of ['x', 'A'.repeat(43), '../../etc', 'é'.repeat(43)]) {
        expect((await get('/account', `${SITE_USER_COOKIE}=${encodeURIComponent(forged)}`)).statusCode).toBe(303);
      }
    });

    it('opens the account area to the roles it names: 401 nobody, 403 another role, 200 a store manager or admin', async () => {
      const url = '/api/site-users/account/test-only';
      const nobody = await get(url);
      expect(nobody.statusCode).toBe(401);
      expect(nobody.json()).toMatchObject({
        code: 'sign-in-required',
        message: 'Please sign in to your account to do this.',
      });
      const editor = await get(url, await signInAs(app, getDb(), SHOP_HOST, ContributorRole.EDITOR));
      expect(editor.statusCode).toBe(403);
      expect(editor.json().message).toBe(
        'Your account (editor) may not do this; it needs one of these roles: admin, store-manager.',
      );
      for (const role of STORE_ROLES)
        expect((await get(url, await signInAs(app, getDb(), SHOP_HOST, role))).statusCode).toBe(200);
    });
  });

  describe('the census (§6)', () => {
    const hit = (cookie?: string) =>
      app.inject({
        method: 'POST',
        url: '/api/census/RecordHit',
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          ...(cookie ? { cookie } : {}),
        },
        payload: new URLSearchParams({ event: 'RecordHit', data: JSON.stringify({ pagePath: '/shop' }) }).toString(),
      });

    it('does not track signed-in staff (owners, editors, store managers), but counts viewers as visitors', async () => {
      const flush = () => analyticsRecorderOf(app)!.buffer.flush();
      await flush();
      await getDb().deleteFrom('analytics_events').execute();
      for (const role of [ContributorRole.ADMIN, ContributorRole.EDITOR, ContributorRole.STORE_MANAGER]) {
        expect((await hit(await signInAs(app, getDb(), SHOP_HOST, role))).statusCode).toBe(202);
      }
      await flush();
      expect(await getDb().selectFrom('analytics_events').selectAll().execute()).toHaveLength(0);
      expect((await hit(await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER))).statusCode).toBe(202);
      expect((await hit()).statusCode).toBe(202);
      await flush();
      expect(await getDb().selectFrom('analytics_events').selectAll().execute()).toHaveLength(2);
    });
  });

  describe('vitrine users', () => {
    const run = (...args: string[]) => vitrine(args, getFresh().url);

    it('adds a user with the password from VITRINE_USER_PASSWORD, who can then sign in; lists and removes them', async () => {
      process.env.VITRINE_USER_PASSWORD = TEST_PASSWORD;
      try {
        const added = await run(
          'users',
          'add',
          '--email',
          'Clerk@Example.com',
          '--role',
          'store-manager',
          '--site',
          'shop',
        );
        expect(added.err).toEqual([]);
        expect(added.code).toBe(0);
        expect(added.out).toEqual([
          'Added clerk@example.com (store-manager) to site shop. They sign in at /account/sign-in.',
        ]);
      } finally {
        delete process.env.VITRINE_USER_PASSWORD;
      }
      const cookie = await signIn(app, SHOP_HOST, 'clerk@example.com');
      expect((await get('/account', cookie)).body).toContain('clerk@example.com');
      const listed = await run('users', '--site', 'shop');
      expect(listed.out[0]).toMatch(/^E-MAIL\s+ROLE\s+SITE\s+ADDED \(UTC\)$/);
      expect(listed.out[1]).toMatch(/^clerk@example\.com\s+store-manager\s+shop\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      const removed = await run('users', 'remove', '--email', 'clerk@example.com', '--site', 'shop');
      expect(removed.out).toEqual(['Removed clerk@example.com from site shop; their sessions are ended.']);
      expect((await get('/account', cookie)).statusCode).toBe(303);
    });

    it('makes a strong password and prints it once when none is given', async () => {
      const added = await run('users', 'add', '--email', 'viewer@example.com', '--role', 'viewer', '--site', 'shop');
      expect(added.code).toBe(0);
      const password = /^Password \(shown once, pass it on safely\): ([A-Za-z0-9_-]{20})$/.exec(
        added.out[1] ?? '',
      )?.[1];
      expect(password).toBeDefined();
      const [row] = await getDb().selectFrom('site_users').select('password_hash').execute();
      expect(row!.password_hash).not.toContain(password!);
      expect(await verifyPassword(password!, row!.password_hash)).toBe(true);
    });

    it('refuses wrong usage clearly and stores nothing', async () => {
      const cases: [string[], number, string][] = [
        [
          ['users', 'add', '--email', 'a@b.co'],
          2,
          "vitrine: 'users add' needs --role (one of admin, billing, reporting, editor, moderator, commenter, store-manager, scheduling, viewer, campaigns-editor, scheduling-viewer, scheduling-editor, none, website-manager, draft-editor). Run 'vitrine help' for usage.",
        ],
        [
          ['users', 'add', '--email', 'a@b.co', '--role', 'boss'],
          2,
          "vitrine: option '--role' must be one of admin, billing, reporting, editor, moderator, commenter, store-manager, scheduling, viewer, campaigns-editor, scheduling-viewer, scheduling-editor, none, website-manager, draft-editor, not 'boss'. Run 'vitrine help' for usage.",
        ],
        [['users', 'add', '--role', 'admin'], 2, "vitrine: 'users add' needs --email. Run 'vitrine help' for usage."],
        [
          ['users', 'add', '--email', 'not-an-email', '--role', 'admin', '--site', 'shop'],
          1,
          "vitrine: 'not-an-email' is not an e-mail address",
        ],
        [
          ['users', 'add', '--email', 'a@b.co', '--role', 'admin', '--site', 'nope'],
          1,
          "vitrine: there is no site 'nope' in the database",
        ],
        [
          ['users', 'remove', '--email', 'ghost@b.co', '--site', 'shop'],
          1,
          'vitrine: ghost@b.co is not a user of site shop',
        ],
        [
          ['users', 'promote'],
          2,
          "vitrine: unknown users command 'promote' (use 'vitrine users', 'vitrine users add', 'vitrine users remove', 'vitrine users invite', 'vitrine users role', 'vitrine users sessions' or 'vitrine users revoke'). Run 'vitrine help' for usage.",
        ],
      ];
      for (const [args, code, message] of cases) {
        const result = await run(...args);
        expect(result.code, args.join(' ')).toBe(code);
        expect(result.err, args.join(' ')).toEqual([message]);
      }
      process.env.VITRINE_USER_PASSWORD = 'short';
      try {
        const weak = await run('users', 'add', '--email', 'a@b.co', '--role', 'admin', '--site', 'shop');
        expect(weak.err).toEqual(['vitrine: the password must have at least 10 characters']);
      } finally {
        delete process.env.VITRINE_USER_PASSWORD;
      }
      await run('users', 'add', '--email', 'twice@b.co', '--role', 'admin', '--site', 'shop');
      const twice = await run('users', 'add', '--email', 'TWICE@b.co', '--role', 'viewer', '--site', 'shop');
      expect(twice.err).toEqual(['vitrine: twice@b.co is already a user of site shop']);
      expect(await getDb().selectFrom('site_users').select(['email', 'role']).execute()).toEqual([
        { email: 'twice@b.co', role: 1 },
      ]);
    });
  });
});
