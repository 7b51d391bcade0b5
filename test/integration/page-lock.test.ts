/**
 * Page types of §2 on both engines: password-protected pages (lock screen 103 → protected content 105) through the
 * real import, page route and POST /unlock-page — the lock screen, a wrong and a missing password, the right one
 * (303 and the page's cookie), cookies of another page, forged or of a changed password, the page cache and the fast
 * path never holding a protected page, search not finding its text, the crumb and the rate limit — and the error
 * page (101) when a page fails to render.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD } from '../../src/core/crumb';
import { PAGE_LOCK_MESSAGES, PAGE_LOCK_PATH, PAGE_UNLOCK_SECONDS, pageLockCookie } from '../../src/core/pageLock';
import { PageCache } from '../../src/render/pageCache';
import { ERROR_PAGE_TEXTS } from '../../src/render/pages/error';
import { buildApp } from '../../src/server/app';
import { NOT_A_LOCKED_PAGE_MESSAGE } from '../../src/modules/pageLocks';
import { findSiteByHost } from '../../src/modules/site/sites';
import { hashPassword } from '../../src/modules/siteUsers/passwords';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { seedSite } from '../support/cartSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const HOST = 'locked.test';
const PASSWORD = 'open sesame';
const TRADE_PASSWORD = 'trade secret 42';
const SECRET_TEXT = 'Kilntrade wholesale prices';

async function lockedSite(wholesalePassword = PASSWORD): Promise<SiteFileInput> {
  return {
    version: 1,
    website: { id: 'locked', title: 'Locked Studio', domains: [HOST], default: true, currency: 'USD' },
    collections: [{ id: 'journal', type: 'blog', title: 'Journal', slug: 'journal' }],
    pages: [
      { id: 'home', path: '/', title: 'Home', blocks: [{ type: 'text', text: 'Welcome to the studio.' }] },
      { id: 'about', path: '/about', title: 'About', blocks: [{ type: 'text', text: 'Open aboutword for everyone.' }] },
      {
        id: 'wholesale',
        path: '/wholesale',
        title: 'Wholesale',
        password: wholesalePassword,
        blocks: [
          { type: 'heading', text: 'Secretheading list' },
          { type: 'text', text: `${SECRET_TEXT}: 40 % off from 24 pieces.` },
        ],
      },
      // Kept as a hash, as a real site file should.
      {
        id: 'trade',
        path: '/trade',
        title: 'Trade',
        password: await hashPassword(TRADE_PASSWORD),
        blocks: [{ type: 'text', text: 'Tradeonly terms.' }],
      },
    ],
    posts: [
      {
        id: 'hello',
        collectionId: 'journal',
        slug: 'hello',
        title: 'Hello',
        publishedOn: '2026-05-01',
        body: 'First post.',
      },
    ],
  };
}

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: HOST, accept: 'text/html', ...(cookie ? { cookie } : {}) } });
  const unlock = (
    fields: Record<string, string>,
    headers: Record<string, string> = { origin: `http://${HOST}` },
    on = app,
  ) =>
    on.inject({
      method: 'POST',
      url: PAGE_LOCK_PATH,
      headers: { host: HOST, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  const cookieOf = async (path: string, password: string): Promise<string> => {
    const answer = await unlock({ path, password });
    expect(answer.statusCode, answer.body).toBe(303);
    const cookie = answer.cookies.find((c) => c.name === pageLockCookie(path.slice(1)))!;
    return `${cookie.name}=${cookie.value}`;
  };
  const pageType = (body: string) => /<body data-page-type="(\d+)"/.exec(body)?.[1];

  beforeAll(async () => {
    await seedSite(getDb(), await lockedSite());
    app = await buildApp({ db: getDb(), engine, pageLockRoutes: { triesPerWindow: 1000 } });
  });
  afterAll(async () => app?.close());

  describe('the lock screen (103)', () => {
    it("shows the page's title and a labelled password field, with 401, noindex, never stored — and nothing of the page", async () => {
      const page = await get('/wholesale');
      expect(page.statusCode).toBe(401);
      expect(pageType(page.body)).toBe('103');
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(page.body).toContain('<title>Wholesale — Locked Studio</title>');
      expect(page.body).toContain('<meta name="robots" content="noindex"');
      expect(page.body).toContain('id="page-lock-title">Wholesale</h1>');
      expect(page.body).toContain(`<label for="page-lock-password">${PAGE_LOCK_MESSAGES.label}</label>`);
      expect(page.body).toMatch(
        /<input id="page-lock-password" type="password" autoComplete="current-password" required="" maxLength="256" aria-describedby="page-lock-intro" name="password"\/>/,
      );
      expect(page.body).toContain(`action="${PAGE_LOCK_PATH}"`);
      expect(page.body).toContain('name="path" value="/wholesale"');
      expect(page.body).toMatch(new RegExp(`name="${CRUMB_FIELD}" value="[A-Za-z0-9_-]{22}"`));
      expect(page.body).toContain('class="site-header');
      for (const secret of [SECRET_TEXT, 'Kilntrade', 'Secretheading', PASSWORD])
        expect(page.body).not.toContain(secret);
      expect(page.body).not.toContain('rel="canonical"');
    });

    it('refuses a wrong password with the message beside the field (401), and a missing one (400)', async () => {
      const wrong = await unlock({ path: '/wholesale', password: 'open sesame!' });
      expect(wrong.statusCode).toBe(401);
      expect(pageType(wrong.body)).toBe('103');
      expect(wrong.headers['cache-control']).toBe('private, no-store');
      expect(wrong.cookies.some((c) => c.name === pageLockCookie('wholesale'))).toBe(false);
      expect(wrong.body).toContain(`id="page-lock-error" role="alert">${PAGE_LOCK_MESSAGES.wrong}</p>`);
      expect(wrong.body).toMatch(/aria-describedby="page-lock-error" aria-invalid="true"/);
      expect(wrong.body).not.toContain('Kilntrade');
      const missing = await unlock({ path: '/wholesale', password: '' });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain(PAGE_LOCK_MESSAGES.missing);
      // The trade page's hash is no password.
      expect((await unlock({ path: '/trade', password: 'scrypt$15$8$1$x$y' })).statusCode).toBe(401);
    });

    it('names what was wrong when the form names no protected page', async () => {
      for (const path of ['/about', '/nowhere', '', 'x'.repeat(600)]) {
        const answer = await unlock({ path, password: PASSWORD });
        expect(answer.statusCode).toBe(400);
        expect(answer.body).toContain('does not name a password-protected page');
      }
      const json = await app.inject({
        method: 'POST',
        url: PAGE_LOCK_PATH,
        headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'password=x',
      });
      expect(json.json()).toMatchObject({ code: 'invalid-input', message: NOT_A_LOCKED_PAGE_MESSAGE, field: 'path' });
    });

    it('answers odd bodies with the lock screen or a clear 400, never a 500', async () => {
      const post = (payload: string, type = 'application/x-www-form-urlencoded') =>
        app.inject({
          method: 'POST',
          url: PAGE_LOCK_PATH,
          headers: { host: HOST, origin: `http://${HOST}`, accept: 'text/html', 'content-type': type },
          payload,
        });
      expect((await post('path=/wholesale&password=a&password=b')).statusCode).toBe(400);
      expect((await post('path=/wholesale&path=/trade&password=x')).statusCode).toBe(400);
      expect((await post(`path=/wholesale&password=${'x'.repeat(300)}`)).statusCode).toBe(401);
      expect((await post(JSON.stringify({ path: '/wholesale', password: 42 }), 'application/json')).statusCode).toBe(
        400,
      );
      expect((await post(JSON.stringify([1, 2]), 'application/json')).statusCode).toBe(400);
      expect((await post('%%%')).statusCode).toBeLessThan(500);
      expect((await post('x', 'text/plain')).statusCode).toBe(400);
    });

    it('takes a post with the crumb or from this site, and refuses one from another website or with neither', async () => {
      const withCrumb = await unlock(
        { path: '/wholesale', password: PASSWORD, [CRUMB_FIELD]: TEST_CRUMB },
        { cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}` },
      );
      expect(withCrumb.statusCode).toBe(303);
      expect(
        (await unlock({ path: '/wholesale', password: PASSWORD }, { 'sec-fetch-site': 'same-origin' })).statusCode,
      ).toBe(303);
      expect(
        (await unlock({ path: '/wholesale', password: PASSWORD }, { origin: 'http://evil.example' })).statusCode,
      ).toBe(403);
      expect((await unlock({ path: '/wholesale', password: PASSWORD }, {})).statusCode).toBe(403);
    });
  });

  describe('the right password', () => {
    it('answers 303 to the page with an HttpOnly, SameSite=Lax cookie for that page only, which shows it (105)', async () => {
      const answer = await unlock({ path: '/wholesale', password: PASSWORD });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe('/wholesale');
      expect(answer.headers['cache-control']).toBe('no-store');
      const cookie = answer.cookies.find((c) => c.name === pageLockCookie('wholesale'))!;
      expect(cookie).toMatchObject({
        httpOnly: true,
        sameSite: 'Lax',
        path: '/wholesale',
        maxAge: PAGE_UNLOCK_SECONDS,
      });
      expect(cookie.secure).toBeFalsy();
      expect(cookie.value).not.toContain(PASSWORD);

      const page = await get('/wholesale', `${cookie.name}=${cookie.value}`);
      expect(page.statusCode).toBe(200);
      expect(pageType(page.body)).toBe('105');
      expect(page.body).toContain(SECRET_TEXT);
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(page.headers.etag).toBeUndefined();
      expect(page.body).toContain('<meta name="robots" content="noindex"');
      expect(page.body).not.toContain(PASSWORD);
    });

    it('opens a page whose password the site file keeps as a scrypt hash', async () => {
      const page = await get('/trade', await cookieOf('/trade', TRADE_PASSWORD));
      expect(pageType(page.body)).toBe('105');
      expect(page.body).toContain('Tradeonly terms.');
    });

    it("shows the lock screen for another page's cookie, a forged or expired one, and after the password changed", async () => {
      const wholesale = (await cookieOf('/wholesale', PASSWORD)).split('=')[1]!;
      const trade = (await cookieOf('/trade', TRADE_PASSWORD)).split('=')[1]!;
      const [expiresAt, signature] = wholesale.split('.') as [string, string];
      const forged = [
        trade,
        `${Number(expiresAt) + 60}.${signature}`,
        `${expiresAt}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
        `${Math.floor(Date.now() / 1000) - 1}.${signature}`,
        'garbage',
      ];
      for (const value of forged) {
        const page = await get('/wholesale', `${pageLockCookie('wholesale')}=${value}`);
        expect(page.statusCode).toBe(401);
        expect(page.body).not.toContain(SECRET_TEXT);
      }
      // The trade page's cookie does not open the wholesale page, nor the other way round.
      expect((await get('/trade', `${pageLockCookie('trade')}=${wholesale}`)).statusCode).toBe(401);

      // A new password (a new import) closes the page to the cookies given for the old one.
      const opened = `${pageLockCookie('wholesale')}=${wholesale}`;
      expect((await get('/wholesale', opened)).statusCode).toBe(200);
      await seedSite(getDb(), await lockedSite('a brand new one'));
      await new Promise((resolve) => setTimeout(resolve, 1100)); // the site cache's second
      expect((await get('/wholesale', opened)).statusCode).toBe(401);
      expect((await get('/wholesale', await cookieOf('/wholesale', 'a brand new one'))).statusCode).toBe(200);
      await seedSite(getDb(), await lockedSite());
      await new Promise((resolve) => setTimeout(resolve, 1100));
    });
  });

  describe('caches and search', () => {
    it('never keeps a protected page in the page cache, so no one without the cookie is given its content', async () => {
      const cookie = await cookieOf('/wholesale', PASSWORD);
      for (let i = 0; i < 3; i++) expect((await get('/wholesale', cookie)).statusCode).toBe(200);
      const site = (await findSiteByHost(getDb(), HOST))!;
      expect(app.pageCache.get(PageCache.key(site.id, site.version, '/wholesale'))).toBeUndefined();
      // An open page is kept (so the cache is on), the protected one is not.
      await get('/about');
      expect(app.pageCache.get(PageCache.key(site.id, site.version, '/about'))).toBeDefined();
      const stranger = await get('/wholesale');
      expect(stranger.statusCode).toBe(401);
      expect(stranger.body).not.toContain(SECRET_TEXT);
    });

    it('never answers a protected page from the fast path (real HTTP)', async () => {
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const cookie = await cookieOf('/wholesale', PASSWORD);
        const before = app.pageFastPath.answered;
        for (let i = 0; i < 2; i++) {
          const opened = await fetch(`${address}/wholesale`, { headers: { host: HOST, cookie } });
          expect(opened.status).toBe(200);
          await opened.text();
        }
        const stranger = await fetch(`${address}/wholesale`, { headers: { host: HOST } });
        expect(stranger.status).toBe(401);
        expect(await stranger.text()).not.toContain(SECRET_TEXT);
        expect(app.pageFastPath.answered).toBe(before);
      } finally {
        await app.close();
        app = await buildApp({ db: getDb(), engine, pageLockRoutes: { triesPerWindow: 1000 } });
      }
    });

    it("finds open pages' text and nothing of a protected page (the menu may still list its title)", async () => {
      const results = async (word: string) => {
        const answer = await get(`/search?q=${word}`);
        expect(answer.statusCode).toBe(200);
        return answer.body.slice(answer.body.indexOf('<main'));
      };
      expect(await results('aboutword')).toContain('href="/about"');
      for (const word of ['kilntrade', 'secretheading', 'wholesale', 'tradeonly']) {
        const found = await results(word);
        expect(found).toContain('No results for');
        expect(found).not.toContain('href="/wholesale"');
        expect(found).not.toContain('href="/trade"');
        expect(found).not.toContain('Kilntrade');
      }
    });
  });

  describe('the limit on tries', () => {
    it('answers 429 with Retry-After past the tries a client has, and sets Secure cookies on https', async () => {
      const limited = await buildApp({
        db: getDb(),
        engine,
        pageLockRoutes: { triesPerWindow: 3 },
        secureCookies: true,
      });
      try {
        const first = await unlock({ path: '/wholesale', password: PASSWORD }, { origin: `http://${HOST}` }, limited);
        expect(first.cookies.find((c) => c.name === pageLockCookie('wholesale'))?.secure).toBe(true);
        for (let i = 0; i < 2; i++)
          expect((await unlock({ path: '/wholesale', password: 'nope' }, undefined, limited)).statusCode).toBe(401);
        const refused = await unlock({ path: '/wholesale', password: PASSWORD }, undefined, limited);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(pageType(refused.body)).toBe('103');
        expect(refused.body).toContain(PAGE_LOCK_MESSAGES.tooMany);
        expect(refused.cookies.some((c) => c.name === pageLockCookie('wholesale'))).toBe(false);
      } finally {
        await limited.close();
      }
    });
  });

  describe('the error page (101)', () => {
    it('shows a page of the site with 500 when a page fails to render, never a bare error, never cached', async () => {
      await sql`ALTER TABLE posts RENAME TO posts_away`.execute(getDb());
      try {
        for (let i = 0; i < 2; i++) {
          const page = await get('/journal');
          expect(page.statusCode).toBe(500);
          expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(page.headers['cache-control']).toBe('no-store');
          expect(pageType(page.body)).toBe('101');
          expect(page.body).toContain('class="site-header');
          expect(page.body).toContain(`<h1>${ERROR_PAGE_TEXTS.title}</h1>`);
          expect(page.body).toContain(ERROR_PAGE_TEXTS.body);
          expect(page.body).toContain('href="/"');
          expect(page.body).not.toMatch(/posts_away|no such table|does not exist|stack/i);
          expect(page.headers['content-security-policy']).toBeDefined();
        }
      } finally {
        await sql`ALTER TABLE posts_away RENAME TO posts`.execute(getDb());
      }
      const site = (await findSiteByHost(getDb(), HOST))!;
      expect(app.pageCache.get(PageCache.key(site.id, site.version, '/journal'))).toBeUndefined();
      expect((await get('/journal')).statusCode).toBe(200);
    });
  });
});
