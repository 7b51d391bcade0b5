/** The tables the restock module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Bool } from '../../platform/db/tables';

/**
 * A shopper's restock sign-up (spec §3): one per e-mail and variant of a site. `notified_at` is set by the send that
 * e-mails it (in the transaction that writes the e-mail to the outbox), so each sign-up is e-mailed once.
 */
export interface RestockSignUpsTable {
  id: string;
  site_id: string;
  product_id: string;
  /** The variant (§3 variantId). */
  sku: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** The shopper asked to join the mailing list too (and the product offered it). */
  joined_mailing_list: Bool;
  /** The origin of the links in its e-mail (the site's address the shopper signed up at). */
  base_url: string;
  created_at: string;
  notified_at: string | null;
  /** sha256 (hex) of the unsubscribe link's token in its e-mail; null until e-mailed. */
  unsubscribe_token_hash: string | null;
}

/** Per variant with sign-ups: when it last came back in stock, and whether the automatic send has yet to look. */
export interface RestockVariantsTable {
  site_id: string;
  sku: string;
  product_id: string;
  restocked_at: string | null;
  /** 'import' or 'refund'. */
  restock_source: string | null;
  restocked_qty: number | null;
  auto_send_pending: Bool;
}

declare module '../../platform/db/tables' {
  interface Database {
    restock_sign_ups: RestockSignUpsTable;
    restock_variants: RestockVariantsTable;
  }
}
