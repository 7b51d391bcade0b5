/**
 * Kysely table types: the database contract of docs/architecture.md. Same logical schema on SQLite and PostgreSQL:
 * booleans are integers 0/1, JSON documents are TEXT, times are ISO-8601 TEXT (UTC), money is integer minor units.
 * Row types (these) and site-file types (src/site/schema.ts) are different types; services map between them.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';

/** 0 or 1. */
export type Bool = 0 | 1;

export interface SitesTable {
  id: string;
  title: string;
  /** JSON array of host names. */
  domains: string;
  is_default: Bool;
  currency: string;
  /** JSON: the site file's `website` object. */
  settings: string;
  /** Bumped on every import; rendered pages are cached per version. */
  version: number;
  updated_at: string;
}

export interface CollectionsTable {
  site_id: string;
  id: string;
  type: string;
  slug: string;
  position: number;
  /** JSON: the site file's collection. */
  data: string;
}

export interface ProductsTable {
  site_id: string;
  id: string;
  collection_id: string;
  slug: string;
  position: number;
  product_type: number;
  /** JSON: the site file's product without `variants`. */
  data: string;
}

/** Stock lives here and only here. */
export interface VariantsTable {
  site_id: string;
  sku: string;
  product_id: string;
  position: number;
  price: number;
  sale_price: number | null;
  on_sale: Bool;
  unlimited: Bool;
  /** 0 when `unlimited` is 1. */
  qty_in_stock: number;
  /** JSON: the variant's attributes (option name → value). */
  data: string;
}

export interface FormsTable {
  site_id: string;
  id: string;
  position: number;
  data: string;
}

export interface PagesTable {
  site_id: string;
  id: string;
  path: string;
  position: number;
  data: string;
}

export interface PostsTable {
  site_id: string;
  id: string;
  collection_id: string;
  slug: string;
  position: number;
  data: string;
}

/** Images shipped with a site file; `path` is the image's `file` as written in the site file. */
export interface AssetsTable {
  site_id: string;
  path: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export interface CartsTable {
  /** Random 128-bit token, base64url. */
  id: string;
  site_id: string;
  created_at: string;
  updated_at: string;
  is_purchased: Bool;
}

export interface CartEntriesTable {
  /** Chosen by the service (a random token); TEXT on both engines. */
  id: string;
  cart_id: string;
  item_id: string;
  sku: string;
  quantity: number;
  /** JSON text, '' when none. */
  additional_fields: string;
  unit_price: number;
  created_at: string;
}

export interface Database {
  sites: SitesTable;
  collections: CollectionsTable;
  products: ProductsTable;
  variants: VariantsTable;
  forms: FormsTable;
  pages: PagesTable;
  posts: PostsTable;
  assets: AssetsTable;
  carts: CartsTable;
  cart_entries: CartEntriesTable;
}

export type SiteRow = Selectable<SitesTable>;
export type NewSiteRow = Insertable<SitesTable>;
export type SiteUpdate = Updateable<SitesTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type VariantRow = Selectable<VariantsTable>;
export type FormRow = Selectable<FormsTable>;
export type PageRow = Selectable<PagesTable>;
export type PostRow = Selectable<PostsTable>;
export type AssetRow = Selectable<AssetsTable>;
export type CartRow = Selectable<CartsTable>;
export type NewCartRow = Insertable<CartsTable>;
export type CartEntryRow = Selectable<CartEntriesTable>;
export type NewCartEntryRow = Insertable<CartEntriesTable>;
