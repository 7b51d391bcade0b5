/**
 * The product editor's fields beyond the basics (issue 26), on SQLite and PostgreSQL, through the JSON API: a
 * variant's weight, an image's focal point and the option values it pictures, the product form, a subscription plan,
 * merchandising (scarcity, sold-out text, restock sign-up), related products and add-ons, tags, and the SEO title and
 * description — each saved, exported, imported into a fresh database and exported again the same; the SEO title in the
 * product page's <title>. What a save leaves out is kept, null removes it. Bad input is refused with 400 naming the
 * field ('This tag already exists'), never a 500, writing nothing; a stale save is refused with what changed. The
 * same through the form without JavaScript: every section saved and shown again, each wrong field marked
 * (aria-invalid, its message tied by aria-describedby, listed above with a link), a gift card's amounts, and a change
 * of product type that needs the other layout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import { exportSite, exportSiteToFile } from '../../src/modules/site/export';
import { importSiteFile } from '../../src/modules/site/import';
import type { Product } from '../../src/modules/site/schema';
import { readSite, replaceSite } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { buildApp } from '../../src/server/app';
import { checkoutSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB } from '../support/crumb';
import { createFreshDb, forEachEngine, type FreshDb } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const SITE = 'shop';

function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----vitrineEditorBoundary';
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

/** The fields of a form as the page has them: each input's name and value, checked boxes and chosen options. */
function fieldsOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const decode = (t: string) =>
    t
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const form = html.slice(
    html.indexOf('<form id="product-form"'),
    html.indexOf('</form>', html.indexOf('<form id="product-form"')),
  );
  for (const [tag] of form.matchAll(/<input[^>]*>/g)) {
    const name = attr(tag, 'name');
    const type = attr(tag, 'type');
    if (!name || type === 'file') continue;
    if ((type === 'checkbox' || type === 'radio') && !/\schecked=""/.test(tag)) continue;
    fields[name] = decode(attr(tag, 'value') ?? '');
  }
  for (const [, tag, inner] of form.matchAll(/<select([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attr(tag!, 'name');
    const chosen = /<option[^>]*selected=""[^>]*value="([^"]*)"|<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(
      inner!,
    );
    const first = /<option[^>]*value="([^"]*)"/.exec(inner!);
    if (name) fields[name] = decode(chosen?.[1] ?? chosen?.[2] ?? first?.[1] ?? '');
  }
  for (const [, tag, inner] of form.matchAll(/<textarea([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attr(tag!, 'name');
    if (name) fields[name] = decode(inner!);
  }
  return fields;
}

const lampInput = {
  name: 'Brass Lamp',
  description: 'A small brass desk lamp.',
  collectionId: 'shop',
  productType: 1,
  options: [{ name: 'Finish', values: ['Brass', 'Black'] }],
  variants: [
    { sku: 'lamp-brass', attributes: { Finish: 'Brass' }, price: 9000, stock: 3, weight: 1.25 },
    { sku: 'lamp-black', attributes: { Finish: 'Black' }, price: 9000, stock: 0, weight: 1.2 },
  ],
  images: [
    { file: 'images/lamp.png', altText: 'The lamp in brass', focalPoint: { x: 0.25, y: 0.8 } },
    { file: 'images/lamp-black.png', altText: 'The lamp in black', attributes: { Finish: 'Black' } },
  ],
  additionalFieldsFormId: 'engraving',
  merchandising: {
    scarcity: { enabled: true, text: 'Just {qty} left', threshold: 5 },
    customSoldOutText: 'Back in May',
    restockNotifications: {
      enabled: true,
      message: 'Tell me when it is back',
      mailingListSignUpEnabled: true,
      mailingListOptInByDefault: false,
      hiddenByDefault: false,
    },
  },
  relatedProductIds: ['tee', 'kit'],
  addOnProductIds: ['ebook'],
  tags: ['lighting', 'brass'],
  seo: { title: 'Brass desk lamp, hand-finished', description: 'A hand-finished brass lamp for your desk.' },
};

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let adminEmail: string;
  let other: FreshDb | undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'vitrine-product-editor-'));

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, type = 'application/json') =>
    app.inject({
      method,
      url,
      headers: {
        host: SHOP_HOST,
        cookie: admin,
        [CRUMB_HEADER]: TEST_CRUMB,
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      ...(body === undefined ? {} : { payload: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
    });
  const postForm = (url: string, fields: Record<string, string>, file?: Parameters<typeof multipart>[1]) => {
    const { payload, contentType } = multipart({ [CRUMB_FIELD]: TEST_CRUMB, ...fields }, file);
    return app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie: admin, 'content-type': contentType },
      payload,
    });
  };
  const formOf = async (id: string) => {
    const page = await call('GET', `/admin/products/${id}`);
    expect(page.statusCode).toBe(200);
    return fieldsOf(page.body);
  };
  const stored = async (id: string) => (await readSite(getDb(), SITE))!.site.products.find((p) => p.id === id);
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', SITE).executeTakeFirstOrThrow()).version;
  const read = async (id: string) =>
    (await call('GET', `/api/admin/products/${id}`)).json<{ product: Product; version: number }>();

  beforeAll(async () => {
    const valid = validateSite(structuredClone(checkoutSite));
    if (!valid.ok) throw new Error(valid.problems.join('\n'));
    await replaceSite(getDb(), valid.site, [], { stock: 'file' });
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    adminEmail = (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN)).email;
    admin = await signIn(app, SHOP_HOST, adminEmail);
    for (const [name, colour] of [
      ['lamp.png', '#c8a040'],
      ['lamp-black.png', '#202020'],
    ] as const) {
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
        .png()
        .toBuffer();
      expect((await call('POST', `/api/admin/media?fileName=${name}`, png, 'image/png')).statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
    await other?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('saves every field, shows the SEO title and description on the page, and exports and imports them the same', async () => {
    const created = await call('POST', '/api/admin/products', { product: lampInput });
    expect(created.statusCode, created.body).toBe(201);
    const lamp = (await stored('brass-lamp'))!;
    expect(lamp.variants.map((v) => [v.sku, v.weight])).toEqual([
      ['lamp-brass', 1.25],
      ['lamp-black', 1.2],
    ]);
    expect(lamp.images).toEqual([
      { file: 'images/lamp.png', altText: 'The lamp in brass', focalPoint: { x: 0.25, y: 0.8 } },
      {
        file: 'images/lamp-black.png',
        altText: 'The lamp in black',
        focalPoint: { x: 0.5, y: 0.5 },
        attributes: { Finish: 'Black' },
      },
    ]);
    expect(lamp).toMatchObject({
      additionalFieldsFormId: 'engraving',
      merchandising: {
        scarcity: { enabled: true, text: 'Just {qty} left', threshold: 5, shownByDefault: true },
        customSoldOutText: 'Back in May',
        restockNotifications: { enabled: true, message: 'Tell me when it is back', mailingListSignUpEnabled: true },
      },
      relatedProductIds: ['tee', 'kit'],
      addOnProductIds: ['ebook'],
      tags: ['lighting', 'brass'],
      seo: lampInput.seo,
    });
    // The API answers the product with its weights (the catalog keeps them beside the live stock).
    expect(created.json<{ product: Product }>().product.variants.map((v) => v.weight)).toEqual([1.25, 1.2]);

    const page = await app.inject({ method: 'GET', url: '/shop/p/brass-lamp', headers: { host: SHOP_HOST } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Brass desk lamp, hand-finished — Shop</title>');
    expect(page.body).toContain('<meta name="description" content="A hand-finished brass lamp for your desk.">');
    expect(page.body).not.toContain('1.25');

    const out = join(tmp, engine, 'site.json');
    const first = await exportSiteToFile(getDb(), SITE, out);
    other = await createFreshDb(engine);
    await importSiteFile(other.db, out);
    const second = await exportSite(other.db, SITE);
    expect(second.json).toBe(first.json);
    expect(second.site.products.find((p) => p.id === 'brass-lamp')).toEqual(lamp);
  });

  it('keeps what a save leaves out and removes what it sets to null', async () => {
    const before = await read('brass-lamp');
    const { seo: _seo, additionalFieldsFormId: _form, merchandising: _m, tags: _t, ...rest } = lampInput;
    const kept = await call('PUT', '/api/admin/products/brass-lamp', {
      baseVersion: before.version,
      product: {
        ...rest,
        name: 'Brass Lamp II',
        variants: lampInput.variants.map(({ weight: _w, ...v }) => v),
        images: lampInput.images.map(({ file, altText }) => ({ file, altText })),
      },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    let lamp = (await stored('brass-lamp'))!;
    expect(lamp.name).toBe('Brass Lamp II');
    expect(lamp.variants.map((v) => v.weight)).toEqual([1.25, 1.2]);
    expect(lamp.images[0]!.focalPoint).toEqual({ x: 0.25, y: 0.8 });
    expect(lamp.images[1]!.attributes).toEqual({ Finish: 'Black' });
    expect(lamp.seo).toEqual(lampInput.seo);
    expect(lamp.additionalFieldsFormId).toBe('engraving');
    expect(lamp.tags).toEqual(['lighting', 'brass']);

    const removed = await call('PUT', '/api/admin/products/brass-lamp', {
      baseVersion: (await read('brass-lamp')).version,
      product: {
        ...rest,
        variants: [{ ...lampInput.variants[0], weight: null }, lampInput.variants[1]],
        images: [
          { ...lampInput.images[0], attributes: null },
          { ...lampInput.images[1], attributes: null },
        ],
        seo: { title: '', description: 'Only a description.' },
        additionalFieldsFormId: null,
        relatedProductIds: null,
        addOnProductIds: [],
        merchandising: { customSoldOutText: '' },
      },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    lamp = (await stored('brass-lamp'))!;
    expect(lamp.variants.map((v) => v.weight)).toEqual([undefined, 1.2]);
    expect(lamp.images.map((i) => i.attributes)).toEqual([undefined, undefined]);
    expect(lamp.seo).toEqual({ description: 'Only a description.' });
    expect(lamp.additionalFieldsFormId).toBeUndefined();
    expect(lamp.relatedProductIds).toBeUndefined();
    expect(lamp.addOnProductIds).toEqual([]);
    expect(lamp.merchandising.customSoldOutText).toBeUndefined();
    expect(lamp.merchandising.scarcity.text).toBe('Just {qty} left');
    const page = await app.inject({ method: 'GET', url: '/shop/p/brass-lamp', headers: { host: SHOP_HOST } });
    expect(page.body).toContain('<title>Brass Lamp — Shop</title>');
    expect(page.body).toContain('<meta name="description" content="Only a description.">');
  });

  it('saves a subscription plan, and refuses one for a gift card', async () => {
    const tee = await read('tee');
    const plan = {
      billingPeriod: { value: 2, unit: 'WEEK' },
      numBillingCycles: 6,
      options: [
        { id: 'fortnightly', price: 1800 },
        { id: 'fortnightly-gift', price: 2200, salePrice: 2000, customAddButtonText: 'Give it' },
      ],
    };
    const input = {
      name: tee.product.name,
      description: tee.product.description,
      collectionId: 'shop',
      productType: 1,
      options: tee.product.variantOptions,
      variants: tee.product.variants.map((v) => ({ sku: v.sku, attributes: v.attributes, price: v.price })),
      subscription: plan,
    };
    const saved = await call('PUT', '/api/admin/products/tee', { baseVersion: tee.version, product: input });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await stored('tee'))!.subscription).toEqual({
      billingPeriod: { value: 2, unit: 'WEEK' },
      numBillingCycles: 6,
      options: [
        { id: 'fortnightly', price: 1800, onSale: false },
        { id: 'fortnightly-gift', price: 2200, salePrice: 2000, onSale: true, customAddButtonText: 'Give it' },
      ],
    });
    const page = await app.inject({ method: 'GET', url: '/shop/p/tee', headers: { host: SHOP_HOST } });
    expect(page.body).toContain('every 2 weeks');

    const gift = await read('gift');
    const giftCard = await call('PUT', '/api/admin/products/gift', {
      baseVersion: gift.version,
      product: {
        name: gift.product.name,
        collectionId: 'shop',
        productType: 4,
        options: gift.product.variantOptions,
        variants: gift.product.variants.map((v) => ({ sku: v.sku, attributes: v.attributes, price: v.price })),
        subscription: plan,
      },
    });
    expect(giftCard.statusCode).toBe(400);
    expect(giftCard.json()).toMatchObject({
      code: 'invalid-input',
      field: 'subscription',
      fields: { subscription: expect.stringContaining('A gift card cannot be sold as a subscription') },
    });
    expect((await stored('gift'))!.subscription).toBeUndefined();
  });

  it('refuses bad input with 400 naming each field, never a 500, and writes nothing', async () => {
    const at = await version();
    const refusal = async (product: Record<string, unknown>) => {
      const answer = await call('POST', '/api/admin/products', {
        product: { ...lampInput, name: 'Refused', slug: 'refused', ...product },
      });
      expect(answer.statusCode, answer.body).toBe(400);
      return answer.json<{ code: string; field: string; fields?: Record<string, string> }>();
    };
    const variants = (weight: unknown) => [
      { sku: 'refused-1', attributes: { Finish: 'Brass' }, price: 100, weight },
      { sku: 'refused-2', attributes: { Finish: 'Black' }, price: 100 },
    ];
    expect((await refusal({ variants: variants(-1) })).fields).toMatchObject({
      'variants.0.weight': 'must be a weight like 0.25 (at least 0, at most 3 decimals)',
    });
    expect((await refusal({ variants: variants(0.0001) })).fields).toHaveProperty('variants.0.weight');
    expect((await refusal({ variants: variants('heavy') })).field).toBe('product.variants.0.weight');
    expect(
      (await refusal({ images: [{ file: 'images/lamp.png', altText: '', focalPoint: { x: 2, y: 0 } }] })).field,
    ).toBe('product.images.0.focalPoint.x');
    expect(
      (await refusal({ images: [{ file: 'images/lamp.png', altText: '', attributes: { Colour: 'Red' } }] })).fields,
    ).toMatchObject({ 'images.0.attributes': "'Colour' is not a variant option of this product" });
    expect((await refusal({ additionalFieldsFormId: 'nope' })).fields).toMatchObject({
      additionalFieldsFormId: "form 'nope' does not exist",
    });
    expect((await refusal({ relatedProductIds: ['tee', 'tee'] })).fields).toMatchObject({
      'relatedProductIds.1': 'This related product already exists',
    });
    expect((await refusal({ relatedProductIds: ['missing'] })).fields).toMatchObject({
      'relatedProductIds.0': "product 'missing' does not exist",
    });
    expect(
      (await refusal({ addOnProductIds: ['tee', 'kit', 'limited', 'ebook', 'gift', 'coffee', 'engraved'] })).fields,
    ).toMatchObject({ addOnProductIds: 'must name at most 6 add-ons' });
    expect((await refusal({ tags: ['Lighting', 'lighting'] })).fields).toMatchObject({
      'tags.1': 'This tag already exists',
    });
    expect((await refusal({ seo: { title: 'x'.repeat(71) } })).fields).toMatchObject({
      'seo.title': 'must have at most 70 characters',
    });
    expect(
      (
        await refusal({
          subscription: {
            billingPeriod: { value: 1, unit: 'MONTH' },
            options: [
              { id: 'monthly', price: 100 },
              { id: 'monthly', price: 200 },
            ],
          },
        })
      ).fields,
    ).toMatchObject({ 'subscription.options.1.id': 'This subscription option already exists' });
    expect(
      (
        await refusal({
          subscription: { billingPeriod: { value: 1, unit: 'MONTH' }, options: [{ id: 'Monthly!', price: 100 }] },
        })
      ).fields,
    ).toHaveProperty('subscription.options.0.id');
    expect((await refusal({ merchandising: { scarcity: { enabled: true, text: 'x', threshold: 0 } } })).field).toBe(
      'product.merchandising.scarcity.threshold',
    );
    expect((await refusal({ merchandising: { customSoldOutText: 'x'.repeat(61) } })).field).toBe(
      'product.merchandising.customSoldOutText',
    );
    expect(await version()).toBe(at);
    expect(await stored('refused')).toBeUndefined();
  });

  it('edits every section through the form without JavaScript and shows it again as saved', async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#6b4f2a' } })
      .png()
      .toBuffer();
    const created = await postForm(
      '/admin/products',
      {
        baseVersion: String(await version()),
        layout: 'grid',
        name: 'Walnut Tray',
        slug: '',
        description: 'Oiled walnut.',
        collectionId: 'shop',
        productType: '1',
        formId: 'engraving',
        tags: 'wood, trays',
        'o0.name': 'Size',
        'o0.values': 'Small, Large',
        'v0.sku': 'tray-s',
        'v0.a0': 'Small',
        'v0.price': '40.00',
        'v0.stock': '4',
        'v0.weight': '0.8',
        'v1.sku': 'tray-l',
        'v1.a0': 'Large',
        'v1.price': '55.00',
        'v1.salePrice': '50.00',
        'v1.stock': 'unlimited',
        'v1.weight': '1,25',
        uploadAlt: 'The large tray',
        'sub.on': 'yes',
        'sub.every': '3',
        'sub.unit': 'MONTH',
        'sub.cycles': '4',
        'sub0.id': '',
        'sub0.price': '38.00',
        'sub0.salePrice': '',
        'sub0.formId': '',
        'sub0.button': 'Every season',
        'scarcity.on': 'yes',
        'scarcity.text': 'Only {qty} trays left',
        'scarcity.threshold': '2',
        'scarcity.shownByDefault': 'yes',
        soldOutText: 'Back soon',
        'restock.on': 'yes',
        'restock.message': 'Tell me',
        'restock.success': '',
        'restock.mailingList': 'yes',
        'related.mode': 'chosen',
        related0: 'Tee',
        related1: 'kit',
        related2: '',
        addOn0: 'ebook',
        addOn1: '',
        'seo.title': 'Walnut serving tray',
        'seo.description': 'A tray of oiled walnut.',
        intent: 'save',
      },
      { name: 'tray.png', type: 'image/png', bytes: png },
    );
    expect(created.statusCode, created.body).toBe(303);
    let tray = (await stored('walnut-tray'))!;
    expect(tray.variants.map((v) => [v.sku, v.price, v.salePrice, v.weight])).toEqual([
      ['tray-s', 4000, undefined, 0.8],
      ['tray-l', 5500, 5000, 1.25],
    ]);
    expect(tray).toMatchObject({
      additionalFieldsFormId: 'engraving',
      tags: ['wood', 'trays'],
      subscription: {
        billingPeriod: { value: 3, unit: 'MONTH' },
        numBillingCycles: 4,
        options: [{ id: 'option-1', price: 3800, onSale: false, customAddButtonText: 'Every season' }],
      },
      merchandising: {
        scarcity: { enabled: true, text: 'Only {qty} trays left', threshold: 2, shownByDefault: true },
        customSoldOutText: 'Back soon',
        restockNotifications: {
          enabled: true,
          message: 'Tell me',
          mailingListSignUpEnabled: true,
          mailingListOptInByDefault: false,
          hiddenByDefault: false,
        },
      },
      relatedProductIds: ['tee', 'kit'],
      addOnProductIds: ['ebook'],
      seo: { title: 'Walnut serving tray', description: 'A tray of oiled walnut.' },
    });
    expect(tray.merchandising.restockNotifications.successMessage).toBeUndefined();

    // The form shows it as saved; the image's focal point and the size it pictures are set, the rest posted as shown.
    const shown = await formOf('walnut-tray');
    expect(shown).toMatchObject({
      'v1.weight': '1.25',
      'img0.focusX': '50',
      'seo.title': 'Walnut serving tray',
      'related.mode': 'chosen',
      related0: 'tee',
      tags: 'wood, trays',
      'sub0.id': 'option-1',
      formId: 'engraving',
    });
    const edited = await postForm('/admin/products/walnut-tray', {
      ...shown,
      'img0.focusX': '20',
      'img0.focusY': '75.5',
      'img0.a0': 'Large',
      'scarcity.on': '',
      'related.mode': 'auto',
      'seo.title': '',
      intent: 'save',
    });
    expect(edited.statusCode, edited.body).toBe(303);
    tray = (await stored('walnut-tray'))!;
    expect(tray.images).toEqual([
      {
        file: 'images/tray.png',
        altText: 'The large tray',
        focalPoint: { x: 0.2, y: 0.755 },
        attributes: { Size: 'Large' },
      },
    ]);
    expect(tray.merchandising.scarcity.enabled).toBe(false);
    expect(tray.relatedProductIds).toBeUndefined();
    expect(tray.seo).toEqual({ description: 'A tray of oiled walnut.' });
    expect(tray.subscription?.options[0]?.id).toBe('option-1');
    expect(tray.variants.map((v) => v.weight)).toEqual([0.8, 1.25]);
    expect(tray.tags).toEqual(['wood', 'trays']);
  });

  it('marks each wrong field of the form, lists them with links, keeps the input and saves nothing', async () => {
    const at = await version();
    const shown = await formOf('walnut-tray');
    const refused = await postForm('/admin/products/walnut-tray', {
      ...shown,
      'v0.weight': 'heavy',
      'img0.focusX': '150',
      'sub0.price': 'abc',
      'scarcity.threshold': '0',
      intent: 'save',
    });
    expect(refused.statusCode).toBe(400);
    for (const [id, message] of [
      ['v0-weight', 'must be a weight like 0.25 (at least 0, at most 3 decimals)'],
      ['img0-focusX', 'must be a number from 0 to 100 (%)'],
      ['sub0-price', 'must be an amount like 12.50 (at most 2 decimals)'],
      ['scarcity-threshold', 'must be a whole number from 1 to 1000'],
    ] as const) {
      expect(refused.body).toMatch(
        new RegExp(
          `id="${id}"[^>]*aria-invalid="true"[^>]*aria-describedby="${id}-error|aria-invalid="true"[^>]*aria-describedby="${id}-error[^>]*id="${id}"|id="${id}"[^>]*aria-invalid`,
        ),
      );
      expect(refused.body).toContain(`<span class="admin-field-error" id="${id}-error">${message}</span>`);
      expect(refused.body).toContain(`href="#${id}"`);
    }
    expect(refused.body).toContain('value="heavy"');
    // The site file's own refusals, by field: a tag named twice (§5), an SEO title too long, a product that is not.
    const schema = await postForm('/admin/products/walnut-tray', {
      ...shown,
      tags: 'wood, Wood',
      'seo.title': 'x'.repeat(71),
      'related.mode': 'chosen',
      related0: 'no-such-product',
      intent: 'save',
    });
    expect(schema.statusCode).toBe(400);
    expect(schema.body).toContain('<span class="admin-field-error" id="p-tags-error">This tag already exists</span>');
    expect(schema.body).toContain(
      '<span class="admin-field-error" id="seo-title-error">must have at most 70 characters</span>',
    );
    expect(schema.body).toContain(
      '<span class="admin-field-error" id="related0-error">product &#x27;no-such-product&#x27; does not exist</span>',
    );
    expect(schema.body).toContain('Related product 1: product');
    expect(await version()).toBe(at);
  });

  it('edits a gift card’s amounts, keeping each amount’s SKU, and asks again when the type needs the other layout', async () => {
    const shown = await formOf('gift');
    expect(shown).toMatchObject({ layout: 'amounts', amounts: '25, 50', 'o0.name': 'Amount' });
    expect(shown).not.toHaveProperty('v0.weight');
    const saved = await postForm('/admin/products/gift', { ...shown, amounts: '25, 50, 100', intent: 'save' });
    expect(saved.statusCode, saved.body).toBe(303);
    const gift = (await stored('gift'))!;
    expect(gift.variantOptions).toEqual([{ name: 'Amount', values: ['$25', '$50', '$100'] }]);
    expect(gift.variants.map((v) => [v.sku, v.price, v.stock, v.attributes])).toEqual([
      ['gift-25', 2500, { unlimited: true }, { Amount: '$25' }],
      ['gift-50', 5000, { unlimited: true }, { Amount: '$50' }],
      ['gift-100', 10000, { unlimited: true }, { Amount: '$100' }],
    ]);
    const wrong = await postForm('/admin/products/gift', {
      ...(await formOf('gift')),
      amounts: '25, 25',
      intent: 'save',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('This amount already exists: 25');
    expect(wrong.body).toMatch(/id="p-amounts"[^>]*aria-invalid="true"/);

    // A physical product made a gift card: the form comes back with its amounts to check (nothing saved).
    const at = await version();
    const limited = await formOf('limited');
    const retyped = await postForm('/admin/products/limited', { ...limited, productType: '4', intent: 'save' });
    expect(retyped.statusCode).toBe(422);
    expect(retyped.body).toContain('a gift card sells amounts');
    expect(fieldsOf(retyped.body)).toMatchObject({ layout: 'amounts', amounts: '40', productType: '4' });
    expect(await version()).toBe(at);
  });

  it('refuses a save made from a version someone changed since, saying what changed', async () => {
    const base = await read('brass-lamp');
    const first = await call('PUT', '/api/admin/products/brass-lamp', {
      baseVersion: base.version,
      product: { ...lampInput, name: 'Brass Lamp II', seo: { title: 'A new SEO title' }, tags: ['lamps'] },
    });
    expect(first.statusCode, first.body).toBe(200);
    const late = await call('PUT', '/api/admin/products/brass-lamp', {
      baseVersion: base.version,
      product: { ...lampInput, name: 'Brass Lamp II' },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'site-edit-stale',
      changes: [expect.stringMatching(/^Product “Brass Lamp II” \(brass-lamp\): .*SEO title and description/)],
    });
    expect((await stored('brass-lamp'))!.seo).toEqual({ title: 'A new SEO title' });
    const audit = await listAudit(getDb(), SITE, { subject: { type: 'product', id: 'brass-lamp' } });
    expect(audit.records[0]!.after).toMatchObject({ seo: { title: 'A new SEO title' }, tags: ['lamps'] });
  });
});
