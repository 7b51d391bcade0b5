/**
 * Issue 23: an import never undoes sales. On SQLite and PostgreSQL: orders placed through the checkout API, then
 * `vitrine import` of the same file keeps the live stock (and says where the file differs), new variants take the
 * file's stock, `--stock file:SKU,…` and `--stock file` take the file's on request; products may swap slugs and
 * leave; and on PostgreSQL a sale committing while the import waits for its rows is kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { getSite } from '../../src/modules/site/sites';
import { importSite } from '../../src/modules/site/import';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { checkoutSite, NEW_YORK, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { vitrine } from '../support/cli';
import { sendCrumbs } from '../support/crumb';
import { forEachEngine } from '../support/engines';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const ORDERS_API = '/api/commerce/checkout/orders';

const tmp = mkdtempSync(join(tmpdir(), 'vitrine-import-stock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The checkout shop as a site file on disk (with `edit` applied); its path. */
function siteFile(name: string, edit: (site: SiteFileInput) => void = () => {}): string {
  const site = structuredClone(checkoutSite);
  edit(site);
  const path = join(tmp, `${name}.json`);
  writeFileSync(path, JSON.stringify(site));
  return path;
}
const FILE = siteFile('shop');
const variantCount = checkoutSite.products!.reduce((n, p) => n + p.variants.length, 0);
const poster = (qtyInStock: number) => ({
  id: 'poster',
  collectionId: 'shop',
  slug: 'poster',
  name: 'Poster',
  productType: 1 as const,
  variants: [{ sku: 'poster-1', price: 1500, stock: { qtyInStock } }],
});

