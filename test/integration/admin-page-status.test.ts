/**
 * Editor statuses in the page editor (issue 26, spec §4) on SQLite and PostgreSQL, with the demo site: a draft editor
 * creates a page (a Draft), saves it as Needs Review and is refused publishing it with the rule's own words (a field
 * error in the form, 403 for the JSON call); staff preview the draft while the store answers 404; an editor publishes
 * it, and the draft editor may change it no more; an editor schedules a page (a time in the site's time zone) and the
 * store shows it only from that time; the list and the JSON list show each page's status; each status change is named
 * in the audit log; bad statuses and times get a clear 400.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { localInputOf, publicationRefusal, PUBLISH_TIME_MESSAGES, STATUS_LABELS } from '../../src/core/publishing';
import { listAudit } from '../../src/modules/admin';
import { importSiteFile } from '../../src/modules/site/import';
import { readSite } from '../../src/modules/site/sites';
import { buildApp } from '../../src/server/app';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');
const HOST = 'localhost';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let editor: string;
  let draftEditor: string;
  let timeZone: string;

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
  const page = async (id: string) => (await readSite(getDb(), 'demo'))!.site.pages.find((p) => p.id === id);
  const doneOf = (location: unknown) => new URL(String(location), 'http://x').searchParams.get('done');
  const lastAudit = async () => (await listAudit(getDb(), 'demo', { limit: 1 })).records[0]!;

  /** The editor form's text fields and its chosen status (the radios: the checked one). */
  const editorFields = async (id: string, cookie: string) => {
    const html = (await get(`/admin/pages/${id}`, cookie)).body;
    const body = /<form[^>]*id="page-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? '';
    const fields: Record<string, string> = {};
    for (const m of body.matchAll(/<input([^>]*)>/g)) {
      const attrs = m[1]!;
      const name = /\sname="([^"]+)"/.exec(attrs)?.[1];
      const type = /\stype="([^"]+)"/.exec(attrs)?.[1];
      if (!name || ((type === 'checkbox' || type === 'radio') && !/\schecked=""/.test(attrs))) continue;
      fields[name] = (/\svalue="([^"]*)"/.exec(attrs)?.[1] ?? '').replace(/&amp;/g, '&');
    }
    for (const m of body.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/textarea>/g)) fields[m[1]!] = m[2]!;
    for (const m of body.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g))
      fields[m[1]!] = /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(m[2]!)?.[1] ?? '';
    return { html, fields };
  };
  /** The statuses the editor's form offers (the radios' values, in order). */
  const offered = (html: string) =>
    [...html.matchAll(/<input[^>]*type="radio"[^>]*name="status"[^>]*>/g)].map(
      (m) => /\svalue="([^"]+)"/.exec(m[0])![1],
    );
  /** The status badge beside page `title` in the pages list. */
  const listedStatus = async (title: string, cookie: string) => {
    const html = (await get('/admin/pages', cookie)).body;
    const row = new RegExp(`>${title}</a> <span class="admin-badge[^"]*">([^<]+)</span>`).exec(html);
    return row?.[1];
  };

  beforeAll(async () => {
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    await importSiteFile(getDb(), DEMO);
    timeZone = (await readSite(getDb(), 'demo'))!.site.website.timeZone;
    editor = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.EDITOR)).email);
    draftEditor = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.DRAFT_EDITOR)).email);
  }, 60_000);
  afterAll(async () => app?.close());

  it("a draft editor's page is a Draft: listed so, previewed by staff, a 404 on the store; saved as Needs Review", async () => {
    const created = await form(
      '/admin/pages',
      { baseVersion: String(await version()), title: 'Workshop', path: '/workshop' },
      draftEditor,
    );
    expect(created.statusCode, created.body.slice(0, 300)).toBe(303);
    expect(created.headers.location).toMatch(/^\/admin\/pages\/workshop\?/);
    expect(doneOf(created.headers.location)).toBe(
      `Created “Workshop” (version ${await version()}). It is Draft: not on the store; staff see it in the preview.`,
    );
    expect((await page('workshop'))!.status).toBe('draft');
    expect(await listedStatus('Workshop', draftEditor)).toBe('Draft');
    expect((await get('/workshop')).statusCode).toBe(404);
    const preview = await get('/admin/pages/workshop/preview', draftEditor);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('Workshop');
    expect(preview.headers['x-robots-tag']).toBe('noindex');

    const { html, fields } = await editorFields('workshop', draftEditor);
    expect(offered(html)).toEqual(['draft', 'needs-review']);
    expect(fields.status).toBe('draft');
    const saved = await form('/admin/pages/workshop', { ...fields, status: 'needs-review', op: 'save' }, draftEditor);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    expect(doneOf(saved.headers.location)).toBe(
      `Saved: version ${await version()}. It is Needs Review: not on the store; staff see it in the preview.`,
    );
    expect((await page('workshop'))!.status).toBe('needs-review');
    expect(await listedStatus('Workshop', editor)).toBe('Needs Review');
    expect((await get('/workshop')).statusCode).toBe(404);
    expect((await lastAudit()).summary).toBe('Changed the page “Workshop”: status: Draft → Needs Review');
  });

  it('refuses a draft editor publishing or scheduling, with the rule’s words by the Status field (403), saving nothing', async () => {
    const before = await version();
    const refusal = publicationRefusal(ContributorRole.DRAFT_EDITOR, 'page', 'needs-review', 'published')!;
    expect(refusal).toBe(
      'A draft editor saves drafts only: save this page as Draft or Needs Review, and an editor publishes it.',
    );
    const { fields } = await editorFields('workshop', draftEditor);
    const refused = await form('/admin/pages/workshop', { ...fields, status: 'published', op: 'save' }, draftEditor);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain(`<span class="admin-field-error" id="field-status-error">${refusal}</span>`);
    const json = await call('PATCH', '/api/admin/pages/workshop', draftEditor, {
      baseVersion: before,
      status: 'scheduled',
      publishAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(json.statusCode).toBe(403);
    expect(json.json()).toMatchObject({ code: 'role-not-allowed', message: refusal, field: 'status' });
    expect((await page('workshop'))!.status).toBe('needs-review');
    expect(await version()).toBe(before);
  });

  it('lets an editor publish it; the store shows it, and the draft editor may change it no more', async () => {
    const published = await call('PATCH', '/api/admin/pages/workshop', editor, {
      baseVersion: await version(),
      status: 'published',
    });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().page).not.toHaveProperty('status');
    expect((await lastAudit()).summary).toBe('Changed the page “Workshop”: status: Needs Review → Published');
    expect((await get('/workshop')).statusCode).toBe(200);
    const listed = (await get('/api/admin/pages', editor)).json() as { pages: { id: string; status: string }[] };
    expect(listed.pages.find((p) => p.id === 'workshop')!.status).toBe('published');

    const live = publicationRefusal(ContributorRole.DRAFT_EDITOR, 'page', 'published', 'draft')!;
    expect(live).toBe(
      'A draft editor changes drafts only: this page is Published. An editor may set it back to Draft.',
    );
    const { html } = await editorFields('workshop', draftEditor);
    expect(html).toContain(live);
    expect(html).not.toContain('value="save"');
    const refused = await call('PATCH', '/api/admin/pages/workshop', draftEditor, {
      baseVersion: await version(),
      title: 'Workshops',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(live);
    const deleted = await call('DELETE', `/api/admin/pages/workshop?baseVersion=${await version()}`, draftEditor);
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json().message).toBe('A draft editor deletes drafts only: this page is Published.');
    expect((await page('workshop'))!.title).toBe('Workshop');
  });

  it("schedules a page in the site's time zone: the store shows it only from its time", async () => {
    const at = Date.now() + 61_000;
    const typed = localInputOf(new Date(at).toISOString(), timeZone);
    const { fields } = await editorFields('workshop', editor);
    const saved = await form(
      '/admin/pages/workshop',
      { ...fields, status: 'scheduled', publishAt: typed, op: 'save' },
      editor,
    );
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    const stored = (await page('workshop'))!;
    expect(stored.status).toBe('scheduled');
    // The minute typed, in the site's time zone: read back, it is the same wall-clock time.
    expect(localInputOf(stored.publishAt!, timeZone)).toBe(typed);
    expect(Math.abs(Date.parse(stored.publishAt!) - at)).toBeLessThan(60_000);
    expect(doneOf(saved.headers.location)).toBe(
      `Saved: version ${await version()}. It goes on the store at ${typed.replace('T', ' ')} (${timeZone}).`,
    );
    expect((await lastAudit()).summary).toBe('Changed the page “Workshop”: status: Published → Scheduled');
    expect(await listedStatus('Workshop', editor)).toBe(STATUS_LABELS.scheduled);
    expect((await editorFields('workshop', editor)).fields.publishAt).toBe(typed);
    expect((await get('/workshop')).statusCode).toBe(404);

    // A second ahead through the JSON call (a time with its offset): a 404 until then, the page from then on.
    const soon = Date.now() + 1500;
    const json = await call('PATCH', '/api/admin/pages/workshop', editor, {
      baseVersion: await version(),
      status: 'scheduled',
      publishAt: new Date(soon).toISOString(),
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().page).toMatchObject({ status: 'scheduled', publishAt: new Date(soon).toISOString() });
    expect((await lastAudit()).summary).toBe('Changed the page “Workshop”: publish time');
    await expect.poll(async () => (await get('/workshop')).statusCode, { timeout: 3000 }).toBe(404);
    expect(Date.now()).toBeLessThan(soon);
    await expect.poll(async () => (await get('/workshop')).statusCode, { timeout: 5000, interval: 50 }).toBe(200);
    expect(Date.now()).toBeGreaterThanOrEqual(soon);
    expect(await listedStatus('Workshop', editor)).toBe('Published');
  }, 30_000);

  it('keeps a scheduled time with seconds when the form sends back the minute it showed (or the call the same instant)', async () => {
    // Scheduled for 10:30:45, saved unchanged at 10:30:20: the form shows 10:30, already past. (In the clock's past,
    // so that the audit entries of the tests after this one are still the latest.)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 600_000 });
    try {
      const at = Math.floor((Date.now() + 120_000) / 60_000) * 60_000 + 45_000;
      const iso = new Date(at).toISOString();
      const made = await call('POST', '/api/admin/pages', editor, {
        baseVersion: await version(),
        title: 'Glaze launch',
        path: '/glaze-launch',
        status: 'scheduled',
        publishAt: iso,
      });
      expect(made.statusCode, made.body).toBe(201);
      vi.setSystemTime(at - 25_000);
      const { fields } = await editorFields('glaze-launch', editor);
      expect(fields).toMatchObject({ status: 'scheduled', publishAt: localInputOf(iso, timeZone) });
      const saved = await form(
        '/admin/pages/glaze-launch',
        { ...fields, title: 'Glaze launch day', op: 'save' },
        editor,
      );
      expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
      expect(await page('glaze-launch')).toMatchObject({
        title: 'Glaze launch day',
        status: 'scheduled',
        publishAt: iso,
      });
      // Its audit entry names the title only (the entries are in the clock's past: found by their page).
      const entries = (await listAudit(getDb(), 'demo', { limit: 50 })).records;
      expect(entries.find((e) => e.subject?.id === 'glaze-launch' && e.action === 'page.update')?.summary).toBe(
        'Changed the page “Glaze launch day”: title',
      );
      // The JSON call sending the minute the editor shows, or the stored instant: kept too.
      for (const publishAt of [localInputOf(iso, timeZone), iso]) {
        const json = await call('PATCH', '/api/admin/pages/glaze-launch', editor, {
          baseVersion: await version(),
          status: 'scheduled',
          publishAt,
        });
        expect(json.statusCode, json.body).toBe(200);
        expect(json.json().page).toMatchObject({ status: 'scheduled', publishAt: iso });
      }
      // Another minute that has passed is still refused.
      const earlier = localInputOf(new Date(at - 60_000).toISOString(), timeZone);
      const refused = await form('/admin/pages/glaze-launch', { ...fields, publishAt: earlier, op: 'save' }, editor);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(PUBLISH_TIME_MESSAGES.past);
      expect((await page('glaze-launch'))!.publishAt).toBe(iso);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a bad status or publish time with a 400 by its field, and the home page stays published', async () => {
    const v = await version();
    const patch = (body: object) => call('PATCH', '/api/admin/pages/workshop', editor, { baseVersion: v, ...body });
    const unknown = await patch({ status: 'live' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('status');
    const none = await patch({ status: 'scheduled' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: 'publishAt', message: `publishAt: ${PUBLISH_TIME_MESSAGES.missing}` });
    const past = await patch({ status: 'scheduled', publishAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.json()).toMatchObject({ field: 'publishAt', message: `publishAt: ${PUBLISH_TIME_MESSAGES.past}` });
    const stray = await patch({ status: 'draft', publishAt: new Date(Date.now() + 60_000).toISOString() });
    expect(stray.statusCode).toBe(400);
    expect(stray.json().field).toBe('publishAt');
    const home = await call('PATCH', '/api/admin/pages/home', editor, { baseVersion: v, status: 'draft' });
    expect(home.statusCode).toBe(400);
    expect(home.json().message).toContain('the home page (/) is always published: leave status out');

    const { fields } = await editorFields('workshop', editor);
    const badTime = await form(
      '/admin/pages/workshop',
      { ...fields, status: 'scheduled', publishAt: 'soon', op: 'save' },
      editor,
    );
    expect(badTime.statusCode).toBe(400);
    expect(badTime.body).toContain(
      `<span class="admin-field-error" id="field-publishAt-error">${PUBLISH_TIME_MESSAGES.invalid}</span>`,
    );
    expect(badTime.body).toContain('aria-invalid="true"');
    expect(await version()).toBe(v);
    // The home page's editor has no Status: it is always published.
    const homeEditor = (await get('/admin/pages/home', editor)).body;
    expect(homeEditor).not.toContain('name="status"');
    expect(homeEditor).toContain('The home page (/) is always published.');
  });

  it('lets a draft editor delete a draft page, with its audit entry', async () => {
    const made = await call('POST', '/api/admin/pages', draftEditor, {
      baseVersion: await version(),
      title: 'Scratch',
      path: '/scratch',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().page).toMatchObject({ id: 'scratch', status: 'draft' });
    const deleted = await call('DELETE', `/api/admin/pages/scratch?baseVersion=${await version()}`, draftEditor);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await page('scratch')).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ action: 'page.delete', subject: { type: 'page', id: 'scratch' } });
  });

  it('creates a page with a status: the new-page form offers the role’s, a draft editor’s publishing refused (403)', async () => {
    // The new-page form: a draft editor chooses between Draft (chosen) and Needs Review; an editor has every status.
    const draftList = (await get('/admin/pages', draftEditor)).body;
    expect(offered(draftList)).toEqual(['draft', 'needs-review']);
    expect(draftList).toMatch(/<input[^>]*checked=""[^>]*value="draft"|<input[^>]*value="draft"[^>]*checked=""/);
    expect(offered((await get('/admin/pages', editor)).body)).toEqual([
      'published',
      'draft',
      'needs-review',
      'scheduled',
    ]);

    const v = await version();
    const create = (fields: Record<string, string>, cookie: string) =>
      form('/admin/pages', { baseVersion: String(v), title: 'Kiln notes', path: '/kiln-notes', ...fields }, cookie);
    const words = publicationRefusal(ContributorRole.DRAFT_EDITOR, 'page', null, 'published')!;
    const refused = await create({ status: 'published' }, draftEditor);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain(`<span class="admin-field-error" id="field-status-error">${words}</span>`);
    const json = await call('POST', '/api/admin/pages', draftEditor, {
      baseVersion: v,
      title: 'Kiln notes',
      path: '/kiln-notes',
      status: 'published',
    });
    expect(json.statusCode).toBe(403);
    expect(json.json()).toMatchObject({ code: 'role-not-allowed', message: words });
    const badTime = await create({ status: 'scheduled', publishAt: 'later' }, editor);
    expect(badTime.statusCode).toBe(400);
    expect(badTime.body).toContain(
      `<span class="admin-field-error" id="field-publishAt-error">${PUBLISH_TIME_MESSAGES.invalid}</span>`,
    );
    expect(await page('kiln-notes')).toBeUndefined();
    expect(await version()).toBe(v);

    // An editor's new page as Needs Review from the form, another Scheduled from the JSON call.
    const made = await create({ status: 'needs-review' }, editor);
    expect(made.statusCode, made.body.slice(0, 300)).toBe(303);
    expect((await page('kiln-notes'))!.status).toBe('needs-review');
    expect((await get('/kiln-notes')).statusCode).toBe(404);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await call('POST', '/api/admin/pages', editor, {
      baseVersion: await version(),
      title: 'Open studio',
      path: '/open-studio',
      status: 'scheduled',
      publishAt: at,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    expect(scheduled.json().page).toMatchObject({ status: 'scheduled', publishAt: at });
    expect((await lastAudit()).after).toMatchObject({ status: 'scheduled', publishAt: at });
    expect((await get('/open-studio')).statusCode).toBe(404);
  });
});
