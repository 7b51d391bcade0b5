/**
 * The products at /admin (issue 26) on SQLite and PostgreSQL: a product with an option and two variants made through
 * the JSON API, and one through the form without JavaScript with an uploaded PNG, each a site version with its audit
 * entry and on the storefront at once; an edit keeps live stock; an edit from a version someone saved since is refused
 * with what changed, writing nothing; invalid input gets 400s naming the fields ('This slug already exists'); a
 * too-large upload the spec's text; the list searches and filters; duplicate; delete keeps the orders' lines; a viewer
 * reads but cannot change (403), nobody signed in is sent to sign in.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { publicationRefusal, PUBLISH_TIME_MESSAGES, STATUS_LABELS } from '../../src/core/publishing';
import { listAudit } from '../../src/modules/admin';
import { staffFrom } from '../../src/modules/admin/access';
import { saveProduct } from '../../src/modules/site/productAdmin';
import type { ProductInput } from '../../src/modules/site/productEdit';
import { takeStock } from '../../src/modules/catalog';
import { readSite, replaceSite } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { buildApp } from '../../src/server/app';
import { checkoutSite, SHOP_HOST } from '../support/checkoutSite';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { placeOrder } from '../support/placeOrder';
import { addSiteUser, signIn } from '../support/siteUsers';

const SITE = 'shop';

function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----vitrineProductBoundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const doneOf = (location: unknown) => new URL(String(location), 'http://x.invalid').searchParams.get('done');

const mugInput = {
  name: 'Speckled Mug',
  description: '<p>Stoneware.</p>',
  collectionId: 'shop',
  productType: 1,
  options: [{ name: 'Size', values: ['Small', 'Large'] }],
  variants: [
    { sku: 'mug-small', attributes: { Size: 'Small' }, price: 1800, stock: 4 },
    { sku: 'mug-large', attributes: { Size: 'Large' }, price: 2400, salePrice: 2000, stock: 'unlimited' },
  ],
};

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let adminEmail: string;
  let manager: string;
  let viewer: string;

  const headers = (cookie?: string) => ({ host: SHOP_HOST, ...(cookie ? { cookie, [CRUMB_HEADER]: TEST_CRUMB } : {}) });
  const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: headers(cookie) });
  const json = (method: 'POST' | 'PUT' | 'DELETE', url: string, body: unknown, cookie: string) =>
    app.inject({
      method,
      url,
      headers: { ...headers(cookie), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const postForm = (
    url: string,
    fields: Record<string, string>,
    cookie: string,
    file?: Parameters<typeof multipart>[1],
  ) => {
    const { payload, contentType } = multipart({ [CRUMB_FIELD]: TEST_CRUMB, ...fields }, file);
    return app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': contentType },
      payload,
    });
  };
  const stored = async () => (await readSite(getDb(), SITE))!.site;
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', SITE).executeTakeFirstOrThrow()).version;

  beforeAll(async () => {
    const input = structuredClone(checkoutSite);
    input.website!.media = { maxUploadBytes: 20_000 };
    const valid = validateSite(input);
    if (!valid.ok) throw new Error(valid.problems.join('\n'));
    await replaceSite(getDb(), valid.site, [], { stock: 'file' });
    app = sendCrumbs(await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } }));
    adminEmail = (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN)).email;
    admin = await signIn(app, SHOP_HOST, adminEmail);
    manager = await signIn(
      app,
      SHOP_HOST,
      (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER)).email,
    );
    viewer = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER)).email);
  });
  afterAll(async () => app?.close());

  it('creates a product with an option and two variants through the API: a version, an audit entry, in the store', async () => {
    const before = await version();
    const answer = await json('POST', '/api/admin/products', { product: mugInput }, admin);
    expect(answer.statusCode).toBe(201);
    const { product, version: made } = answer.json<{ product: { id: string; slug: string }; version: number }>();
    expect(product).toMatchObject({
      id: 'speckled-mug',
      slug: 'speckled-mug',
      variantOptions: [{ name: 'Size', values: ['Small', 'Large'] }],
    });
    expect(made).toBe(before + 1);
    const mug = (await stored()).products.find((p) => p.id === 'speckled-mug')!;
    expect(mug.variants.map((v) => [v.sku, v.price, v.salePrice, v.onSale, v.stock])).toEqual([
      ['mug-small', 1800, undefined, false, { qtyInStock: 4 }],
      ['mug-large', 2400, 2000, true, { unlimited: true }],
    ]);
    const page = await get('/shop/p/speckled-mug');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Speckled Mug');
    const audit = await listAudit(getDb(), SITE, { subject: { type: 'product', id: 'speckled-mug' } });
    expect(audit.records[0]).toMatchObject({ actor: adminEmail, action: 'product.create' });
    expect(audit.records[0]!.after).toMatchObject({ name: 'Speckled Mug', options: ['Size: Small, Large'] });
    const versions = (await get('/api/admin/versions?limit=1', admin)).json<{
      versions: { createdBy: string; summary: string }[];
    }>();
    expect(versions.versions[0]).toMatchObject({ createdBy: adminEmail });
    expect(versions.versions[0]!.summary).toContain('Speckled Mug');
  });

  it('creates a product through the form without JavaScript, with an uploaded PNG', async () => {
    const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const fields = {
      baseVersion: String(await version()),
      name: 'Linen Apron',
      slug: '',
      description: 'Washed linen.',
      collectionId: 'shop',
      productType: '1',
      'o0.name': 'Colour',
      'o0.values': 'Sand, Rust',
    };
    // First the grid: 'Update variants' makes a row per value, nothing saved.
    const grid = await postForm(
      '/admin/products',
      { ...fields, intent: 'variants', 'v0.sku': '', 'v0.price': '30.00', 'v0.stock': '2' },
      manager,
    );
    expect(grid.statusCode).toBe(422);
    expect(grid.body).toContain('name="v1.sku"');
    expect(grid.body).toContain('value="linen-apron-rust"');
    expect(grid.body).toContain('value="Linen Apron"');
    const saved = await postForm(
      '/admin/products',
      {
        ...fields,
        intent: 'save',
        'v0.sku': 'apron-sand',
        'v0.a0': 'Sand',
        'v0.price': '30.00',
        'v0.stock': '2',
        'v1.sku': 'apron-rust',
        'v1.a0': 'Rust',
        'v1.price': '32.50',
        'v1.salePrice': '',
        'v1.stock': '5',
        uploadAlt: 'The apron in sand',
      },
      manager,
      { name: 'apron.png', type: 'image/png', bytes: png },
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toMatch(/^\/admin\/products\/linen-apron\?done=/);
    expect(doneOf(saved.headers.location)).toMatch(/^Saved “Linen Apron” \(version \d+\)\. It is on the store now\.$/);
    const apron = (await stored()).products.find((p) => p.id === 'linen-apron')!;
    expect(apron.variants.map((v) => [v.sku, v.attributes, v.price, v.stock])).toEqual([
      ['apron-sand', { Colour: 'Sand' }, 3000, { qtyInStock: 2 }],
      ['apron-rust', { Colour: 'Rust' }, 3250, { qtyInStock: 5 }],
    ]);
    expect(apron.images).toEqual([
      { file: 'images/apron.png', altText: 'The apron in sand', focalPoint: { x: 0.5, y: 0.5 } },
    ]);
    const page = await get('/shop/p/linen-apron');
    expect(page.body).toContain('/assets/shop/images/apron.png');
    const form = await get('/admin/products/linen-apron', manager);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('href="/admin/inventory/apron-sand"');
    expect(form.body).not.toContain('name="v0.stock"');
  });

  it('keeps live stock on an edit, and refuses an edit of a version someone saved since, writing nothing', async () => {
    const read = (await get('/api/admin/products/speckled-mug', admin)).json<{
      product: typeof mugInput;
      version: number;
    }>();
    expect(await takeStock(getDb(), SITE, 'mug-small', 1)).toBe(true);
    const renamed = {
      ...mugInput,
      name: 'Speckled Mug II',
      variants: mugInput.variants.map((v) => ({ ...v, stock: 999 })),
    };
    const first = await json(
      'PUT',
      '/api/admin/products/speckled-mug',
      { baseVersion: read.version, product: renamed },
      admin,
    );
    expect(first.statusCode).toBe(200);
    const mug = (await stored()).products.find((p) => p.id === 'speckled-mug')!;
    expect(mug.name).toBe('Speckled Mug II');
    expect(mug.variants[0]!.stock).toEqual({ qtyInStock: 3 });
    const after = await version();
    const late = await json(
      'PUT',
      '/api/admin/products/speckled-mug',
      { baseVersion: read.version, product: { ...mugInput, name: 'Late mug' } },
      manager,
    );
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'site-edit-stale',
      changes: ['Product “Speckled Mug II” (speckled-mug): name changed'],
    });
    expect(late.json<{ message: string }>().message).toContain(`by ${adminEmail} (version ${after})`);
    expect(await version()).toBe(after);
    // The form: the message, what changed, and the owner's input kept.
    const form = await postForm(
      '/admin/products/speckled-mug',
      {
        baseVersion: String(read.version),
        name: 'Late mug from the form',
        collectionId: 'shop',
        productType: '1',
        'o0.name': 'Size',
        'o0.values': 'Small, Large',
        'v0.sku': 'mug-small',
        'v0.a0': 'Small',
        'v0.price': '18.00',
        'v0.original': 'mug-small',
        'v1.sku': 'mug-large',
        'v1.a0': 'Large',
        'v1.price': '24.00',
        'v1.original': 'mug-large',
      },
      admin,
    );
    expect(form.statusCode).toBe(409);
    expect(form.body).toContain('Not saved: this was changed since you opened it');
    expect(form.body).toContain('Product “Speckled Mug II” (speckled-mug): name changed');
    expect(form.body).toContain('value="Late mug from the form"');
    expect((await stored()).products.find((p) => p.id === 'speckled-mug')!.name).toBe('Speckled Mug II');
  });

  it('answers invalid input with 400s naming the fields, and a too-large image with the spec’s text', async () => {
    const negative = await json(
      'POST',
      '/api/admin/products',
      { product: { ...mugInput, variants: [{ sku: 'x', price: -1 }] } },
      admin,
    );
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toMatchObject({ code: 'invalid-input', field: 'product.variants.0.price' });
    const taken = await json(
      'POST',
      '/api/admin/products',
      { product: { ...mugInput, slug: 'tee', variants: [{ sku: 'tee-2', price: 100 }], options: [] } },
      admin,
    );
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      code: 'invalid-input',
      field: 'slug',
      fields: { slug: 'This slug already exists' },
    });
    const sku = await json(
      'POST',
      '/api/admin/products',
      { product: { ...mugInput, name: 'Other', variants: [{ sku: 'tee-s-red', price: 100 }], options: [] } },
      admin,
    );
    expect(sku.json()).toMatchObject({ fields: { 'variants.0.sku': 'This SKU already exists' } });
    const sale = await json(
      'POST',
      '/api/admin/products',
      {
        product: { ...mugInput, name: 'Sale', options: [], variants: [{ sku: 'sale-1', price: 100, salePrice: 500 }] },
      },
      admin,
    );
    expect(sale.json()).toMatchObject({ fields: { 'variants.0.salePrice': 'must not be above price' } });
    const noName = await json(
      'POST',
      '/api/admin/products',
      { product: { ...mugInput, name: '', options: [], variants: [{ sku: 'n-1', price: 100 }] } },
      admin,
    );
    expect(noName.json()).toMatchObject({ fields: { name: 'must not be empty' } });
    const form = await postForm(
      '/admin/products',
      {
        name: 'Bad price',
        collectionId: 'shop',
        productType: '1',
        'v0.sku': 'bad-1',
        'v0.price': 'abc',
        'v0.stock': '1',
      },
      admin,
    );
    expect(form.statusCode).toBe(400);
    expect(form.body).toContain('must be an amount like 12.50');
    expect(form.body).toContain('aria-invalid="true"');
    expect(form.body).toContain('value="Bad price"');
    const big = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000' } })
      .raw()
      .toBuffer();
    const tooLarge = await postForm(
      '/admin/products',
      {
        name: 'Big image',
        collectionId: 'shop',
        productType: '1',
        'v0.sku': 'big-1',
        'v0.price': '1',
        'v0.stock': '1',
      },
      admin,
      { name: 'poster.png', type: 'image/png', bytes: big },
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.body).toContain('The file poster.png is too large. The maximum allowed file size is 19.5 KB.');
    expect(tooLarge.body).toContain('value="Big image"');
    expect((await stored()).products.some((p) => ['bad-price', 'big-image', 'other', 'sale'].includes(p.id))).toBe(
      false,
    );
  });

  it('lists, searches and filters the products', async () => {
    const all = (await get('/api/admin/products', admin)).json<{ products: { id: string }[]; total: number }>();
    expect(all.total).toBe((await stored()).products.length);
    const bySku = (await get('/api/admin/products?q=APRON-RU', admin)).json<{ products: { id: string }[] }>();
    expect(bySku.products.map((p) => p.id)).toEqual(['linen-apron']);
    const soldOut = (await get('/api/admin/products?stock=sold-out', admin)).json<{
      products: { id: string; soldOut: boolean }[];
    }>();
    expect(soldOut.products.every((p) => p.soldOut)).toBe(true);
    expect((await get('/api/admin/products?stock=nope', admin)).statusCode).toBe(400);
    const page = await get('/admin/products?q=mug', admin);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/admin/products/speckled-mug"');
    expect(page.body).not.toContain('href="/admin/products/linen-apron"');
  });

  it('duplicates a product with no stock, and deletes one while its orders keep their lines', async () => {
    const copy = await json('POST', '/api/admin/products/linen-apron/duplicate', undefined, admin);
    expect(copy.statusCode).toBe(201);
    expect(copy.json<{ product: unknown }>().product).toMatchObject({
      id: 'linen-apron-copy',
      name: 'Linen Apron (copy)',
      variants: [
        { sku: 'apron-sand-copy', stock: { qtyInStock: 0 } },
        { sku: 'apron-rust-copy', stock: { qtyInStock: 0 } },
      ],
    });
    const order = await placeOrder(app, getDb(), [{ itemId: 'linen-apron', sku: 'apron-rust', quantity: 1 }], {
      key: `${engine}-apron`,
    });
    const noConfirm = await postForm('/admin/products/linen-apron/delete', {}, admin);
    expect(noConfirm.statusCode).toBe(422);
    const deleted = await app.inject({
      method: 'POST',
      url: '/admin/products/linen-apron/delete',
      headers: { host: SHOP_HOST, cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ confirm: 'yes', [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });
    expect(deleted.statusCode).toBe(303);
    expect((await stored()).products.some((p) => p.id === 'linen-apron')).toBe(false);
    expect((await get('/shop/p/linen-apron')).statusCode).toBe(404);
    const lines = await getDb().selectFrom('order_lines').selectAll().where('order_id', '=', order.id).execute();
    expect(lines.map((l) => [l.sku, l.title, Number(l.unit_price)])).toEqual([['apron-rust', 'Linen Apron', 3250]]);
    const audit = await listAudit(getDb(), SITE, { subject: { type: 'product', id: 'linen-apron' } });
    expect(audit.records[0]).toMatchObject({
      action: 'product.delete',
      summary: expect.stringContaining('Deleted product “Linen Apron”'),
    });
    expect((await json('DELETE', '/api/admin/products/linen-apron', undefined, admin)).statusCode).toBe(404);
  });

  it('lets a viewer read but not change, and sends nobody signed in to sign in', async () => {
    expect((await get('/admin/products', viewer)).statusCode).toBe(200);
    const form = await get('/admin/products/speckled-mug', viewer);
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('/duplicate"');
    expect((await get('/admin/products/new', viewer)).statusCode).toBe(403);
    const refused = await json('POST', '/api/admin/products', { product: mugInput }, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('role-not-allowed');
    expect((await postForm('/admin/products/speckled-mug', { name: 'Viewer' }, viewer)).statusCode).toBe(403);
    expect((await get('/api/admin/products')).statusCode).toBe(401);
    expect((await get('/admin/products')).statusCode).toBe(303);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/admin/products',
      headers: {
        host: SHOP_HOST,
        cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        [CRUMB_HEADER]: TEST_CRUMB,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ product: mugInput }),
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await stored()).products.find((p) => p.id === 'speckled-mug')!.name).toBe('Speckled Mug II');
  });

  it('keeps a Draft product off the store while staff preview it, lists its status, and publishes it with the status named in the audit', async () => {
    const pinInput = {
      ...mugInput,
      name: 'Draft Pin',
      slug: 'draft-pin',
      options: [],
      variants: [{ sku: 'pin-draft', attributes: {}, price: 900, stock: 3 }],
      status: 'draft',
    };
    const made = await json('POST', '/api/admin/products', { product: pinInput }, manager);
    expect(made.statusCode, made.body).toBe(201);
    expect((await stored()).products.find((p) => p.id === 'draft-pin')!.status).toBe('draft');
    expect((await get('/shop/p/draft-pin')).statusCode).toBe(404);
    const preview = await get('/admin/products/draft-pin/preview', viewer);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('Draft Pin');
    expect(preview.headers['x-robots-tag']).toBe('noindex');
    expect((await get('/admin/products/no-such/preview', viewer)).statusCode).toBe(404);
    expect((await get('/admin/products/draft-pin/preview')).statusCode).toBe(401);
    const list = (await get('/admin/products?q=draft+pin', manager)).body;
    expect(list).toMatch(/>Draft Pin<\/a> <span class="admin-badge[^"]*">Draft<\/span>/);
    const listed = (await get('/api/admin/products?q=draft+pin', manager)).json<{ products: { status: string }[] }>();
    expect(listed.products.map((i) => i.status)).toEqual(['draft']);
    // The form offers a store manager every status, Draft chosen.
    const form = (await get('/admin/products/draft-pin', manager)).body;
    const radios = [...form.matchAll(/<input[^>]*type="radio"[^>]*name="status"[^>]*>/g)].map((m) => m[0]);
    expect(radios.map((r) => /value="([^"]+)"/.exec(r)![1])).toEqual([
      'published',
      'draft',
      'needs-review',
      'scheduled',
    ]);
    expect(radios.filter((r) => r.includes('checked=""')).map((r) => /value="([^"]+)"/.exec(r)![1])).toEqual(['draft']);

    const published = await json(
      'PUT',
      '/api/admin/products/draft-pin',
      { baseVersion: await version(), product: { ...pinInput, status: 'published' } },
      manager,
    );
    expect(published.statusCode, published.body).toBe(200);
    expect((await listAudit(getDb(), SITE, { limit: 1 })).records[0]!.summary).toBe(
      `Changed product “Draft Pin” (version ${await version()}): status: ${STATUS_LABELS.draft} → ${STATUS_LABELS.published}`,
    );
    expect((await get('/shop/p/draft-pin')).statusCode).toBe(200);
    expect((await stored()).products.find((p) => p.id === 'draft-pin')).not.toHaveProperty('status');
  });

  it('refuses a bad status or publish time of a product with a 400 by its field, in the API and the form', async () => {
    const v = await version();
    const put = (product: object) =>
      json('PUT', '/api/admin/products/draft-pin', { baseVersion: v, product: { ...mugInput, ...product } }, manager);
    const none = await put({ status: 'scheduled' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      field: 'product.publishAt',
      message: `product.publishAt: ${PUBLISH_TIME_MESSAGES.missing}`,
    });
    const unknown = await put({ status: 'hidden' });
    expect(unknown.statusCode).toBe(400);
    const form = await postForm(
      '/admin/products/draft-pin',
      {
        baseVersion: String(v),
        name: 'Draft Pin',
        collectionId: 'shop',
        productType: '1',
        layout: 'grid',
        status: 'scheduled',
        publishAt: 'soon',
      },
      manager,
    );
    expect(form.statusCode).toBe(400);
    expect(form.body).toContain(
      `<span class="admin-field-error" id="field-publishAt-error">${PUBLISH_TIME_MESSAGES.invalid}</span>`,
    );
    expect(form.body).toContain(`href="#field-publishAt">Publish at: ${PUBLISH_TIME_MESSAGES.invalid}`);
    expect(await version()).toBe(v);
  });

  it('refuses, in the save itself, a product status the role may not set, with the rule’s words, writing nothing', async () => {
    const v = await version();
    const draftEditor = staffFrom({
      id: 'x',
      siteId: SITE,
      email: 'd@example.com',
      role: ContributorRole.DRAFT_EDITOR,
    });
    const input = { ...mugInput, status: 'draft' } as ProductInput;
    const refused = await saveProduct(getDb(), SITE, {}, draftEditor, 'draft-pin', { baseVersion: v, input });
    const words = publicationRefusal(ContributorRole.DRAFT_EDITOR, 'product', 'published', 'draft');
    expect(words).toBe('Your account (draft-editor) may not change products.');
    expect(refused).toEqual({ ok: false, error: { type: 'FORBIDDEN', message: words } });
    const created = await saveProduct(getDb(), SITE, {}, draftEditor, undefined, { input });
    expect(created).toEqual({ ok: false, error: { type: 'FORBIDDEN', message: words } });
    expect(await version()).toBe(v);
  });
});
