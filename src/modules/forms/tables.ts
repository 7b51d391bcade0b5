/** The tables the forms module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */

/** A form submission key (POST /api/form/FormSubmissionKey), stored as its sha256; used once, before expires_at. */
export interface FormKeysTable {
  key_hash: string;
  site_id: string;
  expires_at: string;
  created_at: string;
}

/** A stored form submission: `fields` is field id → value (§3 shapes), `answers` the titled lines (JSON). */
export interface FormSubmissionsTable {
  id: string;
  site_id: string;
  form_id: string;
  form_name: string;
  fields: string;
  answers: string;
  page_path: string | null;
  created_at: string;
}

export type MailingListStatus = 'pending' | 'confirmed';

/** Each form's submissions counted, and the last one's time (migration 027: kept by triggers on form_submissions). */
export interface FormCountsTable {
  site_id: string;
  form_id: string;
  /** The name the latest submission gave the form. */
  form_name: string;
  submissions: number;
  last_at: string;
}

/** The newsletter's mailing list: one row per e-mail (lower-cased) and site; pending until confirmed (double opt-in). */
export interface MailingListTable {
  id: string;
  site_id: string;
  email: string;
  status: MailingListStatus;
  source_form_id: string | null;
  /** sha256 of the confirmation link's token; null once confirmed. */
  token_hash: string | null;
  created_at: string;
  confirmed_at: string | null;
}

/** ALTCHA's HMAC secret of a site, made on first use. */
export interface CaptchaSecretsTable {
  site_id: string;
  secret: string;
  created_at: string;
}

/** An ALTCHA challenge already solved and accepted (PRIMARY KEY site, challenge: a replay is refused). */
export interface CaptchaSolutionsTable {
  site_id: string;
  challenge_id: string;
  expires_at: string;
}

declare module '../../platform/db/tables' {
  interface Database {
    form_keys: FormKeysTable;
    form_submissions: FormSubmissionsTable;
    form_counts: FormCountsTable;
    mailing_list: MailingListTable;
    captcha_secrets: CaptchaSecretsTable;
    captcha_solutions: CaptchaSolutionsTable;
  }
}
