/**
 * New and deleted collections at /admin (issue 26) on SQLite and PostgreSQL, with the demo site: an editor creates a
 * blog at /news and a shop at a URL made from its title; each is a version with its audit entry, in the navigation,
 * its page on the store, and the new blog takes posts; a taken or bad URL is refused under its field with the spec's
 * editor messages; a draft editor may not create one. An empty collection is deleted from its delete page (what it
 * holds, where it is shown): gone from the navigation — and from the design's menu in the same version — its URL a
 * 404, with its audit entry; a shop or blog that holds products or posts, or that a page's block shows, is refused
 * with why and nothing changes; a role without pages.edit, an unknown id, bad input and a stale version are refused.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import { importSite, importSiteFile } from '../../src/modules/site/import';
import { readSite } from '../../src/modules/site/sites';
import { buildApp } from '../../src/server/app';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const DEMO = `${import.meta.dirname}/../../sites/demo/site.json`;
const HOST = 'localhost';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let editor: string;
  let draftEditor: string;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', 'demo').executeTakeFirstOrThrow()).version;
  const form = async (fields: Record<string, string>, cookie: string) =>
    app.inject({
      method: 'POST',
      url: '/admin/collections',
      headers: { host: HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        baseVersion: String(await version()),
        ...fields,
        [CRUMB_FIELD]: TEST_CRUMB,
      }).toString(),
    });
  const collections = async () => (await readSite(getDb(), 'demo'))!.site.collections;
  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, body?: object) =>
    app.inject({
      method,
      url,
      headers: { host: HOST, cookie, [CRUMB_HEADER]: TEST_CRUMB },
      ...(body ? { payload: body } : {}),
    });
  /** The delete page's form, sent (confirmed unless `confirm` says otherwise) with the version it was made from. */
  const deleteForm = async (id: string, cookie: string, fields: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/admin/collections/${id}/delete`,
      headers: { host: HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        baseVersion: String(await version()),
        confirm: 'yes',
        ...fields,
        [CRUMB_FIELD]: TEST_CRUMB,
      }).toString(),
    });
  const createVia = async (title: string, kind: 'blog' | 'products', slug = '') => {
    const made = await call('POST', '/api/admin/collections', editor, {
      baseVersion: await version(),
      title,
      kind,
      slug,
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().collection as { id: string; slug: string };
  };
  /** The store header's wide navigation (its links' addresses). */
  const headerLinks = async () => {
    const html = (await get('/')).body;
    const nav = html.slice(html.indexOf('<nav class="site-nav site-nav--wide"'));
    return [...nav.slice(0, nav.indexOf('</nav>')).matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  };
  const lastAudit = async () => (await listAudit(getDb(), 'demo', { limit: 1 })).records[0]!;

  beforeAll(async () => {
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    await importSiteFile(getDb(), DEMO);
    editor = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.EDITOR)).email);
    draftEditor = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.DRAFT_EDITOR)).email);
  }, 60_000);
  afterAll(async () => app?.close());

  it('an editor creates a blog and a shop: in the navigation, on the store, a version each with its audit entry', async () => {
    expect((await get('/admin/pages', editor)).body).toContain('href="/admin/collections/new"');
    const page = await get('/admin/collections/new', editor);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Create collection');
    const before = await version();
    const blog = await form({ kind: 'blog', title: 'News', slug: '/news' }, editor);
    expect(blog.statusCode, blog.body.slice(0, 400)).toBe(303);
    expect(new URL(String(blog.headers.location), 'http://x').searchParams.get('done')).toBe(
      `Created the blog “News” at /news (version ${before + 1}).`,
    );
    expect((await collections()).at(-1)).toEqual({ id: 'news', type: 'blog', title: 'News', slug: 'news' });
    expect((await listAudit(getDb(), 'demo', { limit: 1 })).records[0]).toMatchObject({
      action: 'collection.create',
      summary: 'Created the blog “News” at /news',
    });
    expect((await get('/news')).statusCode).toBe(200);
    expect((await get('/')).body).toContain('href="/news"');

    const shop = await form({ kind: 'products', title: 'Gift Ideas', slug: '' }, editor);
    expect(shop.statusCode).toBe(303);
    expect((await collections()).at(-1)).toMatchObject({ id: 'gift-ideas', type: 'products', slug: 'gift-ideas' });
    expect((await get('/gift-ideas')).statusCode).toBe(200);

    // The new blog takes posts.
    const post = await app.inject({
      method: 'POST',
      url: '/api/admin/posts',
      headers: { host: HOST, cookie: editor, [CRUMB_HEADER]: TEST_CRUMB },
      payload: { baseVersion: await version(), title: 'First news', collectionId: 'news' },
    });
    expect(post.statusCode, post.body).toBe(201);
    expect((await get('/news/first-news')).statusCode).toBe(200);
  });

  it('refuses a taken or bad URL under its field with the spec’s editor messages; a draft editor may not create one', async () => {
    const before = await version();
    const taken = await form({ kind: 'blog', title: 'Journal 2', slug: 'blog' }, editor);
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('This page URL already exists');
    expect(taken.body).toContain('aria-describedby="collection-slug-hint collection-slug-error"');
    const store = await form({ kind: 'blog', title: 'Cart', slug: '/cart' }, editor);
    expect(store.body).toContain('This page URL already exists');
    const bad = await form({ kind: 'blog', title: 'Odd', slug: 'a b!' }, editor);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('a b! is not a valid page URL');
    const deep = await form({ kind: 'products', title: 'Deep', slug: '/shop2/deep' }, editor);
    expect(deep.body).toContain('A collection’s URL is one part, like /journal');
    const noKind = await form({ kind: 'page', title: 'X', slug: '/x' }, editor);
    expect(noKind.statusCode).toBe(400);
    expect(noKind.body).toContain('Choose a shop or a blog');
    expect(await version()).toBe(before);

    expect((await form({ kind: 'blog', title: 'Mine', slug: '/mine' }, draftEditor)).statusCode).toBe(403);
    const api = await app.inject({
      method: 'POST',
      url: '/api/admin/collections',
      headers: { host: HOST, cookie: editor, [CRUMB_HEADER]: TEST_CRUMB },
      payload: { baseVersion: before, title: 'Bad', kind: 'blog', slug: '/a/b' },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toMatchObject({
      code: 'invalid-input',
      message: 'A collection’s URL is one part, like /journal',
    });
  });

  it('an editor deletes an empty collection from its delete page: gone from the navigation, its URL a 404, a version with its audit entry', async () => {
    const notes = await createVia('Notes', 'blog', '/notes');
    expect(await headerLinks()).toContain('/notes');
    expect((await get('/admin/pages', editor)).body).toContain('href="/admin/collections/notes/delete"');
    const page = await get('/admin/collections/notes/delete', editor);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The blog “Notes” holds no posts.');
    expect(page.body).toContain('In the header’s navigation');
    expect(page.body).toContain('<input id="delete-confirm" type="checkbox" required="" name="confirm" value="yes"/>');
    expect(page.body).toContain('Yes, delete “Notes”');
    expect(page.body).toContain('Delete blog');

    const before = await version();
    const unticked = await deleteForm(notes.id, editor, { confirm: '' });
    expect(unticked.statusCode).toBe(422);
    expect(unticked.body).toContain('Tick “Yes, delete” to delete the collection.');
    expect(await version()).toBe(before);

    const deleted = await deleteForm(notes.id, editor);
    expect(deleted.statusCode, deleted.body.slice(0, 400)).toBe(303);
    expect(new URL(String(deleted.headers.location), 'http://x').searchParams.get('done')).toBe(
      `Deleted the blog “Notes” at /notes (version ${before + 1}).`,
    );
    expect(await version()).toBe(before + 1);
    expect((await collections()).some((c) => c.id === 'notes')).toBe(false);
    expect((await get('/notes')).statusCode).toBe(404);
    expect(await headerLinks()).not.toContain('/notes');
    expect(await lastAudit()).toMatchObject({
      action: 'collection.delete',
      subject: { type: 'collection', id: 'notes' },
      summary: 'Deleted the blog “Notes” at /notes',
      before: { id: 'notes', type: 'blog', title: 'Notes', slug: 'notes' },
    });
    expect((await get('/admin/collections/notes/delete', editor)).statusCode).toBe(404);
  });

  it("the JSON delete takes its link out of the design's menu in the same version", async () => {
    const site = JSON.parse(await readFile(DEMO, 'utf8')) as {
      collections: object[];
      website: { design?: { menu?: string[] } };
    };
    site.collections.push({ id: 'gifts', type: 'products', title: 'Gifts', slug: 'gifts' });
    site.website.design = { ...site.website.design, menu: ['home', 'shop', 'gifts', 'about'] };
    await importSite(getDb(), JSON.stringify(site), dirname(DEMO));
    expect(await headerLinks()).toContain('/gifts');
    expect((await get('/admin/collections/gifts/delete', editor)).body).toContain(
      'In the header’s menu, set in the design: the delete takes it out.',
    );
    const before = await version();
    const deleted = await call('DELETE', `/api/admin/collections/gifts?baseVersion=${before}`, editor);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.headers['cache-control']).toBe('no-store');
    expect(deleted.json()).toEqual({
      version: before + 1,
      collection: { id: 'gifts', type: 'products', title: 'Gifts', slug: 'gifts' },
    });
    const stored = (await readSite(getDb(), 'demo'))!.site;
    expect(stored.website.design!.menu).toEqual(['home', 'shop', 'about']);
    expect(stored.collections.map((c) => c.id)).toEqual(['shop', 'journal']);
    expect(await version()).toBe(before + 1);
    expect(await headerLinks()).not.toContain('/gifts');
    expect((await get('/gifts')).statusCode).toBe(404);
  });

  it("refuses a shop or blog that holds products or posts, or that a page's block shows, with why; nothing changes", async () => {
    const shopPage = (await get('/admin/collections/shop/delete', editor)).body;
    expect(shopPage).toContain('The shop “Shop” holds 18 products:');
    expect(shopPage).toContain('By a product grid on the page <a href="/admin/pages/home">Home</a> (/)');
    expect(shopPage).toContain('It cannot be deleted yet.');
    expect(shopPage).not.toContain('name="confirm"');

    const diary = await createVia('Diary', 'blog');
    const entry = await call('POST', '/api/admin/posts', editor, {
      baseVersion: await version(),
      title: 'First entry',
      collectionId: diary.id,
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const sale = await createVia('Sale', 'products');
    for (const id of ['about', 'contact']) {
      const stored = (await readSite(getDb(), 'demo'))!.site.pages.find((p) => p.id === id)!;
      const grid = await call('PATCH', `/api/admin/pages/${id}`, editor, {
        baseVersion: await version(),
        blocks: [...stored.blocks, { type: 'productGrid', collectionId: sale.id }],
      });
      expect(grid.statusCode, grid.body).toBe(200);
    }

    const before = await version();
    const kept = await collections();
    const shop = await deleteForm('shop', editor);
    expect(shop.statusCode).toBe(409);
    expect(shop.body).toContain(
      'This shop still holds 18 products: move or delete them first. This shop is shown by a product grid on the page “Home”: remove it there first.',
    );
    const journal = await call('DELETE', `/api/admin/collections/journal?baseVersion=${before}`, editor);
    expect(journal.statusCode).toBe(409);
    expect(journal.json()).toMatchObject({
      code: 'site-edit-refused',
      message:
        'This blog still holds 3 posts: move or delete them first. This blog is shown by a blog posts block on the page “Home”: remove it there first.',
    });
    const one = await call('DELETE', `/api/admin/collections/${diary.id}?baseVersion=${before}`, editor);
    expect(one.statusCode).toBe(409);
    expect(one.json().message).toBe('This blog still holds 1 post: move or delete it first.');
    const shown = await deleteForm(sale.id, editor);
    expect(shown.statusCode).toBe(409);
    expect(shown.body).toContain(
      'This shop is shown by product grids on the pages “About” and “Contact”: remove them there first.',
    );
    expect(await version()).toBe(before);
    expect(await collections()).toEqual(kept);
    expect((await get('/shop')).statusCode).toBe(200);
    expect((await get('/blog')).statusCode).toBe(200);
  });

  it('refuses a role without pages.edit, an unknown collection, bad input and a stale version', async () => {
    const later = await createVia('Later', 'products');
    const v = await version();
    expect((await get(`/admin/collections/${later.id}/delete`, draftEditor)).statusCode).toBe(403);
    expect((await deleteForm(later.id, draftEditor)).statusCode).toBe(403);
    const role = await call('DELETE', `/api/admin/collections/${later.id}?baseVersion=${v}`, draftEditor);
    expect(role.statusCode).toBe(403);
    expect(role.json().code).toBe('role-not-allowed');
    expect((await get(`/admin/collections/${later.id}/delete`)).statusCode).toBe(303);

    expect((await get('/admin/collections/nowhere/delete', editor)).statusCode).toBe(404);
    expect((await deleteForm('nowhere', editor)).statusCode).toBe(404);
    const unknown = await call('DELETE', `/api/admin/collections/nowhere?baseVersion=${v}`, editor);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('collection-not-found');
    const noVersion = await call('DELETE', `/api/admin/collections/${later.id}?baseVersion=${v + 1000}`, editor);
    expect(noVersion.statusCode).toBe(404);
    expect(noVersion.json().code).toBe('version-not-found');
    for (const url of [
      `/api/admin/collections/${later.id}`,
      `/api/admin/collections/${later.id}?baseVersion=abc`,
      `/api/admin/collections/Not_An_Id?baseVersion=${v}`,
    ]) {
      const bad = await call('DELETE', url, editor);
      expect(bad.statusCode, url).toBe(400);
      expect(bad.json().code).toBe('invalid-input');
    }

    // Renamed by someone else since the version the delete was made from: refused with what changed.
    const renamed = await call('PATCH', `/api/admin/collections/${later.id}`, editor, {
      baseVersion: v,
      title: 'Soon',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const stale = await call('DELETE', `/api/admin/collections/${later.id}?baseVersion=${v}`, editor);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('site-edit-stale');
    expect(stale.json().message).toContain('What changed:');
    const staleForm = await deleteForm(later.id, editor, { baseVersion: String(v) });
    expect(staleForm.statusCode).toBe(409);
    expect(staleForm.body).toContain('Not saved: this was changed since you opened it');
    expect((await collections()).find((c) => c.id === later.id)).toMatchObject({ title: 'Soon' });
    expect(await version()).toBe(v + 1);
  });
});
