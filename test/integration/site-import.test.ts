import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, exportSiteToFile } from '../../src/modules/site/export';
import { importSite, importSiteFile, SiteFileError } from '../../src/modules/site/import';
import { siteFileSchema, type SiteFileInput } from '../../src/modules/site/schema';
import { findSiteByHost, getSite, readSite } from '../../src/modules/site/sites';
import { forEachEngine } from '../support/engines';

const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');
const demoText = readFileSync(DEMO, 'utf8');

let tmp: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'vitrine-site-'));
  mkdirSync(join(tmp, 'img'));
  await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c0ffee' } })
    .png()
    .toFile(join(tmp, 'img/cup.png'));
  writeFileSync(join(tmp, 'img/not-an-image.jpg'), 'hello');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A small valid site; `edit` may change it before it is written. */
function smallSite(id = 'corner', edit: (s: SiteFileInput) => void = () => {}): string {
  const site: SiteFileInput = {
    version: 1,
    website: { id, title: 'Corner Shop', domains: [`${id}.example`] },
    collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
    products: [
      {
        id: 'cup',
        collectionId: 'shop',
        slug: 'cup',
        name: 'Cup',
        productType: 1,
        variants: [{ sku: `${id}-CUP`, price: 1000, stock: { qtyInStock: 5 } }],
        images: [{ file: 'img/cup.png' }],
      },
    ],
  };
  edit(site);
  return JSON.stringify(site);
}

async function refusal(promise: Promise<unknown>): Promise<SiteFileError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SiteFileError);
  return error as SiteFileError;
}

