/**
 * The catalog: products, variants, collections, forms and assets of a site as stored, their stock (read now, and watched for cached pages), and the inventory call of §7.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export * from './catalog';
export {
  getAsset,
  getCollection,
  getForm,
  getProduct,
  getProductWithRows,
  getProducts,
  groupBy,
  listCollections,
  parsedRecord,
  productFromRows,
} from './catalog';
export { merchandisingContext, toCoreProduct } from './coreProduct';
export { StockWatch } from './stockWatch';
export {
  adjustStock,
  putBack,
  setStock,
  takeStock,
  type MovementInfo,
  type StockEdit,
  type StockEditRefusal,
} from './stock';
export { storeCatalog, type CatalogProgress, type StoredCatalog } from './store';
export type { StockMovementReason, StockMovementRow, VariantRow } from './tables';
export { countStockAlerts } from './inventoryAdmin';
export { lowStockJob } from './jobs';
export { sendLowStockNotice, sendLowStockNotices, type LowStockOutcome } from './lowStock';
