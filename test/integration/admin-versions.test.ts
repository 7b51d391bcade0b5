/**
 * Site versions (issue 26) on SQLite and PostgreSQL: two imports make two versions with the right summaries; the
 * comparison names what changed; a restore (by a website manager, confirmed) brings back a changed product name and a
 * removed image while a variant's stock sold in between stays as sold, with its audit entry; a restore and an import
 * at once both make their version; a viewer looks but cannot restore (403), nobody signed in sees no data; bad input
 * (from=abc, an unknown version) gets a clear 400/404; a restore whose domain now belongs to another site is refused;
 * a site stored before versions shows its state as its first version.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import { takeStock } from '../../src/modules/catalog';
import { restoreVersion, siteHistory } from '../../src/modules/site/history';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { readSite, replaceSite, type SiteAsset } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { buildApp } from '../../src/server/app';
import { checkoutSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const SITE = 'shop';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let websiteManager: string;
  let managerEmail: string;
  let viewer: string;
  let kitImage: SiteAsset;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const post = (url: string, cookie: string) =>
    app.inject({ method: 'POST', url, headers: { host: SHOP_HOST, cookie, [CRUMB_HEADER]: TEST_CRUMB } });
  const form = (url: string, fields: Record<string, string>, cookie: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields, [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });

  /** The test shop, edited; saved as an import would save it. */
  const save = async (edit: (site: SiteFileInput) => void, assets: SiteAsset[] = []) => {
    const input = structuredClone(checkoutSite);
    edit(input);
    const validation = validateSite(input);
    if (!validation.ok) throw new Error(validation.problems.join('\n'));
    return replaceSite(getDb(), validation.site, assets, { stock: 'file' });
  };
  const withKitImage = (site: SiteFileInput) => {
    site.products!.find((p) => p.id === 'kit')!.images = [{ file: 'img/kit.png', altText: 'The kit' }];
  };
  const productName = async (id: string) =>
    (await readSite(getDb(), SITE))!.site.products.find((p) => p.id === id)?.name;
  const stockOf = async (sku: string) =>
    (
      await getDb()
        .selectFrom('variants')
        .select('qty_in_stock')
        .where('site_id', '=', SITE)
        .where('sku', '=', sku)
        .executeTakeFirstOrThrow()
    ).qty_in_stock;

  beforeAll(async () => {
    const bytes = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    kitImage = { path: 'img/kit.png', contentType: 'image/png', width: 8, height: 6, bytes };
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    // Version 1: the shop with a picture of the kit; version 2: the tee renamed, the kit's picture removed.
    await save(withKitImage, [kitImage]);
    await save((site) => {
      site.products!.find((p) => p.id === 'tee')!.name = 'Tee Shirt';
    });
    admin = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN)).email);
    managerEmail = (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.WEBSITE_MANAGER)).email;
    websiteManager = await signIn(app, SHOP_HOST, managerEmail);
    viewer = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER)).email);
  });
  afterAll(async () => app?.close());

  it('records a version per import, newest first, with who, the source and what changed', async () => {
    const answer = await get('/api/admin/versions', admin);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const { versions, latest, next } = answer.json<{
      versions: { number: number; createdBy: string; source: string; summary: string }[];
      latest: number;
      next: number | null;
    }>();
    expect(latest).toBe(2);
    expect(next).toBeNull();
    expect(versions.map((v) => [v.number, v.createdBy, v.source, v.summary])).toEqual([
      [2, 'vitrine import', 'import', 'Product “Tee Shirt”: name; product “Kit”: images'],
      [1, 'vitrine import', 'import', 'First version: 8 products, 1 collection, 0 pages, 0 posts, 1 form'],
    ]);
    const paged = (await get('/api/admin/versions?limit=1', admin)).json<{ versions: unknown[]; next: number }>();
    expect(paged.versions).toHaveLength(1);
    expect(paged.next).toBe(2);
    const older = (await get('/api/admin/versions?limit=1&before=2', admin)).json<{ versions: { number: number }[] }>();
    expect(older.versions.map((v) => v.number)).toEqual([1]);
  });

  it('compares any two versions as lines to read, per product', async () => {
    const answer = await get('/api/admin/versions/compare?from=1&to=2', admin);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ lines: string[] }>().lines).toEqual([
      'Product “Tee Shirt” (tee): name changed',
      'Product “Kit” (kit): images changed',
    ]);
    const page = await get('/admin/versions', admin);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('From version 1 to version 2');
    expect(page.body).toContain('Product “Tee Shirt” (tee): name changed');
    expect(page.body).toContain('href="/admin/versions/1/restore"');
    expect(page.body).toContain('>Versions</a>');
  });

  it('answers bad input with a clear 400 or 404, never a 500', async () => {
    const bad = await get('/api/admin/versions/compare?from=abc&to=2', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid-input', field: 'from' });
    expect(bad.json<{ message: string }>().message).toBe('from must be a version number (a whole number from 1).');
    const unknown = await get('/api/admin/versions/compare?from=1&to=99', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'version-not-found', message: 'This site has no version 99.' });
    expect((await get('/api/admin/versions?limit=0', admin)).statusCode).toBe(400);
    expect((await post('/api/admin/versions/99/restore', admin)).statusCode).toBe(404);
    expect((await post('/api/admin/versions/abc/restore', admin)).statusCode).toBe(400);
    const page = await get('/admin/versions?from=abc', admin);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('The first version must be a version number (a whole number from 1).');
    const missing = await get('/admin/versions?from=1&to=99', admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('This site has no version 99.');
    expect((await get('/admin/versions/99/restore', admin)).statusCode).toBe(404);
    expect((await get('/admin/versions/x/restore', admin)).statusCode).toBe(404);
    expect((await form('/admin/versions/99/restore', { confirm: 'yes' }, admin)).statusCode).toBe(404);
    expect((await get('/api/admin/versions', admin)).json<{ latest: number }>().latest).toBe(2);
  });

  it("gives a website manager the owner's area with the versions and none of the shop", async () => {
    const home = await get('/admin', websiteManager);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('href="/admin/versions"');
    expect(home.body).not.toContain('href="/admin/orders"');
    expect((await get('/admin/orders', websiteManager)).statusCode).toBe(403);
  });

  it('lets a viewer look but not restore, and shows nobody signed in no data', async () => {
    const page = await get('/admin/versions', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Product “Tee Shirt”');
    expect(page.body).not.toContain('/restore"');
    expect((await get('/admin/versions/1/restore', viewer)).statusCode).toBe(403);
    const refused = await post('/api/admin/versions/1/restore', viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('role-not-allowed');
    const refusedForm = await form('/admin/versions/1/restore', { confirm: 'yes' }, viewer);
    expect(refusedForm.statusCode).toBe(403);
    expect(refusedForm.body).not.toContain('Tee Shirt');
    const nobody = await get('/api/admin/versions');
    expect(nobody.statusCode).toBe(401);
    expect(nobody.body).not.toContain('Tee');
    expect((await get('/api/admin/versions/compare?from=1&to=2')).statusCode).toBe(401);
    expect((await post('/api/admin/versions/1/restore', `${CRUMB_COOKIE}=${TEST_CRUMB}`)).statusCode).toBe(401);
    const signInFirst = await get('/admin/versions');
    expect(signInFirst.statusCode).toBe(303);
    expect(signInFirst.body).not.toContain('Tee');
    expect(await productName('tee')).toBe('Tee Shirt');
  });

  it('restores a version after confirming: the name and the image come back, stock sold since stays sold', async () => {
    // A sale between the versions: 2 of the blue tee (100 in the file).
    expect(await takeStock(getDb(), SITE, 'tee-s-blue', 2)).toBe(true);
    expect(await stockOf('tee-s-blue')).toBe(98);
    const confirm = await get('/admin/versions/1/restore', websiteManager);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Product “Tee” (tee): name changed');
    expect(confirm.body).toContain('Yes, restore version 1');
    const unconfirmed = await form('/admin/versions/1/restore', {}, websiteManager);
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.body).toContain('Tick “Yes, restore version 1” to restore it.');
    expect(await productName('tee')).toBe('Tee Shirt');

    const done = await form('/admin/versions/1/restore', { confirm: 'yes' }, websiteManager);
    expect(done.statusCode).toBe(303);
    expect(decodeURIComponent(done.headers.location as string)).toContain('Restored version 1 as version 3.');
    expect(await productName('tee')).toBe('Tee');
    const stored = await readSite(getDb(), SITE);
    expect(stored!.site.products.find((p) => p.id === 'kit')!.images.map((i) => i.file)).toEqual(['img/kit.png']);
    expect(stored!.assets.find((a) => a.path === 'img/kit.png')!.bytes.equals(kitImage.bytes)).toBe(true);
    expect(await stockOf('tee-s-blue')).toBe(98);

    const { versions } = (await get('/api/admin/versions', admin)).json<{
      versions: { number: number; createdBy: string; source: string; summary: string }[];
    }>();
    expect(versions[0]).toEqual({
      number: 3,
      createdAt: expect.any(String),
      createdBy: managerEmail,
      source: 'restore',
      summary: 'Restored version 1: product “Tee”: name; product “Kit”: images',
    });
    const audit = await listAudit(getDb(), SITE, { subject: { type: 'site', id: SITE } });
    expect(audit.records[0]).toMatchObject({
      actor: managerEmail,
      action: 'site.restore',
      summary: 'Restored version 1 as version 3',
    });
    // Version 3 means what version 1 meant.
    const same = (await get('/api/admin/versions/compare?from=1&to=3', admin)).json<{ lines: string[] }>();
    expect(same.lines).toEqual([]);
  });

  it('records both versions when a restore and an import run at once (no lost update)', async () => {
    const [restored, imported] = await Promise.all([
      restoreVersion(getDb(), SITE, 2, { createdBy: 'owner@example.com' }),
      save((site) => {
        site.products!.find((p) => p.id === 'limited')!.name = 'Limited edition print';
      }),
    ]);
    expect(restored.ok).toBe(true);
    const numbers = [restored.ok ? restored.value.version.number : 0, imported.version.number].sort();
    expect(numbers).toEqual([4, 5]);
    const { versions } = await siteHistory(getDb(), SITE, { limit: 2 });
    expect(versions.map((v) => v.number)).toEqual([5, 4]);
    expect(new Set(versions.map((v) => v.source))).toEqual(new Set(['restore', 'import']));
    const site = await getDb().selectFrom('sites').select('version').where('id', '=', SITE).executeTakeFirstOrThrow();
    expect(site.version).toBe(5);
    // The last save's content is what is stored.
    const latest = (await get('/api/admin/versions/compare?from=5&to=5', admin)).json<{ lines: string[] }>();
    expect(latest.lines).toEqual([]);
    const limited = await productName('limited');
    expect(imported.version.number === 5 ? 'Limited edition print' : 'Limited print').toBe(limited);
  });

  it('refuses a restore when a domain of that version now belongs to another site, writing nothing', async () => {
    await save((site) => {
      site.website!.domains = [SHOP_HOST, 'extra.test'];
    });
    const withExtra = (await siteHistory(getDb(), SITE, { limit: 1 })).latest!;
    await save(() => {});
    const other = validateSite({ version: 1, website: { id: 'other', title: 'Other', domains: ['extra.test'] } });
    if (!other.ok) throw new Error(other.problems.join('\n'));
    await replaceSite(getDb(), other.site, []);
    const before = (await siteHistory(getDb(), SITE, { limit: 1 })).latest;
    const refused = await post(`/api/admin/versions/${withExtra}/restore`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'restore-refused' });
    expect(refused.json<{ message: string }>().message).toContain("'extra.test' already belongs to site 'other'");
    expect((await siteHistory(getDb(), SITE, { limit: 1 })).latest).toBe(before);
  });

  it('shows a site stored before versions were kept as its first version on first look', async () => {
    await getDb().deleteFrom('site_versions').where('site_id', '=', 'other').execute();
    const { versions } = await siteHistory(getDb(), 'other');
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ number: 1, source: 'import', createdBy: 'vitrine import' });
    expect(versions[0]!.summary).toBe(
      'As stored before versions were kept — First version: 0 products, 0 collections, 0 pages, 0 posts, 0 forms',
    );
    // Its next save compares with it.
    const again = validateSite({ version: 1, website: { id: 'other', title: 'Other site', domains: ['extra.test'] } });
    if (!again.ok) throw new Error(again.problems.join('\n'));
    const saved = await replaceSite(getDb(), again.site, []);
    expect(saved.version).toMatchObject({ number: 2, summary: 'Settings: title' });
  });
});
