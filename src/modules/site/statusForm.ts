/**
 * The Status fieldset of the page and product editors (issue 26, spec §4's editor statuses): what it offers the
 * signed-in staff member, and what it was sent back as — a status and, for Scheduled, a publish time typed in the
 * site's time zone (src/core/publishing.ts decides who may set what; the services check it again at the save).
 */
import {
  defaultStatus,
  localInputOf,
  parsePublishTime,
  PUBLICATION_STATUSES,
  shownStatus,
  STATUS_LABELS,
  statusChoices,
  type Publication,
  type PublicationStatus,
  type PublishedKind,
} from '../../core/publishing';
import { err, ok, type Result } from '../../core/result';

/** The status an editor saves, and its publish time (ISO UTC) when Scheduled. */
export interface StatusChange {
  status: PublicationStatus;
  publishAt?: string;
}

/** A problem of the fieldset, by its field ('status' or 'publishAt'). */
export interface StatusProblem {
  field: 'status' | 'publishAt';
  message: string;
}

/** What the fieldset shows: the choices (none: the staff member may not change it), the one chosen, the time typed. */
export interface StatusFieldsView {
  choices: { value: PublicationStatus; label: string }[];
  current: PublicationStatus;
  /** A `datetime-local` value in the site's time zone ('' when not scheduled). */
  publishAt: string;
  timeZone: string;
}

/** The publish time of a stored thing that is scheduled (undefined for any other). */
export const scheduledAt = (stored: Publication | null | undefined): string | undefined =>
  stored?.status === 'scheduled' ? stored.publishAt : undefined;

export const STATUS_MESSAGE = `must be one of ${PUBLICATION_STATUSES.map((s) => `'${s}'`).join(', ')}`;

const isStatus = (value: unknown): value is PublicationStatus =>
  typeof value === 'string' && (PUBLICATION_STATUSES as readonly string[]).includes(value);

/**
 * The fieldset of `thing` (null: a new one, chosen: the role's default) for `role` at `now`; `typed` is what a refused save sent back (shown
 * again as it was typed).
 */
export function statusFieldsOf(
  thing: Publication | null,
  role: number,
  kind: PublishedKind,
  timeZone: string,
  now: number,
  typed?: { status?: string; publishAt?: string },
): StatusFieldsView {
  const from = thing === null ? null : shownStatus(thing, now);
  // A new thing starts as the role's default (a draft editor's new page is a Draft).
  const stored = from ?? defaultStatus(role, kind);
  const current = isStatus(typed?.status) ? typed.status : stored;
  const storedTime =
    stored === 'scheduled' && thing?.publishAt !== undefined ? localInputOf(thing.publishAt, timeZone) : '';
  return {
    choices: statusChoices(role, kind, from).map((value) => ({ value, label: STATUS_LABELS[value] })),
    current,
    publishAt: typed?.publishAt ?? storedTime,
    timeZone,
  };
}

/**
 * The status and publish time a save was sent (a form's or a JSON call's `status` and `publishAt`): the publish time is
 * read only with Scheduled, in the site's time zone or with its offset, and must be after `now` — unless it is the
 * stored thing's own (`stored`: the page, post or product as saved), sent back as the form showed it (its minute) or
 * as the same instant: that stays as stored, seconds and all, while it is still to come.
 */
export function readStatusChange(
  status: unknown,
  publishAt: unknown,
  timeZone: string,
  now: number,
  stored?: Publication,
): Result<StatusChange, StatusProblem> {
  if (!isStatus(status)) return err({ field: 'status', message: STATUS_MESSAGE });
  if (status !== 'scheduled') return ok({ status });
  const time = parsePublishTime(typeof publishAt === 'string' ? publishAt : '', timeZone, now, scheduledAt(stored));
  if (!time.ok) return err({ field: 'publishAt', message: time.message });
  return ok({ status, publishAt: time.publishAt });
}

/** What the done notice of a save says of where the thing is now. */
export function whereItIs(status: PublicationStatus, publishAt: string | undefined, timeZone: string): string {
  switch (status) {
    case 'published':
      return 'It is on the store now.';
    case 'scheduled':
      return `It goes on the store at ${publishAt ? localInputOf(publishAt, timeZone).replace('T', ' ') : '?'} (${timeZone}).`;
    default:
      return `It is ${STATUS_LABELS[status]}: not on the store; staff see it in the preview.`;
  }
}
