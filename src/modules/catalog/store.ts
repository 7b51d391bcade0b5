/**
 * The catalog as an import stores it: a site file's collections, products and variants, written in the import's
 * transaction. Stock is live data (src/core/importStock.ts): a stored variant keeps its stock unless the import asks
 * for the file's. With ./stock.ts this file is the only writer of the variants table; the variants whose stock an import
 * changes get a row in their history (stock_movements, reason 'import').
 */
import { sql, type Kysely } from 'kysely';
import { liveFrom } from '../../core/publishing';
import { planImportStock, type ImportStockChoice, type ImportStockPlan, type StockLevel } from '../../core/importStock';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import type { Collection, Product, Stock } from '../site';
import { productRecordText } from './catalog';
import { recordImportMovements } from './stock';

const CHUNK = 200;

/** A step of a long import and, while storing rows, how many are done (the site import's progress lines). */
export type CatalogProgress = (step: string, done?: number, total?: number) => void;

export interface StoredCatalog {
  /** Each variant's stock before the import, by SKU (what the restock service compares with). */
  stockBefore: Map<string, StockLevel>;
  /** Which variants kept their live stock and which took the file's. */
  stock: ImportStockPlan;
}

/**
 * Replaces the site's collections, products and variants with the file's, inside `trx` (the import's transaction).
 * Products and variants are updated in place, then the ones the file no longer has are deleted, so a sale waiting on
 * a variant row during the import goes through on the kept stock.
 */
