/** The tables the pageLocks module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */

/** The HMAC secret of a site's page-lock cookies (src/modules/pageLocks/pageLocks.ts), made on first use. */
export interface PageLockSecretsTable {
  site_id: string;
  secret: string;
  created_at: string;
}

declare module '../../platform/db/tables' {
  interface Database {
    page_lock_secrets: PageLockSecretsTable;
  }
}
