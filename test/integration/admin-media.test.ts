/**
 * The media library (/admin/media, issue 26) on SQLite and PostgreSQL: an upload (the JSON API's raw body and the
 * form without JavaScript) is sniffed from its bytes, re-encoded without EXIF, stored as a site image and a site
 * version with its audit entry, and listed with where it is shown; the site's size limit refuses with the spec's
 * text, a missing name with 'Please enter a file name', bytes that are not an image clearly; an image in use cannot be
 * deleted, an unused one can; a viewer looks but cannot upload (403), nobody signed in is sent to sign in (401 / 303).
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { readSite, replaceSite, type SiteAsset } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { buildApp } from '../../src/server/app';
import { shopSite, SHOP_HOST } from '../support/cartSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const SITE = 'shop';

/** A photo as a phone takes it: a JPEG with EXIF (a camera make and a GPS position). */
const photoWithExif = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Pocket 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
    })
    .toBuffer();
const png = (width = 20, height = 10) =>
  sharp({ create: { width, height, channels: 4, background: '#c0ffee80' } })
    .png()
    .toBuffer();

/** A multipart form as a browser posts it: the crumb first, then the file. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----vitrineTestBoundary7MA4YWxk';
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

/** The notice a 303 carries back (`?done=`). */
const doneOf = (location: unknown) => new URL(String(location), 'http://x.invalid').searchParams.get('done');

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let adminEmail: string;
  let viewer: string;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const upload = (fileName: string, bytes: Buffer, cookie: string, type = 'application/octet-stream') =>
    app.inject({
      method: 'POST',
      url: `/api/admin/media?fileName=${encodeURIComponent(fileName)}`,
      headers: { host: SHOP_HOST, cookie, [CRUMB_HEADER]: TEST_CRUMB, 'content-type': type },
      payload: bytes,
    });
  const uploadForm = (file: { name: string; type: string; bytes: Buffer }, cookie: string) => {
    const { payload, contentType } = multipart({ [CRUMB_FIELD]: TEST_CRUMB }, file);
    return app.inject({
      method: 'POST',
      url: '/admin/media',
      headers: { host: SHOP_HOST, cookie, 'content-type': contentType },
      payload,
    });
  };
  const stored = async () => (await readSite(getDb(), SITE))!;

  const save = async (edit: (site: SiteFileInput) => void = () => {}, assets: SiteAsset[] = []) => {
    const input = structuredClone(shopSite);
    edit(input);
    const validation = validateSite(input);
    if (!validation.ok) throw new Error(validation.problems.join('\n'));
    return replaceSite(getDb(), validation.site, assets, { stock: 'file' });
  };

  beforeAll(async () => {
    const kit = await png(8, 6);
    await save(
      (site) => {
        site.website!.media = { maxUploadBytes: 20_000 };
        site.products!.find((p) => p.id === 'kit')!.images = [{ file: 'img/kit.png', altText: 'The kit' }];
      },
      [{ path: 'img/kit.png', contentType: 'image/png', width: 8, height: 6, bytes: kit }],
    );
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    adminEmail = (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN)).email;
    admin = await signIn(app, SHOP_HOST, adminEmail);
    viewer = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER)).email);
  });
  afterAll(async () => app?.close());

  it('stores an uploaded photo re-encoded without its EXIF, as a new version with its audit entry', async () => {
    const photo = await photoWithExif();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const before = (await get('/api/admin/media', admin)).json<{ version: number }>().version;
    // Named .png, but the bytes are a JPEG: the type comes from the bytes.
    const answer = await upload('Holiday Photo.png', photo, admin);
    expect(answer.statusCode).toBe(201);
    const { image, version } = answer.json<{ image: { path: string; contentType: string }; version: number }>();
    expect(image).toMatchObject({ path: 'images/holiday-photo.jpg', contentType: 'image/jpeg', width: 40, height: 30 });
    expect(version).toBe(before + 1);
    const asset = (await stored()).assets.find((a) => a.path === 'images/holiday-photo.jpg')!;
    const meta = await sharp(asset.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(asset.bytes.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect((await stored()).site.website.media?.images).toContain('images/holiday-photo.jpg');
    const served = await get(`/assets/${SITE}/images/holiday-photo.jpg`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const audit = await listAudit(getDb(), SITE, { subject: { type: 'image', id: 'images/holiday-photo.jpg' } });
    expect(audit.records[0]).toMatchObject({ actor: adminEmail, action: 'media.upload' });
    expect(audit.records[0]!.summary).toMatch(
      /^Uploaded images\/holiday-photo\.jpg \(40 × 30 px, [\d.]+ (bytes|KB)\)$/,
    );
    const versions = (await get('/api/admin/versions?limit=1', admin)).json<{
      versions: { createdBy: string; source: string; summary: string }[];
    }>();
    expect(versions.versions[0]).toMatchObject({ createdBy: adminEmail, source: 'admin' });
  });

  it('uploads through the form without JavaScript and lists the images with where each is shown', async () => {
    const answer = await uploadForm(
      { name: 'C:\\fakepath\\Blue Mug.PNG', type: 'image/png', bytes: await png() },
      admin,
    );
    expect(answer.statusCode).toBe(303);
    expect(doneOf(answer.headers.location)).toContain('Uploaded images/blue-mug.png.');
    const again = await uploadForm({ name: 'blue mug.png', type: 'image/png', bytes: await png(30, 30) }, admin);
    expect(again.statusCode).toBe(303);
    expect(doneOf(again.headers.location)).toContain('Uploaded images/blue-mug-2.png.');
    const page = await get('/admin/media', admin);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('images/blue-mug-2.png');
    expect(page.body).toContain('href="/admin/products/kit"');
    expect(page.body).toContain('Product “Kit”');
    expect(page.body).toContain('aria-label="Delete images/blue-mug.png"');
    expect(page.body).not.toContain('aria-label="Delete img/kit.png"');
    const listed = (await get('/api/admin/media', admin)).json<{
      images: { path: string; usedBy: { kind: string; id: string }[] }[];
      maxUploadBytes: number;
    }>();
    expect(listed.maxUploadBytes).toBe(20_000);
    expect(listed.images.slice(0, 2).map((i) => i.path)).toEqual(['images/blue-mug-2.png', 'images/blue-mug.png']);
    expect(listed.images.find((i) => i.path === 'img/kit.png')!.usedBy).toEqual([
      { kind: 'product', id: 'kit', name: 'Kit' },
    ]);
  });

  it("refuses a file over the site's limit with the spec's text, and a missing name or non-image clearly", async () => {
    const big = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000' } })
      .raw()
      .toBuffer(); // 270 KB: over the site's 20,000 bytes (19.5 KB)
    const tooLarge = await upload('huge.png', big, admin);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({
      code: 'payload-too-large',
      message: 'The file huge.png is too large. The maximum allowed file size is 19.5 KB.',
    });
    const form = await uploadForm({ name: 'huge.png', type: 'image/png', bytes: big }, admin);
    expect(form.statusCode).toBe(413);
    expect(form.body).toContain('The file huge.png is too large. The maximum allowed file size is 19.5 KB.');
    const oddName = await uploadForm({ name: 'big%zz.png', type: 'image/png', bytes: big }, admin);
    expect(oddName.statusCode).toBe(413);
    expect(oddName.body).toContain('The file big%zz.png is too large.');
    const noName = await upload('  ', await png(), admin);
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({
      code: 'invalid-input',
      message: 'Please enter a file name',
      field: 'fileName',
    });
    const noFile = await uploadForm({ name: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) }, admin);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.body).toContain('Please enter a file name');
    const text = await upload(
      'notes.png',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'),
      admin,
    );
    expect(text.statusCode).toBe(415);
    expect(text.json<{ message: string }>().message).toBe(
      'File processing failed: notes.png is not a JPEG, PNG, WebP, GIF, TIFF or AVIF image.',
    );
    const empty = await upload('empty.png', Buffer.alloc(0), admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toBe('There was a problem while uploading your file.');
    expect((await stored()).assets.some((a) => /huge|notes|empty/.test(a.path))).toBe(false);
  });

  it('deletes an image nothing shows, and refuses one a product shows', async () => {
    const inUse = await app.inject({
      method: 'DELETE',
      url: '/api/admin/media?path=img/kit.png',
      headers: { host: SHOP_HOST, cookie: admin, [CRUMB_HEADER]: TEST_CRUMB },
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({
      code: 'image-in-use',
      message: 'img/kit.png is still shown by product “Kit”: remove it there first.',
    });
    const unknown = await app.inject({
      method: 'DELETE',
      url: '/api/admin/media?path=images/nothing.png',
      headers: { host: SHOP_HOST, cookie: admin, [CRUMB_HEADER]: TEST_CRUMB },
    });
    expect(unknown.statusCode).toBe(404);
    const form = await app.inject({
      method: 'POST',
      url: '/admin/media/delete',
      headers: { host: SHOP_HOST, cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ path: 'images/blue-mug.png', [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });
    expect(form.statusCode).toBe(303);
    const site = await stored();
    expect(site.assets.map((a) => a.path)).not.toContain('images/blue-mug.png');
    expect(site.site.website.media?.images).not.toContain('images/blue-mug.png');
    expect(site.assets.map((a) => a.path)).toContain('img/kit.png');
    const audit = await listAudit(getDb(), SITE, { subject: { type: 'image', id: 'images/blue-mug.png' } });
    expect(audit.records[0]).toMatchObject({ action: 'media.delete', summary: 'Deleted images/blue-mug.png' });
  });

  it('lets a viewer look but not upload or delete, and sends nobody signed in to sign in', async () => {
    const page = await get('/admin/media', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('images/holiday-photo.jpg');
    expect(page.body).not.toContain('type="file"');
    const refused = await upload('x.png', await png(), viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('role-not-allowed');
    const refusedForm = await uploadForm({ name: 'x.png', type: 'image/png', bytes: await png() }, viewer);
    expect(refusedForm.statusCode).toBe(403);
    const nobody = await get('/api/admin/media');
    expect(nobody.statusCode).toBe(401);
    expect((await get('/admin/media')).statusCode).toBe(303);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/admin/media?fileName=x.png',
      headers: {
        host: SHOP_HOST,
        cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        [CRUMB_HEADER]: TEST_CRUMB,
        'content-type': 'image/png',
      },
      payload: await png(),
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await stored()).assets.some((a) => a.path === 'images/x.png')).toBe(false);
  });

  it('keeps an uploaded image nothing shows through an export and an import', async () => {
    const { site, assets } = await stored();
    expect(site.website.media?.images).toContain('images/holiday-photo.jpg');
    const { exportSite } = await import('../../src/modules/site/export');
    const exported = await exportSite(getDb(), SITE);
    const { mkdtemp, writeFile, mkdir } = await import('node:fs/promises');
    const { join, dirname } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-media-'));
    for (const a of exported.assets) {
      await mkdir(dirname(join(dir, a.path)), { recursive: true });
      await writeFile(join(dir, a.path), a.bytes);
    }
    const { loadSite } = await import('../../src/modules/site/import');
    const loaded = await loadSite(exported.json, dir);
    expect(loaded.assets.map((a) => a.path).sort()).toEqual(assets.map((a) => a.path).sort());
  });
});