export async function storeCatalog(
  trx: Kysely<Database>,
  siteId: string,
  file: { collections: readonly Collection[]; products: readonly Product[] },
  choice: ImportStockChoice | undefined,
  progress?: CatalogProgress,
): Promise<StoredCatalog> {
  // The live stock, read (and on PostgreSQL locked) before anything is written: what the import keeps, and what the
  // restock service compares with to tell which variants this import brings back (0 → above 0).
  const stockBefore = await liveStock(trx, siteId);
  const stock = planImportStock(
    stockBefore,
    file.products.flatMap((p) => p.variants.map((v) => ({ sku: v.sku, stock: stockLevelOf(v.stock) }))),
    choice,
  );
  const storedProducts = (await trx.selectFrom('products').select('id').where('site_id', '=', siteId).execute()).map(
    (r) => r.id,
  );
  await trx.deleteFrom('collections').where('site_id', '=', siteId).execute();
  const collections = file.collections.map((c, position) => ({
    site_id: siteId,
    id: c.id,
    type: c.type,
    slug: c.slug,
    position,
    data: JSON.stringify(c),
  }));
  for (let i = 0; i < collections.length; i += CHUNK) {
    await trx
      .insertInto('collections')
      .values(collections.slice(i, i + CHUNK))
      .execute();
  }
  // The stored products' slugs are set aside first ('~' is never in a slug), so that two products may swap slugs.
  await trx
    .updateTable('products')
    .set({ slug: sql<string>`'~' || id` })
    .where('site_id', '=', siteId)
    .execute();
  const products = file.products.map(({ variants, ...p }, position) => ({
    site_id: siteId,
    id: p.id,
    collection_id: p.collectionId,
    slug: p.slug,
    position,
    product_type: p.productType,
    data: productRecordText(p, variants),
    live_from: liveFrom(p),
  }));
  for (let i = 0; i < products.length; i += CHUNK) {
    await trx
      .insertInto('products')
      .values(products.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['site_id', 'id']).doUpdateSet((eb) => ({
          collection_id: eb.ref('excluded.collection_id'),
          slug: eb.ref('excluded.slug'),
          position: eb.ref('excluded.position'),
          product_type: eb.ref('excluded.product_type'),
          data: eb.ref('excluded.data'),
          live_from: eb.ref('excluded.live_from'),
        })),
      )
      .execute();
    progress?.('products', Math.min(i + CHUNK, products.length), products.length);
  }
  const variants = file.products.flatMap((p, productPosition) =>
    p.variants.map((v, position) => {
      const level = stock.levels.get(v.sku)!;
      return {
        site_id: siteId,
        sku: v.sku,
        product_id: p.id,
        position,
        product_position: productPosition,
        product_name: p.name,
        price: v.price,
        sale_price: v.salePrice ?? null,
        on_sale: v.onSale ? (1 as const) : (0 as const),
        unlimited: level.unlimited ? (1 as const) : (0 as const),
        qty_in_stock: level.unlimited ? 0 : level.qtyInStock,
        data: JSON.stringify(v.attributes),
      };
    }),
  );
  for (let i = 0; i < variants.length; i += CHUNK) {
    await trx
      .insertInto('variants')
      .values(variants.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['site_id', 'sku']).doUpdateSet((eb) => ({
          product_id: eb.ref('excluded.product_id'),
          position: eb.ref('excluded.position'),
          product_position: eb.ref('excluded.product_position'),
          product_name: eb.ref('excluded.product_name'),
          price: eb.ref('excluded.price'),
          sale_price: eb.ref('excluded.sale_price'),
          on_sale: eb.ref('excluded.on_sale'),
          unlimited: eb.ref('excluded.unlimited'),
          qty_in_stock: eb.ref('excluded.qty_in_stock'),
          data: eb.ref('excluded.data'),
        })),
      )
      .execute();
    progress?.('variants', Math.min(i + CHUNK, variants.length), variants.length);
  }
  // The history of each variant whose stock this import changed (a new counted variant: from nothing to its stock).
  await recordImportMovements(
    trx,
    siteId,
    variants.flatMap((v) => {
      const was = stockBefore.get(v.sku);
      const wasQty = was === undefined || was.unlimited ? 0 : was.qtyInStock;
      if (v.unlimited === 1) {
        return was !== undefined && !was.unlimited
          ? [{ sku: v.sku, productId: v.product_id, delta: -wasQty, qtyAfter: 0, note: 'Now unlimited stock' }]
          : [];
      }
      if (was !== undefined && !was.unlimited && wasQty === v.qty_in_stock) return [];
      if (was === undefined && v.qty_in_stock === 0) return [];
      return [{ sku: v.sku, productId: v.product_id, delta: v.qty_in_stock - wasQty, qtyAfter: v.qty_in_stock }];
    }),
  );
  // What the file no longer has: its variants, then its products (deleting a product first would delete its variants).
  const removedSkus = [...stockBefore.keys()].filter((sku) => !stock.levels.has(sku));
  for (let i = 0; i < removedSkus.length; i += CHUNK) {
    await trx
      .deleteFrom('variants')
      .where('site_id', '=', siteId)
      .where('sku', 'in', removedSkus.slice(i, i + CHUNK))
      .execute();
  }
  const keptProducts = new Set(products.map((p) => p.id));
  const removedProducts = storedProducts.filter((id) => !keptProducts.has(id));
  for (let i = 0; i < removedProducts.length; i += CHUNK) {
    await trx
      .deleteFrom('products')
      .where('site_id', '=', siteId)
      .where('id', 'in', removedProducts.slice(i, i + CHUNK))
      .execute();
  }
  return { stockBefore, stock };
}

const stockLevelOf = (stock: Stock): StockLevel =>
  'unlimited' in stock ? { unlimited: true, qtyInStock: 0 } : { unlimited: false, qtyInStock: stock.qtyInStock };

/**
 * The site's variants' live stock, by SKU. PostgreSQL locks the rows until the import commits: a sale waits for the
 * import instead of committing between this read and the import's write. The rows are locked in the SKUs' code-point
 * order (collation "C"), the order in which an order takes its stock (./stock.ts `takeStock`), so the two never
 * hold one row each while waiting for the other's.
 */
async function liveStock(trx: Kysely<Database>, siteId: string): Promise<Map<string, StockLevel>> {
  const query = trx.selectFrom('variants').select(['sku', 'unlimited', 'qty_in_stock']).where('site_id', '=', siteId);
  const rows = await (engineOf(trx) === 'postgres' ? query.orderBy(sql`sku collate "C"`).forUpdate() : query).execute();
  return new Map(rows.map((r) => [r.sku, { unlimited: r.unlimited === 1, qtyInStock: Number(r.qty_in_stock) }]));
}
