/** The tables the siteUsers module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */

export interface SiteUsersTable {
  id: string;
  site_id: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** scrypt$log2N$r$p$salt$hash (src/modules/siteUsers/passwords.ts). */
  password_hash: string;
  /** A contributor role of spec §3 (ContributorRole in src/core/enums.ts). */
  role: number;
  created_at: string;
}

export interface SiteUserSessionsTable {
  /** sha256 (hex) of the session cookie's token. */
  token_hash: string;
  site_user_id: string;
  expires_at: string;
  created_at: string;
}

declare module '../../platform/db/tables' {
  interface Database {
    site_users: SiteUsersTable;
    site_user_sessions: SiteUserSessionsTable;
  }
}
