/**
 * The owner's area's shell on SQLite and PostgreSQL: who may enter /admin (nobody → the sign-in and back; a role
 * that does not enter → 403 without data), what each role sees in the navigation, the audit log (pages, API, paging,
 * who may read it), and that no admin answer is cacheable or indexable.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { COMMAND_ACTOR, listAudit, recordAudit } from '../../src/modules/admin';
import { findSiteByHost } from '../../src/modules/site/sites';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn, signInAs } from '../support/siteUsers';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let siteId: string;
  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    siteId = (await findSiteByHost(getDb(), SHOP_HOST))!.id;
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await getDb().deleteFrom('audit_log').execute();
  });

  describe('entering /admin', () => {
    it('sends nobody signed in to the sign-in, coming back to the page asked for', async () => {
      for (const url of ['/admin', '/admin/audit?cursor=x']) {
        const answer = await get(url);
        expect(answer.statusCode).toBe(303);
        expect(answer.headers.location).toBe(`/account/sign-in?next=${encodeURIComponent(url)}`);
        expect(answer.headers['cache-control']).toBe('no-store');
      }
      const api = await get('/api/admin/audit');
      expect(api.statusCode).toBe(401);
      expect(api.json()).toMatchObject({ code: 'sign-in-required' });
    });

    it('signs an admin in and back to /admin, which lists their sections', async () => {
      const admin = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN, 'owner@example.com');
      const cookie = await signIn(app, SHOP_HOST, admin.email);
      const home = await get('/admin', cookie);
      expect(home.statusCode).toBe(200);
      expect(home.headers['cache-control']).toBe('no-store');
      expect(home.headers['x-robots-tag']).toBe('noindex');
      expect(home.body).toContain('<meta name="robots" content="noindex">');
      expect(home.body).toContain('Signed in as owner@example.com (admin).');
      expect(home.body).toContain('<a href="/admin/audit">Audit log</a>');
      expect(home.body).toMatch(/<a href="\/admin" aria-current="page">Home<\/a>/);
    });

    it('keeps a role that does not enter /admin out, showing no data', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.COMMENTER);
      const home = await get('/admin', cookie);
      expect(home.statusCode).toBe(403);
      expect(home.body).toContain('Your account (commenter) may not do this. Ask an admin of this site for access.');
      expect(home.body).not.toContain('href="/admin/audit"');
    });

    it('shows a viewer the home page but not the audit log (page or API)', async () => {
      await recordAudit(getDb(), {
        siteId,
        actor: COMMAND_ACTOR,
        action: 'test.secret',
        subject: { type: 'order', id: 'o1' },
        summary: 'A change only admins may read',
      });
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.VIEWER);
      expect((await get('/admin', cookie)).statusCode).toBe(200);
      const page = await get('/admin/audit', cookie);
      expect(page.statusCode).toBe(403);
      expect(page.body).not.toContain('A change only admins may read');
      expect(page.body).toContain('Your account (viewer) may not do this.');
      const api = await get('/api/admin/audit', cookie);
      expect(api.statusCode).toBe(403);
      expect(api.json()).toMatchObject({ code: 'role-not-allowed' });
    });
  });

  describe('the audit log', () => {
    it('lists changes newest first, 50 a page, with who, what and before → after', async () => {
      const admin = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN);
      const start = Date.parse('2026-11-01T10:00:00Z');
      for (let i = 0; i < 53; i++) {
        await recordAudit(getDb(), {
          siteId,
          actor: i % 2 ? { id: admin.id, email: admin.email } : COMMAND_ACTOR,
          action: 'stock.adjusted',
          subject: { type: 'variant', id: `SKU-${i}` },
          summary: `Stock of SKU-${i} set to ${i}`,
          before: { qtyInStock: 0 },
          after: { qtyInStock: i },
          at: new Date(start + Math.floor(i / 2) * 1000),
        });
      }
      const first = await listAudit(getDb(), siteId);
      expect(first.records).toHaveLength(50);
      expect(first.records[0]).toMatchObject({
        summary: 'Stock of SKU-52 set to 52',
        actor: 'vitrine command',
        actorId: null,
        before: { qtyInStock: 0 },
        after: { qtyInStock: 52 },
      });
      // Two changes in the same second (SKU-51 by the admin, SKU-50 by a command) come in a stable order.
      expect(
        first.records
          .slice(1, 3)
          .map((r) => r.actor)
          .sort(),
      ).toEqual([admin.email, 'vitrine command'].sort());
      const second = await listAudit(getDb(), siteId, { cursor: first.next! });
      expect(second.next).toBeNull();
      const all = [...first.records, ...second.records].map((r) => r.subject.id);
      expect(new Set(all).size).toBe(53);
      expect(all.slice(-2).sort()).toEqual(['SKU-0', 'SKU-1']);
      // One record's own history.
      const one = await listAudit(getDb(), siteId, { subject: { type: 'variant', id: 'SKU-7' } });
      expect(one.records.map((r) => r.summary)).toEqual(['Stock of SKU-7 set to 7']);

      const cookie = await signIn(app, SHOP_HOST, admin.email);
      const page = await get('/admin/audit', cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Stock of SKU-52 set to 52');
      expect(page.body).toContain('qtyInStock: 0 → 52');
      expect(page.body).not.toContain('Stock of SKU-1 set to 1<');
      const older = page.body.match(/href="\/admin\/audit\?cursor=([^"]+)">Older</);
      expect(older).not.toBeNull();
      const next = await get(`/admin/audit?cursor=${older![1]}`, cookie);
      expect(next.body).toContain('Stock of SKU-0 set to 0');
      const api = await get('/api/admin/audit', cookie);
      expect(api.statusCode).toBe(200);
      expect(api.json().records).toHaveLength(50);
    });

    it('shows the first page for a cursor that is not one, and refuses one that is too long', async () => {
      const cookie = await signInAs(app, getDb(), SHOP_HOST, ContributorRole.ADMIN);
      expect((await get('/admin/audit?cursor=not-a-cursor', cookie)).statusCode).toBe(200);
      const long = await get(`/api/admin/audit?cursor=${'x'.repeat(201)}`, cookie);
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toContain('must be a cursor from the page before');
    });
  });
});
