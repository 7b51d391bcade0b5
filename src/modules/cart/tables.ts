/** The tables the cart module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Insertable, Selectable } from 'kysely';
import type { Bool } from '../../platform/db/tables';

export interface CartsTable {
  /** Random 128-bit token, base64url. */
  id: string;
  site_id: string;
  created_at: string;
  updated_at: string;
  is_purchased: Bool;
  /** The order that bought this cart (orders.id), set with is_purchased. */
  order_id: string | null;
  /**
   * The page's cart claim (X-Cart-Claim) the cart was created with, or null: adds sent at once with one claim and no
   * cookie make this one cart. UNIQUE (site_id, claim); honoured only briefly after created_at (src/modules/cart/cart.ts).
   */
  claim: string | null;
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

export type CartRow = Selectable<CartsTable>;
export type NewCartRow = Insertable<CartsTable>;
export type CartEntryRow = Selectable<CartEntriesTable>;
export type NewCartEntryRow = Insertable<CartEntriesTable>;

declare module '../../platform/db/tables' {
  interface Database {
    carts: CartsTable;
    cart_entries: CartEntriesTable;
  }
}
