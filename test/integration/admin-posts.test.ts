/**
 * Blog posts at /admin/posts (issue 26: write, schedule, tag and categorise) on SQLite and PostgreSQL, with the demo
 * site: an editor writes a post and the blog shows it with its text and tags; a draft editor's post is a Draft the
 * store does not show but staff preview, and a draft editor may not publish, change a live post or delete one (the
 * core's refusals, word for word); a scheduled post appears at its time; bad input is refused by its field with the
 * spec's editor messages; a stale save is refused with what changed; every save is a version with its audit entry.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { localInputOf, PUBLISH_TIME_MESSAGES } from '../../src/core/publishing';
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
  let editorEmail: string;
  let draftEditor: string;
  let viewer: string;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, body?: object) =>
    app.inject({
      method,
      url,
      headers: { host: HOST, [CRUMB_HEADER]: TEST_CRUMB, cookie },
      ...(body ? { payload: body } : {}),
    });
  const form = (url: string, fields: Record<string, string>, cookie: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields, [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', 'demo').executeTakeFirstOrThrow()).version;
  const post = async (id: string) => (await readSite(getDb(), 'demo'))!.site.posts.find((p) => p.id === id);
  const lastAudit = async () => (await listAudit(getDb(), 'demo', { limit: 1 })).records[0]!;
  const done = (location: unknown) => new URL(String(location), 'http://x').searchParams.get('done');
  /** The editor form's fields as a save sends them, with `changes`. */
  const editorForm = async (id: string, changes: Record<string, string>) => {
    const fields: Record<string, string> = {
      baseVersion: String(await version()),
      title: (await post(id))!.title,
      slug: (await post(id))!.slug,
      collectionId: 'journal',
      author: (await post(id))!.author,
      publishedOn: (await post(id))!.publishedOn,
      excerpt: '',
      body: (await post(id))!.body,
      tags: (await post(id))!.tags.join(', '),
      categories: '',
      status: 'published',
      publishAt: '',
    };
    return { ...fields, ...changes };
  };

  beforeAll(async () => {
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    await importSiteFile(getDb(), DEMO);
    editorEmail = (await addSiteUser(getDb(), HOST, ContributorRole.EDITOR)).email;
    editor = await signIn(app, HOST, editorEmail);
    draftEditor = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.DRAFT_EDITOR)).email);
    viewer = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.VIEWER)).email);
  }, 60_000);
  afterAll(async () => app?.close());

  it('an editor writes a post with its text, tags and categories, and the blog shows it at once, as a version with its audit entry', async () => {
    const list = await get('/admin/posts', editor);
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body).toContain('href="/admin/posts/glaze-notes"');
    const before = await version();
    const made = await form(
      '/admin/posts',
      { baseVersion: String(before), title: 'Spring roast notes', collectionId: 'journal', status: 'published' },
      editor,
    );
    expect(made.statusCode, made.body.slice(0, 400)).toBe(303);
    expect(made.headers.location).toMatch(/^\/admin\/posts\/spring-roast-notes\?/);
    expect(done(made.headers.location)).toBe(`Created “Spring roast notes” (version ${before + 1}).`);
    expect(await post('spring-roast-notes')).toMatchObject({ author: editorEmail, slug: 'spring-roast-notes' });

    const saved = await form(
      '/admin/posts/spring-roast-notes',
      await editorForm('spring-roast-notes', {
        body: 'A lighter roast this spring.\n\nBrewed at #filter ratios.',
        tags: 'Roasting, coffee,  roasting ',
        categories: 'Seasonal',
        publishedOn: '2026-05-02',
      }),
      editor,
    );
    expect(saved.statusCode, saved.body.slice(0, 400)).toBe(303);
    expect(done(saved.headers.location)).toBe(`Saved: version ${before + 2}. It is on the store now.`);
    expect(await post('spring-roast-notes')).toMatchObject({
      tags: ['Roasting', 'coffee'],
      categories: ['Seasonal'],
      publishedOn: '2026-05-02',
    });
    const page = await get('/blog/spring-roast-notes');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('A lighter roast this spring.');
    expect((await get('/blog')).body).toContain('href="/blog/spring-roast-notes"');
    expect(await lastAudit()).toMatchObject({
      action: 'post.update',
      actor: editorEmail,
      subject: { type: 'post', id: 'spring-roast-notes' },
      summary: 'Changed the post “Spring roast notes”: date, body, tags, categories',
    });
  });

  it("a draft editor's post is a Draft: the store answers 404, staff preview it; publishing it is refused in the core's words", async () => {
    const made = await form(
      '/admin/posts',
      { baseVersion: String(await version()), title: 'Kiln diary', collectionId: 'journal' },
      draftEditor,
    );
    expect(made.statusCode, made.body.slice(0, 400)).toBe(303);
    expect(await post('kiln-diary')).toMatchObject({ status: 'draft' });
    expect((await get('/blog/kiln-diary')).statusCode).toBe(404);
    expect((await get('/blog')).body).not.toContain('Kiln diary');
    const preview = await get('/admin/posts/kiln-diary/preview', draftEditor);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(preview.body).toContain('Kiln diary');
    expect((await get('/admin/posts/kiln-diary/preview')).statusCode).not.toBe(200);

    const publish = await form('/admin/posts/kiln-diary', await editorForm('kiln-diary', {}), draftEditor);
    expect(publish.statusCode).toBe(403);
    expect(publish.body).toContain(
      'A draft editor saves drafts only: save this post as Draft or Needs Review, and an editor publishes it.',
    );
    expect(await post('kiln-diary')).toMatchObject({ status: 'draft' });
    const review = await form(
      '/admin/posts/kiln-diary',
      await editorForm('kiln-diary', { status: 'needs-review', body: 'Cone 6, slow cool.' }),
      draftEditor,
    );
    expect(review.statusCode, review.body.slice(0, 400)).toBe(303);
    expect(done(review.headers.location)).toMatch(
      /It is Needs Review: not on the store; staff see it in the preview\.$/,
    );
    expect(await post('kiln-diary')).toMatchObject({ status: 'needs-review', body: 'Cone 6, slow cool.' });
    expect((await lastAudit()).summary).toBe('Changed the post “Kiln diary”: body, status: Draft → Needs Review');

    // A live post is not theirs to change or delete; an editor publishes the draft.
    const live = await call('PATCH', '/api/admin/posts/glaze-notes', draftEditor, {
      baseVersion: await version(),
      status: 'draft',
    });
    expect(live.statusCode).toBe(403);
    expect(live.json()).toMatchObject({
      code: 'publication-refused',
      message: 'A draft editor changes drafts only: this post is Published. An editor may set it back to Draft.',
    });
    const gone = await call('DELETE', `/api/admin/posts/glaze-notes?baseVersion=${await version()}`, draftEditor);
    expect(gone.statusCode).toBe(403);
    expect(gone.json().message).toBe('A draft editor deletes drafts only: this post is Published.');
    const published = await call('PATCH', '/api/admin/posts/kiln-diary', editor, {
      baseVersion: await version(),
      status: 'published',
    });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().post).toMatchObject({ status: 'published', path: '/blog/kiln-diary' });
    expect((await get('/blog/kiln-diary')).statusCode).toBe(200);
  });

  it('a scheduled post appears on the store at its time', async () => {
    const at = new Date(Date.now() + 2_500).toISOString();
    const made = await call('POST', '/api/admin/posts', editor, {
      baseVersion: await version(),
      title: 'Open studio, autumn',
      collectionId: 'journal',
      status: 'scheduled',
      publishAt: at,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().post).toMatchObject({ status: 'scheduled', path: '/blog/open-studio-autumn' });
    expect((await get('/blog/open-studio-autumn')).statusCode).toBe(404);
    const list = (await get('/admin/posts', editor)).body;
    expect(list).toContain('<span class="admin-badge admin-badge-status-scheduled">Scheduled</span>');
    await new Promise((r) => setTimeout(r, Date.parse(at) - Date.now() + 50));
    expect((await get('/blog/open-studio-autumn')).statusCode).toBe(200);
    expect((await get('/api/admin/posts/open-studio-autumn', editor)).json().post.status).toBe('published');
  });

  it('keeps a scheduled time with seconds when the form sends back the minute it showed', async () => {
    // Scheduled for 10:30:45, saved unchanged at 10:30:20: the form shows 10:30, already past. (In the clock's past,
    // so that the audit entries of the tests after this one are still the latest.)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 600_000 });
    try {
      const at = Math.floor((Date.now() + 120_000) / 60_000) * 60_000 + 45_000;
      const iso = new Date(at).toISOString();
      const timeZone = (await readSite(getDb(), 'demo'))!.site.website.timeZone;
      const made = await call('POST', '/api/admin/posts', editor, {
        baseVersion: await version(),
        title: 'Kiln opening',
        collectionId: 'journal',
        status: 'scheduled',
        publishAt: iso,
      });
      expect(made.statusCode, made.body).toBe(201);
      vi.setSystemTime(at - 25_000);
      const shown = localInputOf(iso, timeZone);
      expect((await get('/admin/posts/kiln-opening', editor)).body).toContain(`value="${shown}"`);
      const saved = await form(
        '/admin/posts/kiln-opening',
        await editorForm('kiln-opening', { status: 'scheduled', publishAt: shown, excerpt: 'The first firing.' }),
        editor,
      );
      expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
      expect(await post('kiln-opening')).toMatchObject({
        excerpt: 'The first firing.',
        status: 'scheduled',
        publishAt: iso,
      });
      // The JSON call sending the stored instant keeps it too; another minute that has passed is refused.
      const json = await call('PATCH', '/api/admin/posts/kiln-opening', editor, {
        baseVersion: await version(),
        status: 'scheduled',
        publishAt: iso,
      });
      expect(json.statusCode, json.body).toBe(200);
      const earlier = localInputOf(new Date(at - 60_000).toISOString(), timeZone);
      const refused = await form(
        '/admin/posts/kiln-opening',
        await editorForm('kiln-opening', { status: 'scheduled', publishAt: earlier }),
        editor,
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(`Publish at: ${PUBLISH_TIME_MESSAGES.past}`);
      expect((await post('kiln-opening'))!.publishAt).toBe(iso);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses bad input by its field, with the spec’s editor messages, and keeps what was typed', async () => {
    const bad = await form(
      '/admin/posts/brew-ratio',
      await editorForm('brew-ratio', {
        slug: 'a/b',
        tags: `fine, ${'x'.repeat(61)}`,
        status: 'scheduled',
        publishAt: '2020-01-01T10:00',
        title: '',
      }),
      editor,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Title: must not be empty');
    expect(bad.body).toContain(`Tags: “${'x'.repeat(20)}…” is longer than 60 characters`);
    expect(bad.body).toContain('Publish at: must be in the future (choose Published to publish now)');
    expect(bad.body).toContain('value="a/b"');
    const slug = await form('/admin/posts/brew-ratio', await editorForm('brew-ratio', { slug: 'a/b' }), editor);
    expect(slug.statusCode).toBe(400);
    expect(slug.body).toContain('URL: a/b is not a valid page URL');
    expect(slug.body).toContain('aria-invalid="true" aria-describedby="field-slug-hint field-slug-error"');
    const taken = await form(
      '/admin/posts/brew-ratio',
      await editorForm('brew-ratio', { slug: 'glaze-notes-cobalt' }),
      editor,
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('URL: This post URL already exists');
    expect((await post('brew-ratio'))!.slug).toBe('the-only-brew-ratio-you-need');

    const json = await call('PATCH', '/api/admin/posts/brew-ratio', editor, { baseVersion: 1, status: 'live' });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('invalid-input');
    const noBlog = await call('POST', '/api/admin/posts', editor, {
      baseVersion: await version(),
      title: 'x',
      collectionId: 'shop',
    });
    expect(noBlog.statusCode).toBe(404);
    expect(noBlog.json().code).toBe('blog-not-found');
    expect((await get('/admin/posts/no-such-post', editor)).statusCode).toBe(404);
  });

  it('refuses a stale save with what changed, and keeps the other save', async () => {
    const base = String(await version());
    const first = await call('PATCH', '/api/admin/posts/studio-open-day', editor, {
      baseVersion: Number(base),
      title: 'Studio open day, 2026',
    });
    expect(first.statusCode, first.body).toBe(200);
    const late = await form(
      '/admin/posts/studio-open-day',
      { ...(await editorForm('studio-open-day', { title: 'Mine' })), baseVersion: base },
      editor,
    );
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('Not saved: this was changed since you opened it');
    expect((await post('studio-open-day'))!.title).toBe('Studio open day, 2026');
  });

  it('a viewer looks and may not write; nobody signed in is sent to the sign-in; an editor deletes a post', async () => {
    expect((await get('/admin/posts', viewer)).statusCode).toBe(200);
    expect((await get('/admin/posts', viewer)).body).toContain('may look at the posts, not write them');
    const refused = await form(
      '/admin/posts',
      { baseVersion: String(await version()), title: 'Nope', collectionId: 'journal' },
      viewer,
    );
    expect(refused.statusCode).toBe(403);
    expect((await get('/admin/posts')).statusCode).toBe(303);
    expect(
      (await call('PATCH', '/api/admin/posts/brew-ratio', viewer, { baseVersion: await version(), title: 'x' }))
        .statusCode,
    ).toBe(403);

    const unconfirmed = await form('/admin/posts/spring-roast-notes/delete', { baseVersion: '1' }, editor);
    expect(unconfirmed.statusCode).toBe(422);
    const deleted = await form(
      '/admin/posts/spring-roast-notes/delete',
      { baseVersion: String(await version()), confirm: 'yes' },
      editor,
    );
    expect(deleted.statusCode).toBe(303);
    expect(await post('spring-roast-notes')).toBeUndefined();
    expect((await get('/blog/spring-roast-notes')).statusCode).toBe(404);
    expect(await lastAudit()).toMatchObject({
      action: 'post.delete',
      summary: 'Deleted the post “Spring roast notes”',
    });
  });
});