describe('vitrine import --stock: usage', () => {
  it('is in the help', async () => {
    // The help wraps its descriptions to the terminal: read it as running text.
    const help = (await vitrine(['help'], 'sqlite::memory:')).out.join('\n').replace(/\s+/g, ' ');
    expect(help).toContain('import FILE [--stock file|file:SKU,SKU…]');
    expect(help).toContain(
      "variants already stored keep their live stock (sales stay sold), new ones take the file's; --stock file takes the file's stock for every variant",
    );
  });

  it('refuses a wrong --stock with exit code 2 and a hint, before touching the database', async () => {
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    const cases: [string[], string][] = [
      [['import', FILE, '--stock'], "option '--stock' needs a value"],
      [['import', FILE, '--stock', 'files'], "option '--stock' must be live, file or file:SKU,SKU…, not 'files'"],
      [['import', FILE, '--stock=file:'], "option '--stock' must be live, file or file:SKU,SKU…, not 'file:'"],
      [
        ['import', FILE, '--stock', 'file:MUG,'],
        "option '--stock' must be live, file or file:SKU,SKU…, not 'file:MUG,'",
      ],
      [['import', '--stock', FILE], `option '--stock' must be live, file or file:SKU,SKU…, not '${FILE}'`],
      [['import', '--stock', 'file'], "'import' needs the site file: vitrine import FILE"],
      [['import', FILE, '--stock', 'file', '--stock', 'live'], "option '--stock' is given twice"],
      [['import', FILE, '--force'], "unknown option '--force' for 'import'"],
    ];
    for (const [args, message] of cases) {
      const run = await vitrine(args, unreachable);
      expect(run.err, args.join(' ')).toEqual([`vitrine: ${message}. Run 'vitrine help' for usage.`]);
      expect(run.code).toBe(2);
    }
  });
});

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  let keyCounter = 0;
  const importFile = (...args: string[]) => vitrine(['import', ...args], getFresh().url);

  beforeAll(async () => {
    app = sendCrumbs(await buildApp({ db: getDb(), engine, cartRateLimitPerMinute: 1_000_000 }));
  });
  afterAll(async () => {
    await app?.close();
  });

  const json = (url: string, payload: unknown, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(payload),
    });
  const cartCookieOf = (response: LightMyRequestResponse) =>
    `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
  /** Buys these lines through the cart and checkout APIs. */
  const sell = async (lines: { itemId: string; sku: string; quantity: number }[]) => {
    let cookie: string | undefined;
    for (const line of lines) {
      const added = await json(ENTRIES_API, { additionalFields: '', ...line }, cookie);
      expect(added.statusCode, added.body).toBe(200);
      cookie ??= cartCookieOf(added);
    }
    const idempotencyKey = `import-stock-${engine}-${(keyCounter++).toString().padStart(6, '0')}`;
    const shopper = { email: 'ada@example.com', shippingAddress: NEW_YORK, shippingOptionId: 'standard' };
    const placed = await json(ORDERS_API, { idempotencyKey, payment: TEST_CARD, ...shopper }, cookie);
    expect(placed.statusCode, placed.body).toBe(201);
  };
  const stockOf = async (sku: string) =>
    (await getDb()
      .selectFrom('variants')
      .select(['unlimited', 'qty_in_stock'])
      .where('site_id', '=', 'shop')
      .where('sku', '=', sku)
      .executeTakeFirst()) ?? null;
  const qtyOf = async (sku: string) => Number((await stockOf(sku))?.qty_in_stock);
  const versionOf = async () => (await getSite(getDb(), 'shop'))?.version;
  const summary = (version: number, products = 8, variants = variantCount) =>
    `Imported site 'shop' (Shop), version ${version}: ${products} products, ${variants} variants, 1 collections, 0 pages, 0 posts, 1 forms, 0 images`;

  it("a first import: every variant takes the file's stock", async () => {
    expect(await importFile(FILE)).toEqual({
      code: 0,
      err: [],
      out: [
        `Reading ${FILE} and its images…`,
        summary(1),
        `Stock: ${variantCount} new variants took the file's stock.`,
      ],
    });
    expect(await qtyOf('limited-1')).toBe(7);
  });

  it('sells, then imports the same file: the live stock stays, the differences are listed, the version goes up', async () => {
    await sell([
      { itemId: 'limited', sku: 'limited-1', quantity: 2 },
      { itemId: 'tee', sku: 'tee-s-red', quantity: 3 },
    ]);
    await sell([{ itemId: 'one-of-a-kind', sku: 'ooak-1', quantity: 1 }]);
    expect([await qtyOf('limited-1'), await qtyOf('tee-s-red'), await qtyOf('ooak-1')]).toEqual([5, 0, 0]);
    expect(await importFile(FILE)).toEqual({
      code: 0,
      err: [],
      out: [
        `Reading ${FILE} and its images…`,
        summary(2),
        `Stock: kept the live stock of ${variantCount} variants.`,
        "  Live stock kept where the file differs (--stock file:SKU,… takes the file's):",
        '    tee-s-red  0 (file: 3)',
        '    limited-1  5 (file: 7)',
        '    ooak-1     0 (file: 1)',
      ],
    });
    expect([await qtyOf('limited-1'), await qtyOf('tee-s-red'), await qtyOf('ooak-1')]).toEqual([5, 0, 0]);
    expect(await stockOf('ebook-1')).toEqual({ unlimited: 1, qty_in_stock: 0 });
    expect(await versionOf()).toBe(2);
    // The shop sells from the kept stock: the print that sold out stays sold out.
    const added = await json(ENTRIES_API, {
      itemId: 'one-of-a-kind',
      sku: 'ooak-1',
      quantity: 1,
      additionalFields: '',
    });
    expect(added.statusCode).toBe(409);
  });

  it("a new variant takes the file's stock; a variant the file no longer has goes with its product", async () => {
    const withPoster = siteFile('with-poster', (site) => site.products!.push(poster(4)));
    const run = await importFile(withPoster);
    expect(run.out.slice(1, 3)).toEqual([
      summary(3, 9, variantCount + 1),
      `Stock: kept the live stock of ${variantCount} variants; 1 new variant took the file's stock.`,
    ]);
    expect([await qtyOf('poster-1'), await qtyOf('limited-1')]).toEqual([4, 5]);

    expect((await importFile(FILE)).code).toBe(0);
    expect(await stockOf('poster-1')).toBeNull();
    expect(
      await getDb()
        .selectFrom('products')
        .select('id')
        .where('site_id', '=', 'shop')
        .where('id', '=', 'poster')
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("--stock file:SKU,… takes the file's stock for those variants only", async () => {
    const run = await importFile(FILE, '--stock', 'file:limited-1,ebook-1');
    expect(run.code).toBe(0);
    expect(run.out.slice(2)).toEqual([
      `Stock: kept the live stock of ${variantCount - 2} variants; took the file's stock for 2 variants.`,
      "  Live stock kept where the file differs (--stock file:SKU,… takes the file's):",
      '    tee-s-red  0 (file: 3)',
      '    ooak-1     0 (file: 1)',
      "  Changed to the file's stock:",
      '    limited-1  7 (was 5)',
    ]);
    expect([await qtyOf('limited-1'), await qtyOf('tee-s-red'), await qtyOf('ooak-1')]).toEqual([7, 0, 0]);
  });

  it("--stock file takes the file's stock for every variant", async () => {
    await sell([{ itemId: 'limited', sku: 'limited-1', quantity: 1 }]);
    const run = await importFile(`--stock=file`, FILE);
    expect(run.code).toBe(0);
    expect(run.out.slice(2)).toEqual([
      `Stock: took the file's stock for ${variantCount} variants.`,
      "  Changed to the file's stock:",
      '    tee-s-red  3 (was 0)',
      '    limited-1  7 (was 6)',
      '    ooak-1     1 (was 0)',
    ]);
    expect([await qtyOf('limited-1'), await qtyOf('tee-s-red'), await qtyOf('ooak-1')]).toEqual([7, 3, 1]);
    // A counted variant made unlimited in the file, and back: only on request.
    const unlimitedTee = siteFile('unlimited-tee', (site) => {
      site.products!.find((p) => p.id === 'tee')!.variants[0]!.stock = { unlimited: true };
    });
    expect((await importFile(unlimitedTee)).out.at(-1)).toBe('    tee-s-red  3 (file: unlimited)');
    expect(await stockOf('tee-s-red')).toEqual({ unlimited: 0, qty_in_stock: 3 });
    expect((await importFile(unlimitedTee, '--stock', 'file:tee-s-red')).out.at(-1)).toBe(
      '    tee-s-red  unlimited (was 3)',
    );
    expect(await stockOf('tee-s-red')).toEqual({ unlimited: 1, qty_in_stock: 0 });
    expect((await importFile(FILE, '--stock', 'file:tee-s-red')).out.at(-1)).toBe('    tee-s-red  3 (was unlimited)');
  });

  it('refuses a SKU the file does not have, changing nothing', async () => {
    const version = await versionOf();
    expect(await importFile(FILE, '--stock', 'file:limited-1,NOPE')).toEqual({
      code: 1,
      out: [`Reading ${FILE} and its images…`],
      err: [`vitrine: ${FILE} was refused: --stock file:NOPE: the file has no variant with SKU 'NOPE'`],
    });
    expect(await versionOf()).toBe(version);
  });

  it("lets products swap slugs and change collection order, keeping their variants' stock", async () => {
    await sell([{ itemId: 'limited', sku: 'limited-1', quantity: 2 }]);
    const swapped = siteFile('swapped', (site) => {
      const limited = site.products!.find((p) => p.id === 'limited')!;
      const ebook = site.products!.find((p) => p.id === 'ebook')!;
      [limited.slug, ebook.slug] = [ebook.slug, limited.slug];
      site.products!.reverse();
    });
    expect((await importFile(swapped)).code).toBe(0);
    expect(await qtyOf('limited-1')).toBe(5);
    const slugs = await getDb()
      .selectFrom('products')
      .select(['id', 'slug'])
      .where('site_id', '=', 'shop')
      .where('id', 'in', ['limited', 'ebook'])
      .orderBy('id')
      .execute();
    expect(slugs).toEqual([
      { id: 'ebook', slug: 'limited' },
      { id: 'limited', slug: 'ebook' },
    ]);
    expect((await importFile(FILE)).code).toBe(0);
  });

  it('announces a sold-out variant back in stock only when the import sets its stock', async () => {
    await sell([{ itemId: 'one-of-a-kind', sku: 'ooak-1', quantity: 1 }]);
    // A shopper waits for the print (the row a restock sign-up makes).
    await getDb()
      .insertInto('restock_variants')
      .values({
        site_id: 'shop',
        sku: 'ooak-1',
        product_id: 'one-of-a-kind',
        restocked_at: null,
        restock_source: null,
        restocked_qty: null,
        auto_send_pending: 0,
      })
      .execute();
    const restock = () =>
      getDb()
        .selectFrom('restock_variants')
        .select(['restock_source', 'restocked_qty', 'auto_send_pending'])
        .where('site_id', '=', 'shop')
        .where('sku', '=', 'ooak-1')
        .executeTakeFirstOrThrow();
    expect((await importFile(FILE)).code).toBe(0);
    expect(await restock()).toEqual({ restock_source: null, restocked_qty: null, auto_send_pending: 0 });
    expect(await qtyOf('ooak-1')).toBe(0);
    expect((await importFile(FILE, '--stock', 'file:ooak-1')).code).toBe(0);
    expect(await restock()).toEqual({ restock_source: 'import', restocked_qty: 1, auto_send_pending: 1 });
  });

  if (engine === 'postgres') {
    it('keeps a sale that commits while the import waits for the variant rows', async () => {
      const before = await qtyOf('limited-1');
      const sale = new pg.Client({ connectionString: getFresh().url });
      await sale.connect();
      try {
        await sale.query('BEGIN');
        await sale.query(
          "UPDATE variants SET qty_in_stock = qty_in_stock - 1 WHERE site_id = 'shop' AND sku = 'limited-1'",
        );
        const importing = importSite(getDb(), JSON.stringify(checkoutSite), tmp);
        // The import reaches the variant rows and waits for the sale's lock.
        await expect
          .poll(
            async () =>
              (
                await sale.query(
                  "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                )
              ).rows[0].n as number,
            { timeout: 30_000 },
          )
          .toBe(1);
        await sale.query('COMMIT');
        const result = await importing;
        expect(await qtyOf('limited-1')).toBe(before - 1);
        expect(result.stock.keptDiffering).toContainEqual({
          sku: 'limited-1',
          live: { unlimited: false, qtyInStock: before - 1 },
          file: { unlimited: false, qtyInStock: 7 },
        });
      } finally {
        await sale.end();
      }
    });
  }
});
