/**
 * A new collection at /admin (issue 26) on SQLite and PostgreSQL, with the demo site: an editor creates a blog at
 * /news and a shop at a URL made from its title; each is a version with its audit entry, in the navigation, its page
 * on the store, and the new blog takes posts; a taken or bad URL is refused under its field with the spec's editor
 * messages; a draft editor may not create one.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import { importSiteFile } from '../../src/modules/site/import';
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
});
