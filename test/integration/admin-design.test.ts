/**
 * The design editor (/admin/design, issue 26) on SQLite and PostgreSQL: a website manager saves colours (one typed as
 * HSL, one picked), fonts, button shape and a logo — a new version by them with its audit entry, shown on the
 * storefront at once; a colour out of §5's bounds ('Hue out of bounds.') or too close to its background (the pair
 * and its ratio) is refused and nothing is written; Preview saves nothing; the menu is built and reordered with up
 * and down, the footer takes a page path or a host and refuses others with §5's texts; a form made from an older
 * version after someone else saved the design is refused with what changed and by whom; the JSON twin saves, refuses
 * bad input with the field's name (400) and stale saves (409); a viewer gets 403, nobody signed in the sign-in.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { readSite, replaceSite, type SiteAsset } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { buildApp } from '../../src/server/app';
import { checkoutSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const SITE = 'shop';

/** A multipart form as a browser posts it: the fields, then the file. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----vitrineDesignBoundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let manager: string;
  let managerEmail: string;
  let admin: string;
  let viewer: string;
  let logo: SiteAsset;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const put = (url: string, body: unknown, cookie: string) =>
    app.inject({
      method: 'PUT',
      url,
      headers: { host: SHOP_HOST, cookie, [CRUMB_HEADER]: TEST_CRUMB, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const form = (url: string, fields: Record<string, string>, cookie: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields, [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });
  const stored = async () => (await readSite(getDb(), SITE))!.site;
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', SITE).executeTakeFirstOrThrow()).version;
  /** The look's form as the page makes it for the stored design (no colour set: pickers show today's). */
  const lookForm = (base: number, changes: Record<string, string> = {}) => ({
    baseVersion: String(base),
    background: '',
    backgroundWas: '',
    backgroundPicker: '#ffffff',
    backgroundPickerWas: '#ffffff',
    text: '',
    textWas: '',
    textPicker: '#1d1d1f',
    textPickerWas: '#1d1d1f',
    accent: '',
    accentWas: '',
    accentPicker: '#1f4d3a',
    accentPickerWas: '#1f4d3a',
    buttonBackground: '',
    buttonBackgroundWas: '',
    buttonBackgroundPicker: '#1f4d3a',
    buttonBackgroundPickerWas: '#1f4d3a',
    buttonText: '',
    buttonTextWas: '',
    buttonTextPicker: '#ffffff',
    buttonTextPickerWas: '#ffffff',
    headingFont: 'old-style',
    bodyFont: 'system-ui',
    buttonShape: 'pill',
    logo: '',
    logoAlt: 'Shop',
    favicon: '',
    ...changes,
  });

  /** The test shop with an About page and a logo image, saved as an import would save it. */
  const importShop = async () => {
    const input: SiteFileInput = structuredClone(checkoutSite);
    input.pages = [
      { id: 'home', path: '/', title: 'Home' },
      { id: 'about', path: '/about', title: 'About us' },
    ];
    input.products!.find((p) => p.id === 'kit')!.images = [{ file: 'img/logo.png', altText: 'Kit' }];
    const valid = validateSite(input);
    if (!valid.ok) throw new Error(valid.problems.join('\n'));
    return (await replaceSite(getDb(), valid.site, [logo], { stock: 'file' })).site.version;
  };

  beforeAll(async () => {
    const bytes = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c0ffee' } })
      .png()
      .toBuffer();
    logo = { path: 'img/logo.png', contentType: 'image/png', width: 40, height: 20, bytes };
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    await importShop();
    managerEmail = (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.WEBSITE_MANAGER)).email;
    manager = await signIn(app, SHOP_HOST, managerEmail);
    admin = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN)).email);
    viewer = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER)).email);
  });
  beforeEach(async () => {
    await importShop();
  });
  afterAll(async () => app?.close());

  it('saves colours, fonts, buttons and a logo as a new version by the editor, shown on the storefront', async () => {
    const base = await version();
    const page = await get('/admin/design', manager);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(`name="baseVersion" value="${base}"`);
    expect(page.body).toContain('<option value="img/logo.png">img/logo.png</option>');

    const saved = await form(
      '/admin/design',
      lookForm(base, {
        accent: 'hsl(220, 70%, 35%)',
        // Picked, not typed: the picker moved, the text stayed as it was.
        backgroundPicker: '#fdf6e3',
        headingFont: 'geometric',
        buttonShape: 'square',
        logo: 'img/logo.png',
        logoAlt: 'Shop home',
      }),
      manager,
    );
    expect(saved.statusCode, saved.body).toBe(303);
    expect(decodeURIComponent(saved.headers.location as string)).toContain(
      `Changed the colours, fonts and logo: saved as version ${base + 1}.`,
    );
    const design = (await stored()).website.design!;
    expect(design.colours).toEqual({ accent: '#1b4498', background: '#fdf6e3' });
    expect(design).toMatchObject({
      headingFont: 'geometric',
      bodyFont: 'system-ui',
      buttonShape: 'square',
      logo: { file: 'img/logo.png', altText: 'Shop home' },
    });
    const versions = (await get('/api/admin/versions?limit=1', manager)).json<{
      versions: { number: number; createdBy: string; source: string; summary: string }[];
    }>();
    expect(versions.versions[0]).toMatchObject({ number: base + 1, createdBy: managerEmail, source: 'admin' });
    const audit = await listAudit(getDb(), SITE, { limit: 1 });
    expect(audit.records[0]).toMatchObject({
      action: 'design.edit',
      actor: managerEmail,
      summary: `Changed the colours, fonts and logo (version ${base + 1})`,
    });

    const home = await get('/');
    expect(home.body).toContain('--site-accent:#1b4498');
    expect(home.body).toContain('--site-background:#fdf6e3');
    expect(home.body).toContain('--site-button-radius:0');
    expect(home.body).toMatch(/<img src="\/assets\/shop\/img\/logo\.png\?v=\d+[^"]*" alt="Shop home"/);
  });

  it("refuses a colour out of §5's bounds and one too close to its background, with the reason; writes nothing", async () => {
    const base = await version();
    const hue = await form('/admin/design', lookForm(base, { accent: 'hsl(400, 50%, 40%)' }), manager);
    expect(hue.statusCode).toBe(422);
    expect(hue.body).toContain('Hue out of bounds.');
    expect(hue.body).toContain('value="hsl(400, 50%, 40%)"');
    const missing = await form('/admin/design', lookForm(base, { text: 'hsl(10, 50%)' }), manager);
    expect(missing.body).toContain('Missing an H/S/L value.');

    const pale = await form('/admin/design', lookForm(base, { text: '#777777' }), manager);
    expect(pale.statusCode).toBe(422);
    expect(pale.body).toContain('Not saved: these colours are too close to be read easily.');
    expect(pale.body).toContain(
      'The text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed.',
    );
    expect(await version()).toBe(base);
    expect((await stored()).website.design).toBeUndefined();
  });

  it('previews the values typed without saving them: the storefront’s home page in the frame', async () => {
    const base = await version();
    const editor = await get('/admin/design', manager);
    expect(editor.body).toContain(
      '<iframe name="design-preview" title="Preview of Shop with this design" src="/admin/design/preview" data-site-editor=""',
    );
    expect(editor.body).toMatch(
      /formAction="\/admin\/design\/preview" formTarget="design-preview"|formaction="\/admin\/design\/preview" formtarget="design-preview"/,
    );
    // The frame's first page: the stored design (none: today's look, no style element).
    const first = await get('/admin/design/preview', manager);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toContain('<meta name="robots" content="noindex">');
    expect(first.body).not.toContain('--site-accent');
    const preview = await form(
      '/admin/design/preview',
      lookForm(base, { accent: '#7a1f5c', headingFont: 'lora', buttonShape: 'square', intent: 'preview' }),
      manager,
    );
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toContain('text/html');
    expect(preview.body).toContain('--site-accent:#7a1f5c');
    expect(preview.body).toContain('--site-button-radius:0');
    expect(preview.body).toMatch(/@font-face\{font-family:'Lora'/);
    expect(preview.body).toContain('<h1');
    // Its style element is allowed by the frame's policy.
    expect(String(preview.headers['content-security-policy'])).toMatch(/style-src 'self'[^;]* 'sha256-/);
    expect(await version()).toBe(base);
    expect((await stored()).website.design).toBeUndefined();
    // A wrong value: what to correct, in the frame, and nothing saved.
    const wrong = await form('/admin/design/preview', lookForm(base, { text: 'hsl(400, 50%, 20%)' }), manager);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('<li>Text: Hue out of bounds.</li>');
    const pale = await form('/admin/design/preview', lookForm(base, { text: '#777777' }), manager);
    expect(pale.body).toContain(
      '<li>The text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed.</li>',
    );
    // The form's own preview intent still saves nothing.
    const again = await form('/admin/design', lookForm(base, { accent: '#7a1f5c', intent: 'preview' }), manager);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Preview: the form keeps the values typed. Nothing is saved yet.');
    expect(await version()).toBe(base);
    // Only staff who may edit the design see it.
    expect((await get('/admin/design/preview', viewer)).statusCode).toBe(403);
    expect((await get('/admin/design/preview')).statusCode).toBe(401);
  });

  it('builds the menu from the storefront’s own, moves a link up and down, and sets it back', async () => {
    let page = await get('/admin/design', manager);
    // The storefront's own: the home page, the shop, then the other pages shown in navigation.
    expect(page.body).toMatch(/Home \(page\)[\s\S]*Shop \(collection\)[\s\S]*About us \(page\)/);
    const up = await form('/admin/design/menu', { baseVersion: String(await version()), op: 'up:about' }, manager);
    expect(up.statusCode, up.body).toBe(303);
    expect(decodeURIComponent(up.headers.location as string)).toContain('Moved About us up in the menu');
    expect((await stored()).website.design!.menu).toEqual(['home', 'about', 'shop']);
    await form('/admin/design/menu', { baseVersion: String(await version()), op: 'remove:home' }, manager);
    expect((await stored()).website.design!.menu).toEqual(['about', 'shop']);
    await form('/admin/design/menu', { baseVersion: String(await version()), op: 'add', item: 'home' }, manager);
    expect((await stored()).website.design!.menu).toEqual(['about', 'shop', 'home']);
    const html = (await get('/')).body;
    const nav = html.slice(html.indexOf('<nav class="site-nav site-nav--wide"'));
    expect(nav.slice(0, nav.indexOf('</nav>'))).toMatch(/>About us<\/a>[\s\S]*>Shop<\/a>[\s\S]*>Home<\/a>/);
    const unknown = await form(
      '/admin/design/menu',
      { baseVersion: String(await version()), op: 'add', item: 'nowhere' },
      manager,
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('nowhere is not one of the expected options');
    await form('/admin/design/menu', { baseVersion: String(await version()), op: 'reset' }, manager);
    expect((await stored()).website.design!.menu).toBeUndefined();
    page = await get('/admin/design', manager);
    expect(page.body).toContain('The menu shows the home page, the shop and blog');
  });

  it("adds footer links to a page or another website, refusing others with §5's texts", async () => {
    const add = async (label: string, link: string) =>
      form('/admin/design/footer', { baseVersion: String(await version()), op: 'add', label, link }, manager);
    expect((await add('About', '/about')).statusCode).toBe(303);
    expect((await add('Terms', 'example.com/terms')).statusCode).toBe(303);
    expect((await stored()).website.design!.footerLinks).toEqual([
      { label: 'About', page: 'about' },
      { label: 'Terms', url: 'https://example.com/terms' },
    ]);
    const noPage = await add('Gone', '/gone');
    expect(noPage.statusCode).toBe(422);
    expect(noPage.body).toContain('/gone is not a valid page URL');
    const notLink = await add('Odd', 'not a link');
    expect(notLink.body).toContain('Links must be formatted as example.com or https://example.com/page');
    const noLabel = await add('', '/about');
    expect(noLabel.body).toContain('Please enter the link’s text.');
    await form('/admin/design/footer', { baseVersion: String(await version()), op: 'down:0' }, manager);
    expect((await stored()).website.design!.footerLinks.map((l) => l.label)).toEqual(['Terms', 'About']);
    const footer = (await get('/')).body;
    expect(footer).toContain('href="https://example.com/terms"');
    await form('/admin/design/footer', { baseVersion: String(await version()), op: 'remove:1' }, manager);
    expect((await stored()).website.design!.footerLinks.map((l) => l.label)).toEqual(['Terms']);
  });

  it('uploads a new logo: stored without EXIF as a site image, the design names it; too large or no file refused', async () => {
    const upload = async (file: { name: string; type: string; bytes: Buffer }, cookie = manager) => {
      const { payload, contentType } = multipart(
        { [CRUMB_FIELD]: TEST_CRUMB, baseVersion: String(await version()), logoAlt: 'Shop home' },
        file,
      );
      return app.inject({
        method: 'POST',
        url: '/admin/design/logo',
        headers: { host: SHOP_HOST, cookie, 'content-type': contentType },
        payload,
      });
    };
    const png = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#7a1f5c' } })
      .png()
      .withMetadata({ exif: { IFD0: { Copyright: 'Secret camera' } } })
      .toBuffer();
    const base = await version();
    const saved = await upload({ name: 'brand mark.png', type: 'image/png', bytes: png });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(decodeURIComponent(saved.headers.location as string)).toContain(
      `Uploaded images/brand-mark.png as the logo: saved as version ${base + 1}.`,
    );
    const content = (await readSite(getDb(), SITE))!;
    expect(content.site.website.design!.logo).toEqual({ file: 'images/brand-mark.png', altText: 'Shop home' });
    const stored = content.assets.find((a) => a.path === 'images/brand-mark.png')!;
    expect(stored).toMatchObject({ contentType: 'image/png', width: 60, height: 30 });
    expect((await sharp(stored.bytes).metadata()).exif).toBeUndefined();
    expect((await get('/')).body).toMatch(
      /<img src="\/assets\/shop\/images\/brand-mark\.png\?v=\d+[^"]*" alt="Shop home"/,
    );

    const none = await upload({ name: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Please enter a file name');
    const big = await upload({ name: 'huge.png', type: 'image/png', bytes: Buffer.alloc(11 * 1024 * 1024, 1) });
    expect(big.statusCode).toBe(413);
    expect(big.body).toContain('The file huge.png is too large. The maximum allowed file size is');
    expect((await upload({ name: 'logo.png', type: 'image/png', bytes: png }, viewer)).statusCode).toBe(403);
    expect(await version()).toBe(base + 1);
  });

  it('refuses a form made before someone else saved the design, saying what changed and by whom', async () => {
    const base = await version();
    const first = await form('/admin/design', lookForm(base, { accent: '#7a1f5c' }), manager);
    expect(first.statusCode).toBe(303);
    const stale = await form('/admin/design', lookForm(base, { accent: '#0b5e2e' }), admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain(`Not saved: this was changed since you opened it, by ${managerEmail} (version`);
    expect(stale.body).toContain('Website settings: design changed');
    expect((await stored()).website.design!.colours).toEqual({ accent: '#7a1f5c' });
  });

  it('saves through the JSON twin, refusing bad input by field (400) and a stale save (409)', async () => {
    const got = await get('/api/admin/design', admin);
    expect(got.statusCode).toBe(200);
    const { version: base, choices } = got.json<{ version: number; choices: { images: string[]; fonts: string[] } }>();
    expect(choices.images).toEqual(['img/logo.png']);
    expect(choices.fonts).toContain('geometric');
    const saved = await put(
      '/api/admin/design',
      {
        baseVersion: base,
        design: {
          colours: { accent: '#7a1f5c' },
          menu: ['about', 'shop'],
          footerLinks: [{ label: 'A', page: 'about' }],
        },
      },
      admin,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ version: base + 1, design: { colours: { accent: '#7a1f5c' } } });

    const contrast = await put(
      '/api/admin/design',
      { baseVersion: base + 1, design: { colours: { text: '#777' } } },
      admin,
    );
    expect(contrast.statusCode).toBe(400);
    expect(contrast.json()).toMatchObject({ code: 'invalid-input', field: 'design.colours' });
    expect(contrast.json<{ message: string }>().message).toContain(
      'text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed',
    );
    const font = await put('/api/admin/design', { baseVersion: base + 1, design: { headingFont: 'comic' } }, admin);
    expect(font.statusCode).toBe(400);
    expect(font.json()).toMatchObject({ code: 'invalid-input', field: 'design.headingFont' });
    const menu = await put('/api/admin/design', { baseVersion: base + 1, design: { menu: ['nowhere'] } }, admin);
    expect(menu.statusCode).toBe(400);
    expect(menu.json()).toMatchObject({ code: 'invalid-input', field: 'website.design.menu[0]' });
    expect((await put('/api/admin/design', { design: {} }, admin)).json()).toMatchObject({ field: 'baseVersion' });
    expect((await put('/api/admin/design', { baseVersion: 999, design: {} }, admin)).statusCode).toBe(404);

    const stale = await put('/api/admin/design', { baseVersion: base, design: {} }, manager);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'site-edit-stale' });
    expect(stale.json<{ message: string }>().message).toContain('Website settings: design changed');
    expect((await stored()).website.design!.colours).toEqual({ accent: '#7a1f5c' });
  });

  it('shows a viewer 403 and nobody signed in the sign-in, changing nothing', async () => {
    const base = await version();
    expect((await get('/admin/design', viewer)).statusCode).toBe(403);
    expect((await get('/api/admin/design', viewer)).statusCode).toBe(403);
    const refused = await form('/admin/design', lookForm(base, { accent: '#7a1f5c' }), viewer);
    expect(refused.statusCode).toBe(403);
    expect((await put('/api/admin/design', { baseVersion: base, design: {} }, viewer)).json()).toMatchObject({
      code: 'role-not-allowed',
    });
    const nobody = await get('/admin/design');
    expect(nobody.statusCode).toBe(303);
    expect(nobody.headers.location).toBe('/account/sign-in?next=%2Fadmin%2Fdesign');
    expect((await get('/api/admin/design')).statusCode).toBe(401);
    const anonymous = await put(
      '/api/admin/design',
      { baseVersion: base, design: {} },
      `${CRUMB_COOKIE}=${TEST_CRUMB}`,
    );
    expect(anonymous.statusCode).toBe(401);
    // Every write carries the crumb of its page: without it, refused even for an admin.
    const noCrumb = await app.inject({
      method: 'PUT',
      url: '/api/admin/design',
      headers: { host: SHOP_HOST, cookie: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ baseVersion: base, design: {} }),
    });
    expect(noCrumb.statusCode).toBe(403);
    expect(noCrumb.json()).toMatchObject({ code: 'crumb-invalid' });
    expect(await version()).toBe(base);
    expect((await get('/admin', viewer)).body).not.toContain('href="/admin/design"');
    expect((await get('/admin', manager)).body).toContain('href="/admin/design"');
  });
});
