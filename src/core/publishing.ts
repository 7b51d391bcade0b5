/**
 * Editor statuses (spec §4 names Draft, Scheduled, Needs Review; the transitions are ours): whether a page, a blog
 * post or a product is on the storefront, and who may put it there (issue 26).
 *
 * In the site file a thing is published unless it says otherwise: `status` is absent (published), 'draft', 'scheduled'
 * (with `publishAt`: it goes live then, on its own) or 'needs-review' (a draft waiting for an editor). The storefront
 * shows what is live at the instant it is asked (`liveAt`, an ISO time in UTC): published things and scheduled ones
 * whose time has come. A staff member's preview sees everything (`EVERYTHING`, the end of time).
 *
 * Who sets what (the matrix of `publicationRefusal`): whoever may publish a kind sets any status of it — admins and
 * website managers everything, editors pages and posts, store managers products; a draft editor saves pages and posts as
 * Draft or Needs Review only, and changes only those that are not live (spec §3: "draft editor: drafts only").
 *
 * "Deprecated" (§4's fourth word) is not a status here: a thing no longer wanted is set back to Draft or deleted.
 */
import { ContributorRole } from './enums';
import { roleName } from './siteUserRoles';
import { staffCan } from './staffAccess';
import { instantOf, localTimeOf, usableTimeZone } from './subscriptionSchedule';

/** The statuses an editor chooses from, in the order the editor offers them. */
export const PUBLICATION_STATUSES = ['published', 'draft', 'needs-review', 'scheduled'] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];

/** The statuses a site file writes (absent: published). */
export const STORED_STATUSES = ['draft', 'scheduled', 'needs-review'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];

/** What the editors show for each status (§4's words). */
export const STATUS_LABELS: Readonly<Record<PublicationStatus, string>> = {
  published: 'Published',
  draft: 'Draft',
  'needs-review': 'Needs Review',
  scheduled: 'Scheduled',
};

/** The publication fields of a page, post or product as the site file has them. */
export interface Publication {
  status?: StoredStatus | undefined;
  /** With 'scheduled': when it goes live (ISO date-time with an offset). */
  publishAt?: string | undefined;
}

/** Sorts after every time a thing can go live: what is never live by itself (a draft), and what staff see (all). */
export const NEVER_LIVE = '9999-12-31T23:59:59.999Z';
/** The `liveAt` of a staff member's preview: everything, drafts included. */
export const EVERYTHING = NEVER_LIVE;

/** An ISO time as the storefront compares them: UTC with milliseconds ('2026-06-01T14:00:00.000Z'). */
export const utcTime = (ms: number): string => new Date(ms).toISOString();

/**
 * From when a thing is on the storefront: null for a published one (always), the UTC time of a scheduled one, and
 * NEVER_LIVE for a draft or one that needs review. Stored beside the record (`live_from`) so reads filter in SQL.
 */
export function liveFrom(p: Publication): string | null {
  if (p.status === undefined) return null;
  if (p.status === 'scheduled' && p.publishAt !== undefined) {
    const ms = Date.parse(p.publishAt);
    if (Number.isFinite(ms)) return utcTime(ms);
  }
  return NEVER_LIVE;
}

/** Whether the storefront at `liveAt` (an ISO UTC time, or EVERYTHING) shows it. */
export function isLiveAt(p: Publication, liveAt: string): boolean {
  const from = liveFrom(p);
  return from === null || from <= liveAt;
}

/** The status as stored ('published' when the file says none). */
export const statusOf = (p: Publication): PublicationStatus => p.status ?? 'published';

/** The status an owner sees at `now`: a scheduled thing whose time has come is published. */
export function shownStatus(p: Publication, now: number): PublicationStatus {
  if (p.status === 'scheduled' && p.publishAt !== undefined && Date.parse(p.publishAt) <= now) return 'published';
  return statusOf(p);
}

/** The site file's fields for a status (a published thing writes none; `publishAt` only with 'scheduled'). */
export function publicationFields(status: PublicationStatus, publishAt?: string): Publication {
  if (status === 'published') return {};
  if (status === 'scheduled') return { status, ...(publishAt !== undefined ? { publishAt } : {}) };
  return { status };
}

/** The times (ISO UTC, sorted, each once) at which things of `items` scheduled after `now` go live. */
export function upcomingPublishTimes(items: Iterable<Publication>, now: number): string[] {
  const times = new Set<string>();
  for (const item of items) {
    if (item.status !== 'scheduled') continue;
    const from = liveFrom(item);
    if (from !== null && from !== NEVER_LIVE && Date.parse(from) > now) times.add(from);
  }
  return [...times].sort();
}

/**
 * The storefront's edition of a site at `now`: its version while none of its upcoming publish times (`times`, ms,
 * sorted) has come, then `{version}.{n}` after the n-th. Cached pages and the site's shared data are kept per edition,
 * so a scheduled thing appears at its time on every process, with no restart and no new version.
 */
export function liveEdition(version: number, times: readonly number[], now: number): string {
  let passed = 0;
  while (passed < times.length && times[passed]! <= now) passed++;
  return passed === 0 ? String(version) : `${version}.${passed}`;
}

// ---------------------------------------------------------------- the editor's publish time

