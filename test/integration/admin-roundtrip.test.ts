/**
 * `vitrine export` after edits in the browser (issue 26), on SQLite and PostgreSQL: the demo edited through the
 * admin's JSON API — an image uploaded to the media library and kept unused, a product created with it, another
 * product changed, a copy made and a copy of it, the first copy deleted, a new blog with a scheduled and tagged post,
 * a page set to Draft — exported to a folder and imported into a fresh database gives the
 * same site: the same site file, the same images byte for byte, the same live stock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { exportSite, exportSiteToFile } from '../../src/modules/site/export';
import { importSiteFile } from '../../src/modules/site/import';
import { buildApp } from '../../src/server/app';
import { TEST_CRUMB } from '../support/crumb';
import { createFreshDb, forEachEngine, type FreshDb } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');
const HOST = 'localhost';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let other: FreshDb | undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'vitrine-roundtrip-'));

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    type = 'application/json',
  ) =>
    app.inject({
      method,
      url,
      headers: {
        host: HOST,
        cookie: admin,
        [CRUMB_HEADER]: TEST_CRUMB,
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      ...(body === undefined ? {} : { payload: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
    });

  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO);
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    admin = await signIn(app, HOST, (await addSiteUser(getDb(), HOST, ContributorRole.ADMIN)).email);
  });
  afterAll(async () => {
    await app?.close();
    await other?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('exports a site edited through the admin API and imports it into a fresh database as the same site', async () => {
    const png = (colour: string) =>
      sharp({ create: { width: 50, height: 40, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const kept = await call('POST', '/api/admin/media?fileName=Unused%20Banner.png', await png('#224466'), 'image/png');
    expect(kept.statusCode).toBe(201);
    const used = await call('POST', '/api/admin/media?fileName=tote.png', await png('#aa6622'), 'image/png');
    expect(used.statusCode).toBe(201);
    const created = await call('POST', '/api/admin/products', {
      product: {
        name: 'Canvas Tote',
        collectionId: 'shop',
        options: [{ name: 'Colour', values: ['Natural', 'Black'] }],
        variants: [
          { sku: 'TOTE-NAT', attributes: { Colour: 'Natural' }, price: 2200, stock: 6 },
          { sku: 'TOTE-BLK', attributes: { Colour: 'Black' }, price: 2200, salePrice: 1800, stock: 'unlimited' },
        ],
        images: [{ file: 'images/tote.png', altText: 'The tote' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const mug = (await call('GET', '/api/admin/products/speckled-mug')).json<{
      product: {
        name: string;
        variantOptions: { name: string; values: string[] }[];
        variants: { sku: string; attributes: Record<string, string>; price: number }[];
        collectionId: string;
        description: string;
        productType: 1;
      };
      version: number;
    }>();
    const changed = await call('PUT', '/api/admin/products/speckled-mug', {
      baseVersion: mug.version,
      product: {
        name: 'Speckled Mug, edited',
        description: mug.product.description,
        collectionId: mug.product.collectionId,
        productType: mug.product.productType,
        options: mug.product.variantOptions,
        variants: mug.product.variants.map((v) => ({ sku: v.sku, attributes: v.attributes, price: v.price + 100 })),
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('POST', '/api/admin/products/canvas-tote/duplicate')).statusCode).toBe(201);
    expect((await call('POST', '/api/admin/products/canvas-tote-copy/duplicate')).statusCode).toBe(201);
    expect((await call('DELETE', '/api/admin/products/canvas-tote-copy')).statusCode).toBe(200);

    // A new blog with a scheduled, tagged post, and a page set back to Draft (the editors' statuses).
    const versionOf = async () => (await call('GET', '/api/admin/pages')).json<{ version: number }>().version;
    const blog = await call('POST', '/api/admin/collections', {
      baseVersion: await versionOf(),
      title: 'News',
      kind: 'blog',
    });
    expect(blog.statusCode, blog.body).toBe(201);
    const publishAt = new Date(Date.now() + 86_400_000).toISOString();
    const post = await call('POST', '/api/admin/posts', {
      baseVersion: await versionOf(),
      title: 'Kiln opening',
      collectionId: 'news',
      status: 'scheduled',
      publishAt,
    });
    expect(post.statusCode, post.body).toBe(201);
    const tagged = await call('PATCH', '/api/admin/posts/kiln-opening', {
      baseVersion: await versionOf(),
      body: 'Saturday at ten.',
      tags: ['Kiln', 'Events'],
      categories: ['Studio'],
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    const draft = await call('PATCH', '/api/admin/pages/about', { baseVersion: await versionOf(), status: 'draft' });
    expect(draft.statusCode, draft.body).toBe(200);

    const out = join(tmp, 'export', 'site.json');
    const first = await exportSiteToFile(getDb(), 'demo', out);
    expect(first.site.website.media?.images).toEqual(['images/unused-banner.png', 'images/tote.png']);
    other = await createFreshDb(engine);
    await importSiteFile(other.db, out);
    const second = await exportSite(other.db, 'demo');
    expect(second.json).toBe(first.json);
    expect(second.assets.map((a) => [a.path, a.bytes.toString('base64')])).toEqual(
      first.assets.map((a) => [a.path, a.bytes.toString('base64')]),
    );
    expect(second.site.products.map((p) => p.id)).toContain('canvas-tote-copy-copy');
    expect(second.site.products.map((p) => p.id)).not.toContain('canvas-tote-copy');
    expect(second.site.products.find((p) => p.id === 'speckled-mug')!.name).toBe('Speckled Mug, edited');
    expect(second.site.collections.at(-1)).toEqual({ id: 'news', type: 'blog', title: 'News', slug: 'news' });
    expect(second.site.posts.find((p) => p.id === 'kiln-opening')).toMatchObject({
      collectionId: 'news',
      status: 'scheduled',
      publishAt,
      body: 'Saturday at ten.',
      tags: ['Kiln', 'Events'],
      categories: ['Studio'],
    });
    expect(second.site.pages.find((p) => p.id === 'about')).toMatchObject({ status: 'draft' });
    const tote = second.site.products.find((p) => p.id === 'canvas-tote')!;
    expect(tote.variants.map((v) => v.stock)).toEqual([{ qtyInStock: 6 }, { unlimited: true }]);
  });
});
