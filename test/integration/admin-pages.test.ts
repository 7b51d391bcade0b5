/**
 * Pages, collections and blocks at /admin (issue 26) on SQLite and PostgreSQL, with the demo site: an editor changes
 * the home page's heading and `/` shows it at once; a page is created, renamed, moved in the navigation (the header
 * follows), hidden, locked with a password (kept as a hash) and opened again, deleted; blocks are added, moved and
 * removed; the preview renders the unsaved draft and saves nothing; a stale save is refused with what changed and by
 * whom; a bad URL is refused with the spec's '{val} is not a valid page URL', a taken one with 'This page URL already
 * exists'; a viewer may not save, nor a draft editor the published home page (403; their drafts:
 * admin-page-status.test.ts), nobody signed in is sent to the sign-in; every save is a version with its audit entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import { exportSiteToFile } from '../../src/modules/site/export';
import { EMBED_NEEDED } from '../../src/modules/site/pageForm';
import { importSiteFile } from '../../src/modules/site/import';
import { readSite } from '../../src/modules/site/sites';
import { buildApp } from '../../src/server/app';
import { TEST_CRUMB } from '../support/crumb';
import { createFreshDb, forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');
const HOST = 'localhost';
const HOME_HEADING = 'Handmade ceramics and freshly roasted coffee';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let editor: string;
  let editorEmail: string;
  let viewer: string;
  let draftEditor: string;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string | undefined, body?: object) =>
    app.inject({
      method,
      url,
      headers: { host: HOST, [CRUMB_HEADER]: TEST_CRUMB, ...(cookie ? { cookie } : {}) },
      ...(body ? { payload: body } : {}),
    });
  const form = (url: string, fields: Record<string, string | string[]>, cookie: string) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...fields, [CRUMB_FIELD]: TEST_CRUMB }))
      for (const one of Array.isArray(value) ? value : [value]) params.append(key, one);
    return app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: params.toString(),
    });
  };
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', 'demo').executeTakeFirstOrThrow()).version;
  const stored = async () => (await readSite(getDb(), 'demo'))!.site;
  const page = async (id: string) => (await stored()).pages.find((p) => p.id === id);
  /** The header's navigation links of `/`, in order. */
  const navigation = async () => {
    const html = (await get('/')).body;
    const nav = /<nav[^>]*class="[^"]*site-nav[^"]*"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? html;
    return [...nav.matchAll(/<a[^>]*href="([^"]+)"/g)].map((m) => m[1]).filter((href) => href !== '/cart');
  };

  /** The editor form's fields of page `id` as the page shows them (the hidden ones and the blocks' values). */
  const editorFields = async (id: string, cookie = admin): Promise<Record<string, string | string[]>> => {
    const html = (await get(`/admin/pages/${id}`, cookie)).body;
    const form = /<form[^>]*id="page-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? '';
    const fields: Record<string, string | string[]> = {};
    const decode = (s: string) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    for (const m of form.matchAll(/<input([^>]*)>/g)) {
      const attrs = m[1]!;
      const name = /\sname="([^"]+)"/.exec(attrs)?.[1];
      if (!name) continue;
      const type = /\stype="([^"]+)"/.exec(attrs)?.[1];
      const value = decode(/\svalue="([^"]*)"/.exec(attrs)?.[1] ?? '');
      if (type === 'radio') {
        // As a browser sends a radio group: the checked one only.
        if (/\schecked=""/.test(attrs)) fields[name] = value;
      } else if (type === 'checkbox') {
        if (!/\schecked=""/.test(attrs)) continue;
        const had = fields[name];
        fields[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
      } else fields[name] = value;
    }
    for (const m of form.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/textarea>/g))
      fields[m[1]!] = decode(m[2]!);
    for (const m of form.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g))
      fields[m[1]!] = decode(
        /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(m[2]!)?.[1] ??
          /<option[^>]*value="([^"]*)"/.exec(m[2]!)?.[1] ??
          '',
      );
    return fields;
  };

  beforeAll(async () => {
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    await importSiteFile(getDb(), DEMO);
    admin = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.ADMIN)).email);
    editorEmail = (await addSiteUser(getDb(), HOST, ContributorRole.EDITOR)).email;
    editor = await signIn(app, HOST, editorEmail);
    viewer = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.VIEWER)).email);
    draftEditor = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.DRAFT_EDITOR)).email);
  }, 60_000);
  afterAll(async () => app?.close());

  it("changes the home page's heading in the editor's form, and / shows it at once, as a version with its audit entry", async () => {
    expect((await get('/')).body).toContain(HOME_HEADING);
    const list = await get('/admin/pages', editor);
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body).toContain('href="/admin/pages/home"');
    const fields = await editorFields('home', editor);
    expect(fields['b1.text']).toBe(HOME_HEADING);
    const before = await version();
    const saved = await form(
      '/admin/pages/home',
      { ...fields, 'b1.text': 'Pots, cups and coffee', op: 'save' },
      editor,
    );
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    expect(new URL(saved.headers.location as string, 'http://x').searchParams.get('done')).toBe(
      `Saved: version ${before + 1}. It is on the store now.`,
    );
    const home = (await get('/')).body;
    expect(home).toContain('Pots, cups and coffee');
    expect(home).not.toContain(HOME_HEADING);
    // Nothing else of the page changed: the other blocks are as they were.
    expect((await page('home'))!.blocks.map((b) => b.type)).toEqual([
      'image',
      'heading',
      'text',
      'heading',
      'productGrid',
      'heading',
      'product',
      'heading',
      'posts',
      'form',
    ]);
    const entry = (await listAudit(getDb(), 'demo', { limit: 1 })).records[0]!;
    expect(entry).toMatchObject({ action: 'page.update', actor: editorEmail, subject: { type: 'page', id: 'home' } });
    expect(entry.summary).toBe('Changed the page “Home”: blocks');
    const versions = (await get('/api/admin/versions', admin)).json<{
      versions: { createdBy: string; source: string }[];
    }>();
    expect(versions.versions[0]).toMatchObject({ createdBy: editorEmail, source: 'admin' });
  });

  it('previews the unsaved draft as the store renders it, saving nothing', async () => {
    const fields = await editorFields('about');
    const before = await version();
    const preview = await form(
      '/admin/pages/about/preview',
      { ...fields, 'b0.text': 'A draft heading', op: 'preview' },
      viewer,
    );
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(preview.body).toContain('A draft heading');
    expect(preview.body).toContain('<meta name="robots" content="noindex">');
    expect(preview.body).toContain('class="site-header');
    expect(await version()).toBe(before);
    expect((await get('/about')).body).not.toContain('A draft heading');
    const stale = await get('/admin/pages/about/preview', draftEditor);
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toContain('About the studio');
    const api = await call('POST', '/api/admin/pages/about/preview', admin, {
      blocks: [{ type: 'heading', text: 'From the API', level: 1 }],
    });
    expect(api.statusCode).toBe(200);
    expect(api.body).toContain('From the API');
    const bad = await form('/admin/pages/about/preview', { ...fields, 'b0.text': '' }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Block 1 (Heading): must not be empty');
  });

  it('creates a page, refusing a bad URL with the spec text and a taken one, and moves it in the navigation', async () => {
    const v = await version();
    const bad = await form('/admin/pages', { baseVersion: String(v), title: 'Visit us', path: 'visit us!' }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('visit us! is not a valid page URL');
    const taken = await form('/admin/pages', { baseVersion: String(v), title: 'Shop', path: '/shop' }, admin);
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain('This page URL already exists');
    const apiBad = await call('POST', '/api/admin/pages', admin, { baseVersion: v, title: 'X', path: '/Bad Path' });
    expect(apiBad.statusCode).toBe(400);
    expect(apiBad.json()).toMatchObject({
      code: 'invalid-input',
      field: 'path',
      message: '/Bad Path is not a valid page URL',
    });
    const apiTaken = await call('POST', '/api/admin/pages', admin, { baseVersion: v, title: 'X', path: 'about' });
    expect(apiTaken.statusCode).toBe(409);
    expect(apiTaken.json()).toMatchObject({ code: 'site-edit-refused', message: 'This page URL already exists' });

    const made = await form(
      '/admin/pages',
      { baseVersion: String(v), title: 'Visit us', path: 'Visit-Us/', showInNavigation: 'yes' },
      admin,
    );
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toMatch(/^\/admin\/pages\/visit-us\?done=/);
    expect((await get('/visit-us')).body).toContain('<h1');
    expect((await navigation()).slice(-1)).toEqual(['/visit-us']);
    // Up past the two hidden pages and Contact: the header follows.
    for (let i = 0; i < 3; i++) {
      const up = await form(
        '/admin/pages/visit-us/move',
        { baseVersion: String(await version()), direction: 'up' },
        admin,
      );
      expect(up.statusCode).toBe(303);
    }
    expect((await stored()).pages.map((p) => p.id)).toEqual([
      'home',
      'about',
      'visit-us',
      'contact',
      'coming-soon',
      'wholesale',
    ]);
    const nav = await navigation();
    expect(nav.indexOf('/visit-us')).toBeLessThan(nav.indexOf('/contact'));
    const first = await call('POST', '/api/admin/pages/home/move', admin, {
      baseVersion: await version(),
      direction: 'up',
    });
    expect(first.statusCode).toBe(409);
    expect(first.json().message).toBe('“Home” is already the first page.');
  });

  it('renames, hides, locks with a hashed password and opens a page again through the JSON API', async () => {
    let v = await version();
    const renamed = await call('PATCH', '/api/admin/pages/visit-us', editor, {
      baseVersion: v,
      title: 'Find us',
      path: '/find-us',
      showInNavigation: false,
      password: 'open sesame',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().page).toMatchObject({
      id: 'visit-us',
      title: 'Find us',
      path: '/find-us',
      showInNavigation: false,
      locked: true,
    });
    expect(renamed.body).not.toContain('sesame');
    expect((await page('visit-us'))!.password).toMatch(/^scrypt\$/);
    expect(await navigation()).not.toContain('/find-us');
    const locked = await get('/find-us');
    expect(locked.body).toContain('This page is protected. Enter its password to see it.');
    v = await version();
    const opened = await call('PATCH', '/api/admin/pages/visit-us', editor, {
      baseVersion: v,
      password: null,
      showInNavigation: true,
    });
    expect(opened.statusCode).toBe(200);
    expect((await page('visit-us'))!.password).toBeUndefined();
    expect(await navigation()).toContain('/find-us');
    const got = await get('/api/admin/pages/visit-us', viewer);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ version: await version(), page: { title: 'Find us', locked: false } });
  });

  it('adds, moves and removes blocks with the form, each a version', async () => {
    let fields = await editorFields('visit-us');
    let done = await form('/admin/pages/visit-us', { ...fields, op: 'add', addKind: 'text' }, admin);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toContain('#block-2');
    fields = await editorFields('visit-us');
    done = await form('/admin/pages/visit-us', { ...fields, 'b1.text': 'Open Thursday to Sunday.', op: 'up:1' }, admin);
    expect(done.statusCode).toBe(303);
    expect((await page('visit-us'))!.blocks).toEqual([
      { type: 'text', text: 'Open Thursday to Sunday.' },
      { type: 'heading', text: 'Visit us', level: 1 },
    ]);
    fields = await editorFields('visit-us');
    done = await form('/admin/pages/visit-us', { ...fields, op: 'remove:0' }, admin);
    expect(done.statusCode).toBe(303);
    expect((await page('visit-us'))!.blocks.map((b) => b.type)).toEqual(['heading']);
    const gone = await form('/admin/pages/visit-us', { ...fields, op: 'remove:1' }, admin);
    expect(gone.statusCode).toBe(409);
  });

  it('adds a video block from its address (YouTube, Vimeo) or another provider’s embed code, each field checked', async () => {
    const add = async (video: Record<string, string>) =>
      form(
        '/admin/pages/visit-us',
        { ...(await editorFields('visit-us')), op: 'add', addKind: 'video', ...video },
        admin,
      );
    const fieldError = (html: string, field: string) =>
      new RegExp(`id="field-${field}-error"[^>]*>([^<]*)<`).exec(html)?.[1]?.replace(/&#x27;/g, "'");

    const before = await version();
    const refused = await add({
      'addVideo.url': 'http://www.dailymotion.com/video/x8abc',
      'addVideo.title': '',
      'addVideo.embed': '',
    });
    expect(refused.statusCode).toBe(400);
    expect(fieldError(refused.body, 'addVideo-url')).toBe(
      'must be an https address (like https://www.youtube.com/watch?v=…)',
    );
    expect(fieldError(refused.body, 'addVideo-title')).toBe('must not be empty');
    expect(fieldError(refused.body, 'addVideo-embed')).toBe(EMBED_NEEDED);
    expect(refused.body).toContain('New video block: address: must be an https address');
    // What was typed is kept, and nothing was saved.
    expect(refused.body).toContain('value="http://www.dailymotion.com/video/x8abc"');
    expect(refused.body).toMatch(/<option value="video" selected="">Video<\/option>/);
    expect(await version()).toBe(before);

    const script = await add({
      'addVideo.url': 'https://www.dailymotion.com/video/x8abc',
      'addVideo.title': 'The kiln',
      'addVideo.embed': '<script>alert(1)</script>',
    });
    expect(script.statusCode).toBe(400);
    expect(fieldError(script.body, 'addVideo-embed')).toBe(
      "must be the provider's embed code: one &lt;iframe …&gt;&lt;/iframe&gt; element and nothing else",
    );

    const youTube = await add({
      'addVideo.url': 'https://youtu.be/ZbZSe6N_BXs',
      'addVideo.title': 'Glazing day',
      'addVideo.embed': '',
    });
    expect(youTube.statusCode, youTube.body.slice(0, 400)).toBe(303);
    expect(youTube.headers.location).toContain('#block-2');
    const other = await add({
      'addVideo.url': 'https://www.dailymotion.com/video/x8abc',
      'addVideo.title': 'The kiln',
      'addVideo.embed':
        '<iframe src="https://www.dailymotion.com/embed/video/x8abc" width="640" height="360"></iframe>',
    });
    expect(other.statusCode).toBe(303);
    const blocks = (await page('visit-us'))!.blocks;
    expect(blocks.slice(1)).toEqual([
      {
        type: 'video',
        url: 'https://youtu.be/ZbZSe6N_BXs',
        title: 'Glazing day',
        oembed: {
          html: '<iframe width="560" height="315" src="https://www.youtube-nocookie.com/embed/ZbZSe6N_BXs" title="Glazing day" allowfullscreen></iframe>',
          providerName: 'YouTube',
        },
        overlay: { file: expect.stringMatching(/^images\//), altText: '', focalPoint: { x: 0.5, y: 0.5 } },
      },
      {
        type: 'video',
        url: 'https://www.dailymotion.com/video/x8abc',
        title: 'The kiln',
        oembed: {
          html: '<iframe src="https://www.dailymotion.com/embed/video/x8abc" width="640" height="360"></iframe>',
        },
        overlay: expect.objectContaining({ altText: '' }),
      },
    ]);
    const shown = (await get((await page('visit-us'))!.path)).body;
    expect(shown).toMatch(/Play video: (<!-- -->)?Glazing day/);
    expect(shown).toMatch(/Play video: (<!-- -->)?The kiln/);
    expect(shown).toContain('https://www.youtube-nocookie.com/embed/ZbZSe6N_BXs');

    // The block's own fields: a new address with the embed code emptied makes the player again (Vimeo), the overlay
    // is chosen from the site's images; a wrong embed code is refused under its field.
    let fields = await editorFields('visit-us');
    expect(fields['b1.url']).toBe('https://youtu.be/ZbZSe6N_BXs');
    const wrong = await form('/admin/pages/visit-us', { ...fields, 'b2.embed': '<iframe></iframe>' }, admin);
    expect(wrong.statusCode).toBe(400);
    expect(fieldError(wrong.body, 'b2-embed')).toBe("must have the iframe's src attribute (the player's address)");
    fields = await editorFields('visit-us');
    const overlay = (await editorFields('home'))['b0.file'] as string;
    const changed = await form(
      '/admin/pages/visit-us',
      {
        ...fields,
        'b1.url': 'https://vimeo.com/76979871',
        'b1.embed': '',
        'b1.provider': '',
        'b1.file': overlay,
        'b1.alt': 'Hands in clay',
      },
      admin,
    );
    expect(changed.statusCode, changed.body.slice(0, 400)).toBe(303);
    expect((await page('visit-us'))!.blocks[1]).toMatchObject({
      url: 'https://vimeo.com/76979871',
      oembed: {
        html: '<iframe width="560" height="315" src="https://player.vimeo.com/video/76979871" title="Glazing day" allowfullscreen></iframe>',
        providerName: 'Vimeo',
      },
      overlay: { file: overlay, altText: 'Hands in clay' },
    });
    // The JSON API takes the block as the site file has it, checked by the same schema.
    const blocksNow = (await page('visit-us'))!.blocks;
    const badApi = await call('PATCH', '/api/admin/pages/visit-us', admin, {
      baseVersion: await version(),
      blocks: [...blocksNow, { ...blocksNow[1], oembed: { html: '<iframe src="http://a.example/"></iframe>' } }],
    });
    expect(badApi.statusCode).toBe(400);
    expect(badApi.json()).toMatchObject({
      code: 'invalid-input',
      field: 'blocks.3.oembed.html',
      message:
        'blocks.3.oembed.html must have an iframe src that is an https address (like https://www.youtube.com/embed/…).',
    });
    fields = await editorFields('visit-us');
    expect((await form('/admin/pages/visit-us', { ...fields, op: 'remove:2' }, admin)).statusCode).toBe(303);
    fields = await editorFields('visit-us');
    expect((await form('/admin/pages/visit-us', { ...fields, op: 'remove:1' }, admin)).statusCode).toBe(303);
  });

  it('edits an image block’s alt text and focal point, a gallery’s options and a product grid’s count', async () => {
    const fields = await editorFields('home');
    expect(fields['b0.focusX']).toBe('50');
    const bad = await form('/admin/pages/home', { ...fields, 'b0.focusX': '140' }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must be a number from 0 to 100 (%)');
    expect(bad.body).toContain('aria-invalid="true"');
    const saved = await form(
      '/admin/pages/home',
      { ...fields, 'b0.alt': 'Mugs in the morning light', 'b0.focusX': '30', 'b0.focusY': '70', 'b4.limit': '3' },
      admin,
    );
    expect(saved.statusCode).toBe(303);
    const home = (await page('home'))!;
    expect(home.blocks[0]).toMatchObject({
      image: { altText: 'Mugs in the morning light', focalPoint: { x: 0.3, y: 0.7 } },
    });
    expect(home.blocks[4]).toMatchObject({ type: 'productGrid', limit: 3 });
    const about = await editorFields('about');
    expect(about['b2.flags']).toEqual(['auto-crop', 'controls', 'lightbox', 'show-meta', 'thumbnails']);
    const gallery = await form(
      '/admin/pages/about',
      {
        ...about,
        'b2.design': 'grid',
        'b2.flags': ['lightbox'],
        'b2.thumbnailsPerRow': '3',
        'b2.img0.alt': 'The wheel, turning',
      },
      admin,
    );
    expect(gallery.statusCode, gallery.body.slice(0, 300)).toBe(303);
    expect((await page('about'))!.blocks[2]).toMatchObject({
      type: 'gallery',
      design: 'grid',
      flags: ['lightbox'],
      thumbnailsPerRow: 3,
      images: [{ altText: 'The wheel, turning', title: 'The wheel' }, {}, {}, {}, {}],
    });
  });

  it('refuses a stale save of the same page with what changed and by whom, and keeps another page’s edit', async () => {
    const base = await version();
    const fields = await editorFields('contact');
    const first = await call('PATCH', '/api/admin/pages/contact', editor, { baseVersion: base, title: 'Write to us' });
    expect(first.statusCode).toBe(200);
    // A refused form shown again keeps the version it was made from: saved again, it is still checked.
    const invalid = await form('/admin/pages/contact', { ...fields, 'b0.text': '' }, admin);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain(`name="baseVersion" value="${base}"`);
    const late = await form('/admin/pages/contact', { ...fields, 'b0.text': 'Say hello' }, admin);
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain(
      `Not saved: this was changed since you opened it, by ${editorEmail} (version ${base + 1})`,
    );
    expect(late.body).toContain('Page “Write to us” (contact): title changed');
    const lateApi = await call('PATCH', '/api/admin/pages/contact', admin, { baseVersion: base, title: 'Mine' });
    expect(lateApi.statusCode).toBe(409);
    expect(lateApi.json().code).toBe('site-edit-stale');
    expect((await page('contact'))!.title).toBe('Write to us');
    // Another page saved from the same old version goes through.
    const other = await call('PATCH', '/api/admin/pages/about', admin, { baseVersion: base, title: 'Our studio' });
    expect(other.statusCode).toBe(200);
  });

  it('loses no save when editors save at the same moment: other pages all kept, the same page once', async () => {
    const base = await version();
    const others = await Promise.all(
      ['home', 'about', 'contact', 'coming-soon'].map((id, i) =>
        call('PATCH', `/api/admin/pages/${id}`, i % 2 ? admin : editor, {
          baseVersion: base,
          showInNavigation: i % 2 === 0,
        }),
      ),
    );
    expect(others.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await version()).toBe(base + 4);
    const pages = await stored();
    expect(
      ['home', 'about', 'contact', 'coming-soon'].map((id) => pages.pages.find((p) => p.id === id)!.showInNavigation),
    ).toEqual([true, false, true, false]);
    const again = await version();
    const same = await Promise.all(
      ['First', 'Second'].map((title) => call('PATCH', '/api/admin/pages/about', admin, { baseVersion: again, title })),
    );
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = same.find((r) => r.statusCode === 200)!.json<{ page: { title: string } }>().page.title;
    expect((await page('about'))!.title).toBe(winner);
    // Put back what the next tests read.
    const v = await version();
    await call('PATCH', '/api/admin/pages/about', admin, { baseVersion: v, showInNavigation: true });
  });

  it('renames and moves a collection, and the navigation follows', async () => {
    const renamed = await form(
      '/admin/collections/journal',
      { baseVersion: String(await version()), title: 'Notes' },
      admin,
    );
    expect(renamed.statusCode).toBe(303);
    expect((await get('/')).body).toContain('>Notes</a>');
    const moved = await call('POST', '/api/admin/collections/journal/move', admin, {
      baseVersion: await version(),
      direction: 'up',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().order).toEqual(['journal', 'shop']);
    const nav = await navigation();
    expect(nav.indexOf('/blog')).toBeLessThan(nav.indexOf('/shop'));
  });

  it('deletes a page after confirming', async () => {
    const unconfirmed = await form('/admin/pages/visit-us/delete', { baseVersion: String(await version()) }, admin);
    expect(unconfirmed.statusCode).toBe(422);
    const deleted = await form(
      '/admin/pages/visit-us/delete',
      { baseVersion: String(await version()), confirm: 'yes' },
      admin,
    );
    expect(deleted.statusCode).toBe(303);
    expect(await page('visit-us')).toBeUndefined();
    expect((await get('/find-us')).statusCode).toBe(404);
    expect((await listAudit(getDb(), 'demo', { limit: 1 })).records[0]).toMatchObject({ action: 'page.delete' });
    expect((await call('DELETE', `/api/admin/pages/visit-us?baseVersion=${await version()}`, admin)).statusCode).toBe(
      404,
    );
    const home = await call('DELETE', `/api/admin/pages/home?baseVersion=${await version()}`, admin);
    expect(home.statusCode).toBe(409);
    expect(home.json().message).toBe(
      'The home page cannot be deleted: give another page the URL / first, then delete this one.',
    );
  });

  it('exports the site as edited in the browser, and a fresh database imports the same pages and collections', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-pages-'));
    const fresh = await createFreshDb(engine);
    try {
      await exportSiteToFile(getDb(), 'demo', join(dir, 'site.json'));
      await importSiteFile(fresh.db, join(dir, 'site.json'));
      const again = (await readSite(fresh.db, 'demo'))!.site;
      const edited = await stored();
      expect(again.pages).toEqual(edited.pages);
      expect(again.collections).toEqual(edited.collections);
      expect(again.pages.find((p) => p.id === 'home')!.blocks[1]).toEqual({
        type: 'heading',
        text: 'Pots, cups and coffee',
        level: 1,
      });
    } finally {
      await fresh.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets a viewer, and a draft editor the published home page, look but not save (403), and sends nobody signed in to the sign-in', async () => {
    const v = await version();
    for (const [cookie, notice] of [
      [viewer, 'Your account (viewer) may look and preview, not save.'],
      [draftEditor, 'A draft editor changes drafts only: the home page (/) is always published.'],
    ] as const) {
      const page = await get('/admin/pages/home', cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(notice);
      expect(page.body).not.toContain('value="save"');
      const refused = await call('PATCH', '/api/admin/pages/home', cookie, { baseVersion: v, title: 'Nope' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('role-not-allowed');
      const refusedForm = await form('/admin/pages/home', { baseVersion: String(v), title: 'Nope' }, cookie);
      expect(refusedForm.statusCode).toBe(403);
    }
    const nobody = await get('/admin/pages');
    expect(nobody.statusCode).toBe(303);
    expect(nobody.headers.location).toBe('/account/sign-in?next=%2Fadmin%2Fpages');
    expect((await get('/api/admin/pages')).statusCode).toBe(401);
    expect((await get('/admin/pages/home/preview')).statusCode).toBe(401);
    expect((await page('home'))!.title).toBe('Home');
    expect(await version()).toBe(v);
  });

  it('answers bad input with a clear 4xx, never a 500', async () => {
    expect((await get('/admin/pages/nope', admin)).statusCode).toBe(404);
    expect((await get('/admin/pages/NOPE!', admin)).statusCode).toBe(404);
    expect((await get('/api/admin/pages/nope', admin)).statusCode).toBe(404);
    const noVersion = await call('PATCH', '/api/admin/pages/home', admin, { title: 'x' });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().field).toBe('baseVersion');
    const unknown = await call('PATCH', '/api/admin/pages/home', admin, { baseVersion: 99_999, title: 'x' });
    expect(unknown.statusCode).toBe(404);
    const badBlock = await call('PATCH', '/api/admin/pages/home', admin, {
      baseVersion: await version(),
      blocks: [{ type: 'heading', text: '' }],
    });
    expect(badBlock.statusCode).toBe(400);
    const missingRef = await call('PATCH', '/api/admin/pages/home', admin, {
      baseVersion: await version(),
      blocks: [{ type: 'product', productId: 'no-such-product' }],
    });
    expect(missingRef.statusCode).toBe(400);
    expect(missingRef.json().message).toContain("product 'no-such-product' does not exist");
    const junk = await form('/admin/pages/home', { baseVersion: 'x', 'b0.focusX': 'abc', op: 'up:9999' }, admin);
    expect(junk.statusCode).toBeGreaterThanOrEqual(400);
    expect(junk.statusCode).toBeLessThan(500);
  });
});