/** A `datetime-local` value ('2026-06-01T10:00') as the editor shows an instant in the site's time zone. */
export function localInputOf(iso: string, timeZone: string): string {
  const t = localTimeOf(new Date(iso), usableTimeZone(timeZone));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(t.year).padStart(4, '0')}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}`;
}

/** What is wrong with a publish time the editor was given. */
export const PUBLISH_TIME_MESSAGES = {
  missing: 'Choose when to publish it',
  invalid: 'must be a date and time like 2026-06-01T10:00',
  past: 'must be in the future (choose Published to publish now)',
} as const;

/**
 * A publish time typed in the editor: a `datetime-local` value in the site's time zone ('2026-06-01T10:00') or an ISO
 * time with an offset; the instant it names (ISO UTC), or what is wrong (it must be after `now`).
 *
 * `kept` is the publish time stored for the thing (a scheduled one's `publishAt`). Sent back as the editor shows it —
 * its minute, which drops the seconds — or as the same instant, it stays as stored while it is still to come: a page
 * scheduled for 10:30:45 and saved unchanged at 10:30:20 is neither refused as past nor moved to 10:30:00.
 */
export function parsePublishTime(
  typed: string,
  timeZone: string,
  now: number,
  kept?: string,
): { ok: true; publishAt: string } | { ok: false; message: string } {
  const value = typed.trim();
  if (value === '') return { ok: false, message: PUBLISH_TIME_MESSAGES.missing };
  const keptMs = kept === undefined ? NaN : Date.parse(kept);
  const stays = keptMs > now;
  if (stays && value === localInputOf(kept!, timeZone)) return { ok: true, publishAt: kept! };
  let ms: number;
  const local = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (local) {
    const [year, month, day, hour, minute, second] = local.slice(1).map((p) => Number(p ?? 0)) as number[];
    const valid =
      month! >= 1 && month! <= 12 && day! >= 1 && day! <= 31 && hour! <= 23 && minute! <= 59 && second! <= 59;
    if (!valid) return { ok: false, message: PUBLISH_TIME_MESSAGES.invalid };
    ms = instantOf(
      { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second!, millisecond: 0 },
      usableTimeZone(timeZone),
    ).getTime();
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    ms = Date.parse(value);
  } else return { ok: false, message: PUBLISH_TIME_MESSAGES.invalid };
  if (!Number.isFinite(ms) || ms > Date.parse(NEVER_LIVE) - 1)
    return { ok: false, message: PUBLISH_TIME_MESSAGES.invalid };
  if (stays && ms === keptMs) return { ok: true, publishAt: kept! };
  if (ms <= now) return { ok: false, message: PUBLISH_TIME_MESSAGES.past };
  return { ok: true, publishAt: utcTime(ms) };
}

// ---------------------------------------------------------------- who may set what

export type PublishedKind = 'page' | 'post' | 'product';

const KIND_WORDS: Readonly<Record<PublishedKind, string>> = { page: 'page', post: 'post', product: 'product' };

/** Whether a status shows the thing on the storefront now or by itself later. */
const goesLive = (status: PublicationStatus): boolean => status === 'published' || status === 'scheduled';

/** Who may publish a kind: products are the store's ('products.edit'), pages and posts the site's ('pages.edit'). */
const mayPublish = (role: number, kind: PublishedKind): boolean =>
  staffCan(role, kind === 'product' ? 'products.edit' : 'pages.edit');

/** Who may save drafts of a kind: pages and posts ('pages.draft'); products only with the right to publish them. */
const mayDraft = (role: number, kind: PublishedKind): boolean => kind !== 'product' && staffCan(role, 'pages.draft');

/**
 * Why `role` may not save a `kind` that is `from` (null: a new one; a scheduled thing whose time has come is
 * 'published') with status `to`; null when it may. The server's check for every save (the editors offer only what this
 * allows: `statusChoices`).
 */
export function publicationRefusal(
  role: number,
  kind: PublishedKind,
  from: PublicationStatus | null,
  to: PublicationStatus,
): string | null {
  if (mayPublish(role, kind)) return null;
  const word = KIND_WORDS[kind];
  if (!mayDraft(role, kind)) return `Your account (${roleName(role)}) may not change ${word}s.`;
  if (from !== null && goesLive(from))
    return `A draft editor changes drafts only: this ${word} is ${STATUS_LABELS[from]}. An editor may set it back to Draft.`;
  if (goesLive(to))
    return `A draft editor saves drafts only: save this ${word} as Draft or Needs Review, and an editor publishes it.`;
  return null;
}

/** Why `role` may not delete a `kind` that is `from`; null when it may (a draft editor deletes drafts). */
export function deletionRefusal(role: number, kind: PublishedKind, from: PublicationStatus): string | null {
  if (mayPublish(role, kind)) return null;
  const word = KIND_WORDS[kind];
  if (!mayDraft(role, kind)) return `Your account (${roleName(role)}) may not delete ${word}s.`;
  if (goesLive(from)) return `A draft editor deletes drafts only: this ${word} is ${STATUS_LABELS[from]}.`;
  return null;
}

/** The statuses `role` may save a `kind` that is `from` (null: a new one) with; [] when it may not save it at all. */
export function statusChoices(role: number, kind: PublishedKind, from: PublicationStatus | null): PublicationStatus[] {
  return PUBLICATION_STATUSES.filter((to) => publicationRefusal(role, kind, from, to) === null);
}

/** The status a new thing gets when the editor says none: a draft editor's is a Draft, anyone else's is published. */
export const defaultStatus = (role: number, kind: PublishedKind): PublicationStatus =>
  mayPublish(role, kind) ? 'published' : 'draft';

/** The roles of the matrix's test and docs, in the order the docs list them. */
export const PUBLISHING_ROLES: readonly ContributorRole[] = [
  ContributorRole.ADMIN,
  ContributorRole.WEBSITE_MANAGER,
  ContributorRole.EDITOR,
  ContributorRole.DRAFT_EDITOR,
  ContributorRole.STORE_MANAGER,
  ContributorRole.VIEWER,
];
