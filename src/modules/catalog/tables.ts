/** The tables the catalog module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Generated, Selectable } from 'kysely';
import type { Bool } from '../../platform/db/tables';

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
  /** From when it is on the storefront (migration 031): null published, an ISO UTC time, or NEVER_LIVE (a draft). */
  live_from: string | null;
}

/** Stock lives here and only here. */
export interface VariantsTable {
  site_id: string;
  sku: string;
  product_id: string;
  position: number;
  /** The product's position, copied (migration 026): the inventory's catalog order is one index. */
  product_position: Generated<number>;
  /** The product's name, copied by the import (migration 027: the inventory's search by a part of it). */
  product_name: Generated<string>;
  price: number;
  sale_price: number | null;
  on_sale: Bool;
  unlimited: Bool;
  /** 0 when `unlimited` is 1. */
  qty_in_stock: number;
  /** JSON: the variant's attributes (option name → value). */
  data: string;
  /** Set by a trigger from one growing counter whenever the stock changes (migration 016): what servers watch. */
  stock_seq: Generated<number>;
}

/** What moved a variant's stock: an order, a subscription's renewal, a refund's restock, an import, the owner. */
export type StockMovementReason = 'sale' | 'renewal' | 'refund' | 'import' | 'edit';

/** One change of a variant's stock (migration 020): the variant's history, newest last; rows are only added. */
export interface StockMovementsTable {
  /** Random token. */
  id: string;
  site_id: string;
  sku: string;
  product_id: string;
  /** Units added (negative: taken). */
  delta: number;
  /** The stock right after the change. */
  qty_after: number;
  reason: StockMovementReason;
  /** The owner's words, for an edit. */
  note: string | null;
  order_id: string | null;
  /** Who: a staff member's e-mail, 'vitrine command'; null for the shop itself (a sale, an import). */
  actor: string | null;
  /** ISO-8601 UTC. */
  created_at: string;
}

/** The day (UTC) a site's low-stock e-mail went out (migration 023): at most one row, and one e-mail, a day. */
export interface LowStockNoticesTable {
  site_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** How many variants were low. */
  variants: number;
  sent_at: string;
}

export type StockMovementRow = Selectable<StockMovementsTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type ProductRow = Selectable<ProductsTable>;
/** A variant as the services read it (its change number is the stock watch's alone: src/modules/catalog/stockChanges.ts). */
export type VariantRow = Omit<Selectable<VariantsTable>, 'stock_seq' | 'product_position' | 'product_name'>;

declare module '../../platform/db/tables' {
  interface Database {
    collections: CollectionsTable;
    products: ProductsTable;
    variants: VariantsTable;
    stock_movements: StockMovementsTable;
    low_stock_notices: LowStockNoticesTable;
  }
}
