/** The tables the checkout module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */

export interface CouponUsageTable {
  site_id: string;
  /** Upper case. */
  code: string;
  uses: number;
}

export interface CouponEmailUsesTable {
  site_id: string;
  code: string;
  /** Lower case, trimmed. */
  email: string;
  order_id: string;
}

declare module '../../platform/db/tables' {
  interface Database {
    coupon_usage: CouponUsageTable;
    coupon_email_uses: CouponEmailUsesTable;
  }
}
