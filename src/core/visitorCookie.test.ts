import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE_MAX_AGE_MS } from './timing';
import {
  isSessionExpired,
  nextVisit,
  parseSessionCookie,
  parseVisitCookie,
  serializeSessionCookie,
  serializeVisitCookie,
  type VisitCookie,
} from './visitorCookie';

const ID = '0b3a8c52-6f1e-4d2b-9a77-1c2d3e4f5a6b';
const NEW_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const newId = () => NEW_ID;
const visit: VisitCookie = { id: ID, firstVisit: 1000, previousVisit: 2000, currentVisit: 3000, visitCount: 4 };
const cookie = `${ID}|1000|2000|3000|4`;

describe('visit cookie', () => {
  it('reads an id followed by four positive integers', () => {
    expect(parseVisitCookie(cookie)).toEqual(visit);
    expect(parseVisitCookie(` ${ID}%7C1000%7c2000%7C3000%7C4 `)).toEqual(visit);
    expect(parseVisitCookie(`${ID.toUpperCase()}|1|1|1|1`)).toMatchObject({ visitCount: 1 });
  });

  it.each([
    '',
    ID,
    `${ID}|1000|2000|3000`,
    `${ID}|1000|2000|3000|4|5`,
    `${ID}|0|2000|3000|4`,
    `${ID}|1000|-2000|3000|4`,
    `${ID}|1000|2000|3000|4.5`,
    `${ID}|1000|2000|3000|04`,
    `${ID}|1000|2000|3000|`,
    `${ID}|1e3|2000|3000|4`,
    `${ID}|99999999999999999|2000|3000|4`,
    `not-an-id|1000|2000|3000|4`,
    `${ID}x|1000|2000|3000|4`,
    `${ID}|1000|2000|3000|4`.repeat(20),
  ])('discards %j', (value) => {
    expect(parseVisitCookie(value)).toBeNull();
  });

  it('discards non-strings', () => {
    expect(parseVisitCookie(undefined)).toBeNull();
    expect(parseVisitCookie(42)).toBeNull();
  });

  it('serialises with | and round-trips', () => {
    expect(serializeVisitCookie(visit)).toBe(cookie);
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.array(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { minLength: 4, maxLength: 4 }),
        (id, [a, b, c, d]) => {
          const v = { id, firstVisit: a!, previousVisit: b!, currentVisit: c!, visitCount: d! };
          expect(parseVisitCookie(serializeVisitCookie(v))).toEqual(v);
        },
      ),
    );
  });

  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const parsed = parseVisitCookie(value);
        expect(parsed === null || typeof parsed.id === 'string').toBe(true);
        const session = parseSessionCookie(value);
        expect(session === null || session > 0).toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.anything(), (value) => parseVisitCookie(value) === null || typeof value === 'string'));
  });
});

describe('session cookie', () => {
  it.each([
    ['1700000000000', 1700000000000],
    [' 5 ', 5],
    ['0', null],
    ['-5', null],
    ['1.5', null],
    ['abc', null],
    ['', null],
    ['99999999999999999', null],
  ])('parseSessionCookie(%j) → %s', (value, expected) => {
    expect(parseSessionCookie(value)).toBe(expected);
  });

  it('is non-string safe and serialises a clean positive integer', () => {
    expect(parseSessionCookie(null)).toBeNull();
    expect(serializeSessionCookie(1234.9)).toBe('1234');
    expect(serializeSessionCookie(Number.NaN)).toBe('1');
    expect(serializeSessionCookie(-3)).toBe('1');
    expect(parseSessionCookie(serializeSessionCookie(Number.POSITIVE_INFINITY))).toBe(1);
  });

  it('lasts 30 minutes after the latest hit', () => {
    expect(SESSION_COOKIE_MAX_AGE_MS).toBe(30 * 60 * 1000);
    const last = 1_000_000;
    expect(isSessionExpired(String(last), last + SESSION_COOKIE_MAX_AGE_MS - 1)).toBe(false);
    expect(isSessionExpired(String(last), last + SESSION_COOKIE_MAX_AGE_MS)).toBe(true);
    expect(isSessionExpired(String(last), last - 5000)).toBe(false);
    expect(isSessionExpired(undefined, last)).toBe(true);
    expect(isSessionExpired('garbage', last)).toBe(true);
  });
});

describe('nextVisit (§4)', () => {
  const now = 10_000_000;

  it('creates a new counter when none exists', () => {
    const decision = nextVisit({ now, newId, consent: true });
    expect(decision).toEqual({
      persisted: true,
      newVisit: true,
      visit: { id: NEW_ID, firstVisit: now, previousVisit: now, currentVisit: now, visitCount: 1 },
      cookies: { visit: `${NEW_ID}|${now}|${now}|${now}|1`, session: String(now) },
    });
  });

  it('replaces an invalid counter with a new one', () => {
    const decision = nextVisit({ visitCookie: 'junk', sessionCookie: String(now), now, newId, consent: true });
    expect(decision.visit).toMatchObject({ id: NEW_ID, visitCount: 1 });
  });

  it('counts a new visit when the session expired, shifting timestamps', () => {
    const decision = nextVisit({ visitCookie: cookie, sessionCookie: null, now, newId, consent: true });
    expect(decision).toMatchObject({
      persisted: true,
      newVisit: true,
      visit: { id: ID, firstVisit: 1000, previousVisit: 3000, currentVisit: now, visitCount: 5 },
      cookies: { visit: `${ID}|1000|3000|${now}|5`, session: String(now) },
    });
    const stale = nextVisit({
      visitCookie: cookie,
      sessionCookie: String(now - SESSION_COOKIE_MAX_AGE_MS),
      now,
      newId,
      consent: true,
    });
    expect(stale.visit.visitCount).toBe(5);
  });

  it('keeps the visit within a live session and slides the session', () => {
    const decision = nextVisit({ visitCookie: cookie, sessionCookie: String(now - 60_000), now, newId, consent: true });
    expect(decision).toEqual({
      persisted: true,
      newVisit: false,
      visit,
      cookies: { visit: cookie, session: String(now) },
    });
  });

  it('uses a fresh non-persisted id without consent or on a cloneable site', () => {
    for (const input of [
      { visitCookie: cookie, sessionCookie: String(now), now, newId, consent: false },
      { visitCookie: cookie, sessionCookie: String(now), now, newId, consent: true, cloneable: true },
    ]) {
      expect(nextVisit(input)).toEqual({
        persisted: false,
        newVisit: true,
        deleteTrackingCookies: true,
        visit: { id: NEW_ID, firstVisit: now, previousVisit: now, currentVisit: now, visitCount: 1 },
      });
    }
  });

  it('never throws and always writes cookies it can read back', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.string()), fc.double(), (visitCookie, sessionCookie, t) => {
        const decision = nextVisit({ visitCookie, sessionCookie, now: t, newId, consent: true });
        if (decision.persisted) {
          expect(parseVisitCookie(decision.cookies.visit)).toEqual(decision.visit);
          expect(parseSessionCookie(decision.cookies.session)).not.toBeNull();
        }
      }),
    );
  });
});
