/**
 * The newsletter's mailing list, double opt-in: a sign-up is 'pending' and e-mailed a confirmation link (a random
 * 256-bit token, stored as its sha256); following it makes the address 'confirmed'. One row per e-mail (lower-cased)
 * and site: signing up again while pending sends a new link (the old one stops working); a confirmed address stays
 * confirmed and is sent nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ok } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import type { MailingListStatus } from './tables';
import { inTransaction } from '../../platform/db/transaction';
import { enqueueEmail } from '../../platform/mail/outbox';
import { newsletterConfirmationEmail } from './mail';

type Db = Kysely<Database>;

export const NEWSLETTER_CONFIRM_PATH = '/newsletter/confirm';
export const NEWSLETTER_MAIL_KIND = 'newsletter-confirmation';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export const confirmUrlOf = (baseUrl: string, token: string) =>
  `${baseUrl}${NEWSLETTER_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;

/**
 * Signs `email` up (inside the caller's transaction): a new or pending address gets a fresh token and the
 * confirmation e-mail; a confirmed one is left as it is. Returns the status after.
 */
export async function signUp(
  trx: Db,
  site: { id: string; title: string },
  input: { email: string; formId: string; baseUrl: string },
  now: Date = new Date(),
): Promise<MailingListStatus> {
  const email = input.email.trim().toLowerCase();
  const existing = await trx
    .selectFrom('mailing_list')
    .select(['id', 'status'])
    .where('site_id', '=', site.id)
    .where('email', '=', email)
    .executeTakeFirst();
  if (existing?.status === 'confirmed') return 'confirmed';
  const token = randomBytes(32).toString('base64url');
  if (existing) {
    await trx
      .updateTable('mailing_list')
      .set({ token_hash: hashOf(token) })
      .where('id', '=', existing.id)
      .execute();
  } else {
    await trx
      .insertInto('mailing_list')
      .values({
        id: randomBytes(12).toString('base64url'),
        site_id: site.id,
        email,
        status: 'pending',
        source_form_id: input.formId,
        token_hash: hashOf(token),
        created_at: now.toISOString(),
        confirmed_at: null,
      })
      .execute();
  }
  const mail = newsletterConfirmationEmail({ siteTitle: site.title, confirmUrl: confirmUrlOf(input.baseUrl, token) });
  await enqueueEmail(trx, { siteId: site.id, kind: NEWSLETTER_MAIL_KIND, to: email, ...mail }, now);
  return 'pending';
}

/** Follows a confirmation link: the address it names (of this site), or null for an unknown or spent token. */
export async function confirmSubscription(
  db: Db,
  siteId: string,
  token: unknown,
  now: Date = new Date(),
): Promise<string | null> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
  const result = await inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('mailing_list')
      .select(['id', 'email'])
      .where('site_id', '=', siteId)
      .where('token_hash', '=', hashOf(token))
      .executeTakeFirst();
    if (!row) return ok(null);
    await trx
      .updateTable('mailing_list')
      .set({ status: 'confirmed', confirmed_at: now.toISOString(), token_hash: null })
      .where('id', '=', row.id)
      .execute();
    return ok(row.email);
  });
  return result.ok ? result.value : null;
}

export interface Subscriber {
  email: string;
  status: MailingListStatus;
  siteId: string;
  sourceFormId: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

export async function listSubscribers(
  db: Db,
  filter: { siteId?: string; status?: MailingListStatus } = {},
): Promise<Subscriber[]> {
  let query = db.selectFrom('mailing_list').selectAll().orderBy('created_at', 'asc').orderBy('id');
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const rows = await query.execute();
  return rows.map((r) => ({
    email: r.email,
    status: r.status,
    siteId: r.site_id,
    sourceFormId: r.source_form_id,
    createdAt: r.created_at,
    confirmedAt: r.confirmed_at,
  }));
}
