/**
 * Visitor census cookies of spec §4 and §5: the visit counter and the 30-minute session marker.
 *
 * Visit cookie value: `{id}|{firstVisit}|{previousVisit}|{currentVisit}|{visitCount}` — times are
 * epoch milliseconds. '|' cannot occur in the id or a number, so the split is unambiguous, and a
 * URL-encoded '%7C' (how some clients write it) is read the same. The id is a UUID (what
 * `crypto.randomUUID()` gives in browsers and Node): unguessable, and easy to validate.
 * Session cookie value: the epoch milliseconds of the visitor's latest hit.
 */
import { SESSION_COOKIE_MAX_AGE_MS } from './timing';

export const VISIT_COOKIE_SEPARATOR = '|';

export interface VisitCookie {
  id: string;
  firstVisit: number;
  previousVisit: number;
  currentVisit: number;
  visitCount: number;
}

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;

export const isVisitorId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);

const parsePositiveInteger = (text: string | undefined): number | null => {
  if (text === undefined || !POSITIVE_INTEGER.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
};

/** Reads a session cookie: a positive integer, anything else → null. Never throws. */
export const parseSessionCookie = (value: unknown): number | null =>
  typeof value === 'string' ? parsePositiveInteger(value.trim()) : null;

/**
 * Reads a visit cookie: an id followed by four positive integers, anything else → null
 * (the caller then starts a new counter). Never throws.
 */
export const parseVisitCookie = (value: unknown): VisitCookie | null => {
  if (typeof value !== 'string' || value.length > 200) return null;
  const parts = value.trim().replace(/%7c/gi, VISIT_COOKIE_SEPARATOR).split(VISIT_COOKIE_SEPARATOR);
  if (parts.length !== 5) return null;
  const [id, ...numbers] = parts;
  if (!isVisitorId(id)) return null;
  const [firstVisit, previousVisit, currentVisit, visitCount] = numbers.map(parsePositiveInteger);
  // Times are not checked for order: a visitor's clock may have moved back, and the counter is still theirs.
  if (!firstVisit || !previousVisit || !currentVisit || !visitCount) return null;
  return { id, firstVisit, previousVisit, currentVisit, visitCount };
};

export const serializeVisitCookie = (visit: VisitCookie): string =>
  [visit.id, visit.firstVisit, visit.previousVisit, visit.currentVisit, visit.visitCount].join(VISIT_COOKIE_SEPARATOR);

export const serializeSessionCookie = (lastHit: number): string => String(toTimestamp(lastHit));

// A clock that reports nonsense must not produce a cookie we would refuse to read back.
const toTimestamp = (now: number): number =>
  Number.isFinite(now) ? Math.min(Math.max(1, Math.floor(now)), Number.MAX_SAFE_INTEGER) : 1;

/** The session is over 30 minutes after the latest hit (or when the cookie is missing or bad). */
export const isSessionExpired = (sessionCookie: unknown, now: number): boolean => {
  const lastHit = parseSessionCookie(sessionCookie);
  // A latest hit in the future (clock moved back) still counts as the same session.
  return lastHit === null || toTimestamp(now) - lastHit >= SESSION_COOKIE_MAX_AGE_MS;
};

export interface VisitInput {
  /** Raw value of the visit cookie, if any. */
  visitCookie?: string | null;
  /** Raw value of the session cookie, if any. */
  sessionCookie?: string | null;
  now: number;
  newId: () => string;
  /** False under restrictive cookie settings without consent. */
  consent: boolean;
  /** Cloneable (template) sites never keep a visitor id. */
  cloneable?: boolean;
}

export type VisitDecision =
  | {
      persisted: true;
      visit: VisitCookie;
      /** True when this hit starts a visit (new visitor or expired session). */
      newVisit: boolean;
      /** Values to write back: both cookies are refreshed on every hit so the session slides. */
      cookies: { visit: string; session: string };
    }
  | {
      persisted: false;
      visit: VisitCookie;
      newVisit: true;
      /** Tracking cookies already set must be deleted. */
      deleteTrackingCookies: true;
    };

const freshVisit = (id: string, now: number): VisitCookie => ({
  id,
  firstVisit: now,
  previousVisit: now,
  currentVisit: now,
  visitCount: 1,
});

/** Applies the visit-count rule of §4 to one page hit. Pure: time and ids are injected. */
export const nextVisit = (input: VisitInput): VisitDecision => {
  const now = toTimestamp(input.now);
  if (!input.consent || input.cloneable === true) {
    return { persisted: false, visit: freshVisit(input.newId(), now), newVisit: true, deleteTrackingCookies: true };
  }
  const existing = parseVisitCookie(input.visitCookie);
  let visit: VisitCookie;
  let newVisit = true;
  if (existing === null) {
    visit = freshVisit(input.newId(), now);
  } else if (isSessionExpired(input.sessionCookie, now)) {
    visit = {
      ...existing,
      previousVisit: existing.currentVisit,
      currentVisit: now,
      visitCount: Math.min(existing.visitCount + 1, Number.MAX_SAFE_INTEGER),
    };
  } else {
    visit = existing;
    newVisit = false;
  }
  return {
    persisted: true,
    visit,
    newVisit,
    cookies: { visit: serializeVisitCookie(visit), session: serializeSessionCookie(now) },
  };
};