forEachEngine((_engine, getDb) => {
  describe('import', () => {
    it('imports the demo site with its images', async () => {
      const result = await importSiteFile(getDb(), DEMO);
      expect(result.site).toMatchObject({
        id: 'demo',
        title: 'Vitrine Demo Store',
        isDefault: true,
        currency: 'USD',
        version: 1,
      });
      expect(result.counts).toEqual({
        collections: 2,
        products: 18,
        variants: 42,
        forms: 5,
        pages: 5,
        posts: 3,
        images: 24,
      });
    });

    it('refuses an invalid file whole, listing every problem, and keeps the stored site', async () => {
      const before = await readSite(getDb(), 'demo');
      const bad = JSON.parse(demoText) as {
        products: { variants: { price: unknown }[]; collectionId: string }[];
        pages: { blocks: unknown[] }[];
      };
      bad.products[3]!.variants[0]!.price = 19.99;
      bad.products[4]!.collectionId = 'nowhere';
      bad.pages[0]!.blocks.push({ type: 'form', formId: 'missing' });
      const error = await refusal(importSite(getDb(), JSON.stringify(bad), join(DEMO, '..'), 'site.json'));
      expect(error.problems).toEqual([
        `products[3] (id 'espresso-cups', "Espresso Cups, Pair").variants[0].price: must be a whole number of minor units (cents)`,
        `products[4] (id 'bud-vase', "Cobalt Bud Vase").collectionId: 'nowhere' is not a products collection of this site`,
        `pages[0] (id 'home', "Home").blocks[10].formId: form 'missing' does not exist`,
      ]);
      expect(error.message).toBe(
        'site.json was refused, 3 problems:\n' +
          `  products[3] (id 'espresso-cups', "Espresso Cups, Pair").variants[0].price: must be a whole number of minor units (cents)\n` +
          `  products[4] (id 'bud-vase', "Cobalt Bud Vase").collectionId: 'nowhere' is not a products collection of this site\n` +
          `  pages[0] (id 'home', "Home").blocks[10].formId: form 'missing' does not exist`,
      );
      expect(await readSite(getDb(), 'demo')).toEqual(before);
      expect((await getSite(getDb(), 'demo'))?.version).toBe(1);
    });

    it('names missing and unreadable images, broken JSON and missing files', async () => {
      const site = smallSite('corner', (s) => {
        s.products![0]!.images = [
          { file: 'img/nope.jpg' },
          { file: 'img/not-an-image.jpg' },
          { file: '../secret.jpg' },
        ];
      });
      const error = await refusal(importSite(getDb(), site, tmp));
      expect(error.problems).toEqual([
        `products[0] (id 'cup', "Cup").images[2].file: must be a relative .jpg, .png or .webp path inside the site folder (like images/mug.jpg)`,
        `products[0] (id 'cup', "Cup").images[0].file: image file 'img/nope.jpg' not found next to the site file`,
        `products[0] (id 'cup', "Cup").images[1].file: image 'img/not-an-image.jpg' is not a JPEG, PNG or WebP image`,
      ]);
      expect((await refusal(importSite(getDb(), '{"version": 1,', tmp))).message).toBe(
        'the site file was refused: not valid JSON at line 1, column 15: Expected double-quoted property name',
      );
      expect((await refusal(importSite(getDb(), '{\n  "version": 1\n  "website": {}\n}', tmp))).problems).toEqual([
        "not valid JSON at line 3, column 3: Expected ',' or '}' after property value",
      ]);
      expect((await refusal(importSite(getDb(), '[]', tmp))).problems).toEqual(['must be an object, not array']);
      expect((await refusal(importSiteFile(getDb(), join(tmp, 'missing.json')))).message).toBe(
        `${join(tmp, 'missing.json')} was refused: file not found`,
      );
      expect((await refusal(importSiteFile(getDb(), tmp))).problems).toEqual([
        `is a folder; give the site file inside it (e.g. ${join(tmp, 'site.json')})`,
      ]);
      expect(await getSite(getDb(), 'corner')).toBeUndefined();
    });

    it('refuses a domain that belongs to another site, changing nothing', async () => {
      const text = smallSite('corner', (s) => {
        s.website!.domains = ['corner.example', 'localhost'];
      });
      const error = await refusal(importSite(getDb(), text, tmp));
      expect(error.problems).toEqual(["website.domains[1]: 'localhost' already belongs to site 'demo'"]);
      expect(await getSite(getDb(), 'corner')).toBeUndefined();
    });

    it('keeps several sites and bumps the version on each import', async () => {
      const first = await importSite(getDb(), smallSite('corner'), tmp);
      expect(first.site).toMatchObject({ id: 'corner', version: 1, isDefault: false, domains: ['corner.example'] });
      const second = await importSite(getDb(), smallSite('corner'), tmp);
      expect(second.site.version).toBe(2);
      expect((await getSite(getDb(), 'demo'))?.version).toBe(1);
      const asset = (await readSite(getDb(), 'corner'))?.assets[0];
      expect(asset).toMatchObject({ path: 'img/cup.png', contentType: 'image/png', width: 40, height: 30 });
    });

    it('chooses the site by Host: its domains first, else the default site', async () => {
      const db = getDb();
      expect((await findSiteByHost(db, 'corner.example'))?.id).toBe('corner');
      expect((await findSiteByHost(db, 'Corner.Example:8080'))?.id).toBe('corner');
      expect((await findSiteByHost(db, 'localhost:3000'))?.id).toBe('demo');
      expect((await findSiteByHost(db, '127.0.0.1'))?.id).toBe('demo');
      expect((await findSiteByHost(db, '[::1]:3000'))?.id).toBe('demo');
      expect((await findSiteByHost(db, 'unknown.example'))?.id).toBe('demo');
    });
  });

  describe('export', () => {
    it('exports what was imported: import → export → import is the identity', async () => {
      const db = getDb();
      const { $schema: _schema, ...original } = siteFileSchema.parse(JSON.parse(demoText));
      const first = await exportSite(db, 'demo');
      expect(first.site).toEqual(original);
      expect(JSON.parse(first.json)).toEqual(original);

      const out = join(tmp, 'export', 'site.json');
      await exportSiteToFile(db, 'demo', out);
      expect(readFileSync(join(tmp, 'export/images/hero.jpg'))).toEqual(readFileSync(join(DEMO, '../images/hero.jpg')));
      const again = await importSiteFile(db, out);
      expect(again.site.version).toBe(2);
      const second = await exportSite(db, 'demo');
      expect(second.json).toBe(first.json);
      expect(second.assets).toEqual(first.assets);
    });

    it('exports current stock', async () => {
      const db = getDb();
      await db
        .updateTable('variants')
        .set({ qty_in_stock: 1 })
        .where('site_id', '=', 'demo')
        .where('sku', '=', 'MUG-OAT')
        .execute();
      const { site } = await exportSite(db, 'demo');
      expect(site.products.find((p) => p.id === 'speckled-mug')?.variants[0]?.stock).toEqual({ qtyInStock: 1 });
    });

    it('names an unknown site', async () => {
      await expect(exportSite(getDb(), 'nope')).rejects.toThrow("there is no site 'nope' in the database");
    });
  });
});
