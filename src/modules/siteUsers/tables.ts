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
  /** When the session was last used (updated at most every few minutes; migration 023), or null. */
  last_seen_at: string | null;
  /** The browser's User-Agent at sign-in (cut to 300 characters), or null. */
  user_agent: string | null;
}

/** An invitation to join the site's staff (migration 023): an e-mailed link that works once, before it expires. */
export interface StaffInvitesTable {
  /** sha256 (hex) of the link's token; the token itself is only in the e-mail. */
  token_hash: string;
  site_id: string;
  /** Trimmed and lower-cased. */
  email: string;
  role: number;
  /** Who invited, as the audit log names them (an e-mail, or 'vitrine command'). */
  invited_by: string;
  created_at: string;
  expires_at: string;
  /** When the link set the password; null while unused. */
  used_at: string | null;
}

declare module '../../platform/db/tables' {
  interface Database {
    site_users: SiteUsersTable;
    site_user_sessions: SiteUserSessionsTable;
    staff_invites: StaffInvitesTable;
  }
}
