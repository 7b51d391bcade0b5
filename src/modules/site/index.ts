/**
 * The site file (schema, validation, import, export), the stored site versions, their cache by host, and the context config of §7.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { type ContextConfig } from './contextConfig';
export { editSite, type EditFailure, type EditSubject, type SiteContent, type SiteEdit } from './edit';
export { SiteNotFoundError, exportSiteToFile } from './export';
export { SiteFileError, importSiteFile, type ImportResult } from './import';
export {
  type Block,
  type Collection,
  type Form,
  type FormField,
  type GalleryBlock,
  type Image,
  type Page,
  type PaymentSettings,
  type Post,
  type Product,
  type PromoPopup,
  type Stock,
  type Variant,
  type Website,
} from './schema';
export { SITE_CACHE_TTL_MS, SiteCache, subscribeToSiteChanges } from './siteCache';
export {
  findSiteByHost,
  getSite,
  listSites,
  onSiteChange,
  type ImportProgress,
  type Site,
  type SiteAsset,
} from './sites';
export { registerSitePlugin, siteOf, type RequestSite } from './requestSite';
export { siteFor } from './siteFor';
