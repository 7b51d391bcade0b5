/**
 * What the owner reads of the forms (/admin/gathered/forms, /admin/gathered/newsletter): the site's forms with their
 * submission counts, one form's submissions newest first in pages, and the CSVs — the same columns and the same
 * formula-safe cells (src/core/csv.ts) as `vitrine submissions --format csv` and `vitrine subscribers --format csv`.
 */
import type { Kysely } from 'kysely';
import { toCsv } from '../../core/csv';
import type { Database } from '../../platform/db/tables';
import * as catalog from '../catalog';
import type { AnswerLines } from './mail';
import type { Subscriber } from './newsletter';
import type { StoredSubmission } from './submissions';
import type { MailingListStatus } from './tables';

type Db = Kysely<Database>;

export const SUBMISSIONS_PAGE_SIZE = 50;

export interface FormSummary {
  id: string;
  name: string;
  kind: string;
  submissions: number;
  lastAt: string | null;
  /** false: no longer in the site file (its submissions are kept). */
  inSite: boolean;
}

/**
 * The site's forms (the site file's order), then forms removed since that still have submissions; their counts from
 * form_counts (kept in each submission's transaction), not counted at each read.
 */
export async function formSummaries(db: Db, siteId: string): Promise<FormSummary[]> {
  const [forms, counts] = await Promise.all([
    catalog.listForms(db, siteId),
    // Counted as they come (migration 027: triggers on form_submissions), one row per form.
    db
      .selectFrom('form_counts')
      .select(['form_id', 'form_name', 'submissions as n', 'last_at'])
      .where('site_id', '=', siteId)
      .execute(),
  ]);
  const byForm = new Map(counts.map((c) => [c.form_id, c]));
  const known = forms.map((f) => {
    const c = byForm.get(f.id);
    return {
      id: f.id,
      name: f.name,
      kind: f.kind ?? 'form',
      submissions: c ? Number(c.n) : 0,
      lastAt: c?.last_at ?? null,
      inSite: true,
    };
  });
  const gone = counts
    .filter((c) => !forms.some((f) => f.id === c.form_id))
    .map((c) => ({
      id: c.form_id,
      name: c.form_name ?? c.form_id,
      kind: 'removed',
      submissions: Number(c.n),
      lastAt: c.last_at,
      inSite: false,
    }));
  return [...known, ...gone];
}

const fromRow = (r: {
  id: string;
  site_id: string;
  form_id: string;
  form_name: string;
  answers: string;
  page_path: string | null;
  created_at: string;
}): StoredSubmission => ({
  id: r.id,
  siteId: r.site_id,
  formId: r.form_id,
  formName: r.form_name,
  answers: JSON.parse(r.answers) as AnswerLines[],
  pagePath: r.page_path,
  createdAt: r.created_at,
});

/** A page of one form's submissions, newest first. */
export async function pageOfSubmissions(
  db: Db,
  siteId: string,
  formId: string,
  offset: number,
): Promise<{ submissions: StoredSubmission[]; hasNextPage: boolean }> {
  const rows = await db
    .selectFrom('form_submissions')
    .select(['id', 'site_id', 'form_id', 'form_name', 'answers', 'page_path', 'created_at'])
    .where('site_id', '=', siteId)
    .where('form_id', '=', formId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SUBMISSIONS_PAGE_SIZE + 1)
    .offset(offset)
    .execute();
  return {
    submissions: rows.slice(0, SUBMISSIONS_PAGE_SIZE).map(fromRow),
    hasNextPage: rows.length > SUBMISSIONS_PAGE_SIZE,
  };
}

/** Every submission of one form as CSV, oldest first: the columns of `vitrine submissions --format csv`. */
export async function submissionsCsv(db: Db, siteId: string, formId: string): Promise<string> {
  const rows = await db
    .selectFrom('form_submissions')
    .select(['id', 'site_id', 'form_id', 'form_name', 'answers', 'page_path', 'created_at'])
    .where('site_id', '=', siteId)
    .where('form_id', '=', formId)
    .orderBy('created_at', 'asc')
    .orderBy('id')
    .execute();
  return submissionsToCsv(rows.map(fromRow));
}

/** Submissions as CSV: when, site, form, page, then one column per answer title (formula-safe cells). */
export function submissionsToCsv(submissions: readonly StoredSubmission[]): string {
  const titles = [...new Set(submissions.flatMap((s) => s.answers.map((a) => a.title)))];
  const answerOf = (s: StoredSubmission, title: string) =>
    s.answers.find((a) => a.title === title)?.lines.join('\n') ?? '';
  const header = ['Submitted (UTC)', 'Site', 'Form', 'Page', ...titles];
  return toCsv(
    header,
    submissions.map((s) => [s.createdAt, s.siteId, s.formId, s.pagePath ?? '', ...titles.map((t) => answerOf(s, t))]),
  );
}

/** The newsletter's addresses as CSV: the columns of `vitrine subscribers --format csv`. */
export function subscribersToCsv(subscribers: readonly Subscriber[]): string {
  return toCsv(
    ['E-mail', 'Status', 'Site', 'Signed up (UTC)', 'Confirmed (UTC)'],
    subscribers.map((s) => [s.email, s.status, s.siteId, s.createdAt, s.confirmedAt ?? '']),
  );
}

export const SUBSCRIBERS_PAGE_SIZE = 50;

const subscriberOf = (r: {
  email: string;
  status: MailingListStatus;
  site_id: string;
  source_form_id: string | null;
  created_at: string;
  confirmed_at: string | null;
}): Subscriber => ({
  email: r.email,
  status: r.status,
  siteId: r.site_id,
  sourceFormId: r.source_form_id,
  createdAt: r.created_at,
  confirmedAt: r.confirmed_at,
});

/** The site's newsletter addresses (of one status, if given), newest first, in the order of mailing_list_newest. */
const newestQuery = (db: Db, siteId: string, status?: MailingListStatus) =>
  db
    .selectFrom('mailing_list')
    .select(['email', 'status', 'site_id', 'source_form_id', 'created_at', 'confirmed_at'])
    .where('site_id', '=', siteId)
    .$if(status !== undefined, (q) => q.where('status', '=', status!))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');

/** A page of the site's newsletter addresses, newest first: one page read in the index's order (no count). */
export async function pageOfSubscribers(
  db: Db,
  siteId: string,
  options: { status?: MailingListStatus | undefined; offset: number },
): Promise<{ subscribers: Subscriber[]; hasNextPage: boolean }> {
  const rows = await newestQuery(db, siteId, options.status)
    .limit(SUBSCRIBERS_PAGE_SIZE + 1)
    .offset(options.offset)
    .execute();
  return {
    subscribers: rows.slice(0, SUBSCRIBERS_PAGE_SIZE).map(subscriberOf),
    hasNextPage: rows.length > SUBSCRIBERS_PAGE_SIZE,
  };
}

/** Every newsletter address of the site (of one status, if given), newest first: the CSV. */
export async function newestSubscribers(db: Db, siteId: string, status?: MailingListStatus): Promise<Subscriber[]> {
  return (await newestQuery(db, siteId, status).execute()).map(subscriberOf);
}
