import { describe, expect, it } from 'vitest';
import { ContributorRole } from './enums';
import {
  defaultStatus,
  deletionRefusal,
  EVERYTHING,
  isLiveAt,
  liveEdition,
  liveFrom,
  localInputOf,
  NEVER_LIVE,
  parsePublishTime,
  PUBLISH_TIME_MESSAGES,
  publicationFields,
  publicationRefusal,
  PUBLICATION_STATUSES,
  shownStatus,
  statusChoices,
  upcomingPublishTimes,
  type PublicationStatus,
  type PublishedKind,
} from './publishing';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const at = (ms: number) => new Date(ms).toISOString();

describe('what the storefront shows (§4 editor statuses)', () => {
  it('shows a published thing always, a draft or one needing review never, a scheduled one from its time', () => {
    expect(liveFrom({})).toBeNull();
    expect(liveFrom({ status: 'draft' })).toBe(NEVER_LIVE);
    expect(liveFrom({ status: 'needs-review' })).toBe(NEVER_LIVE);
    expect(liveFrom({ status: 'scheduled', publishAt: '2026-05-01T10:00:00-04:00' })).toBe('2026-05-01T14:00:00.000Z');
    const scheduled = { status: 'scheduled' as const, publishAt: '2026-05-01T14:00:00Z' };
    expect(isLiveAt(scheduled, at(Date.parse('2026-05-01T13:59:59.999Z')))).toBe(false);
    expect(isLiveAt(scheduled, '2026-05-01T14:00:00.000Z')).toBe(true);
    expect(isLiveAt({}, at(0))).toBe(true);
    expect(isLiveAt({ status: 'draft' }, at(NOW))).toBe(false);
  });

  it('lets staff see everything', () => {
    expect(isLiveAt({ status: 'draft' }, EVERYTHING)).toBe(true);
    expect(isLiveAt({ status: 'scheduled', publishAt: '2999-01-01T00:00:00Z' }, EVERYTHING)).toBe(true);
  });

  it('shows the owner a scheduled thing whose time has come as published', () => {
    expect(shownStatus({ status: 'scheduled', publishAt: '2026-05-01T11:00:00Z' }, NOW)).toBe('published');
    expect(shownStatus({ status: 'scheduled', publishAt: '2026-05-01T13:00:00Z' }, NOW)).toBe('scheduled');
    expect(shownStatus({ status: 'needs-review' }, NOW)).toBe('needs-review');
    expect(shownStatus({}, NOW)).toBe('published');
  });

  it('writes a published thing with no status, and a publish time only when scheduled', () => {
    expect(publicationFields('published', '2026-06-01T00:00:00.000Z')).toEqual({});
    expect(publicationFields('draft', '2026-06-01T00:00:00.000Z')).toEqual({ status: 'draft' });
    expect(publicationFields('scheduled', '2026-06-01T00:00:00.000Z')).toEqual({
      status: 'scheduled',
      publishAt: '2026-06-01T00:00:00.000Z',
    });
  });
});

describe('the storefront edition: scheduled things appear at their time without a new version', () => {
  it('lists the upcoming publish times once each, sorted, in UTC', () => {
    expect(
      upcomingPublishTimes(
        [
          { status: 'scheduled', publishAt: '2026-05-03T00:00:00Z' },
          { status: 'scheduled', publishAt: '2026-05-02T20:00:00-04:00' },
          { status: 'scheduled', publishAt: '2026-05-01T00:00:00Z' },
          { status: 'draft' },
          {},
        ],
        NOW,
      ),
    ).toEqual(['2026-05-03T00:00:00.000Z']);
  });

  it('is the version until the first time comes, then counts the times passed', () => {
    const times = [NOW + 1000, NOW + 5000];
    expect(liveEdition(7, [], NOW)).toBe('7');
    expect(liveEdition(7, times, NOW)).toBe('7');
    expect(liveEdition(7, times, NOW + 999)).toBe('7');
    expect(liveEdition(7, times, NOW + 1000)).toBe('7.1');
    expect(liveEdition(7, times, NOW + 6000)).toBe('7.2');
  });
});

describe("the editor's publish time", () => {
  it("reads a date and time in the site's time zone, or with an offset", () => {
    expect(parsePublishTime('2026-06-01T10:00', 'America/New_York', NOW)).toEqual({
      ok: true,
      publishAt: '2026-06-01T14:00:00.000Z',
    });
    expect(parsePublishTime('2026-06-01T10:00', 'Europe/Berlin', NOW)).toEqual({
      ok: true,
      publishAt: '2026-06-01T08:00:00.000Z',
    });
    expect(parsePublishTime('2026-06-01T10:00:00+02:00', 'America/New_York', NOW)).toEqual({
      ok: true,
      publishAt: '2026-06-01T08:00:00.000Z',
    });
    expect(localInputOf('2026-06-01T14:00:00.000Z', 'America/New_York')).toBe('2026-06-01T10:00');
  });

  it('refuses an empty, malformed or past time with what to do', () => {
    expect(parsePublishTime(' ', 'UTC', NOW)).toEqual({ ok: false, message: 'Choose when to publish it' });
    expect(parsePublishTime('tomorrow', 'UTC', NOW)).toEqual({
      ok: false,
      message: 'must be a date and time like 2026-06-01T10:00',
    });
    expect(parsePublishTime('2026-13-01T10:00', 'UTC', NOW)).toMatchObject({ ok: false });
    expect(parsePublishTime('2026-05-01T11:59', 'UTC', NOW)).toEqual({
      ok: false,
      message: 'must be in the future (choose Published to publish now)',
    });
  });
});

describe('a stored publish time sent back', () => {
  // Scheduled for 12:00:45 UTC; the editor shows its minute, 12:00 (in New York: 08:00).
  const kept = '2026-05-01T12:00:45.000Z';
  const shown = localInputOf(kept, 'America/New_York');
  const at = Date.parse('2026-05-01T12:00:20Z');

  it('keeps it, seconds and all, when the form sends the minute it showed or a call the same instant', () => {
    expect(shown).toBe('2026-05-01T08:00');
    expect(parsePublishTime(shown, 'America/New_York', at, kept)).toEqual({ ok: true, publishAt: kept });
    expect(parsePublishTime(` ${shown} `, 'America/New_York', at, kept)).toEqual({ ok: true, publishAt: kept });
    expect(parsePublishTime('2026-05-01T08:00:45-04:00', 'America/New_York', at, kept)).toEqual({
      ok: true,
      publishAt: kept,
    });
    expect(parsePublishTime('2026-05-01T08:00:45', 'America/New_York', at, kept)).toEqual({
      ok: true,
      publishAt: kept,
    });
    // As stored, even in another notation of the same instant.
    const offset = '2026-05-01T08:00:45-04:00';
    expect(parsePublishTime(shown, 'America/New_York', at, offset)).toEqual({ ok: true, publishAt: offset });
  });

  it('reads any other time as typed: another minute, or its own once it has passed', () => {
    expect(parsePublishTime('2026-05-01T07:59', 'America/New_York', at, kept)).toEqual({
      ok: false,
      message: PUBLISH_TIME_MESSAGES.past,
    });
    expect(parsePublishTime('2026-05-01T08:05', 'America/New_York', at, kept)).toEqual({
      ok: true,
      publishAt: '2026-05-01T12:05:00.000Z',
    });
    expect(parsePublishTime('2026-05-01T08:00:50', 'America/New_York', at, kept)).toEqual({
      ok: true,
      publishAt: '2026-05-01T12:00:50.000Z',
    });
    const later = Date.parse('2026-05-01T12:00:46Z');
    expect(parsePublishTime(shown, 'America/New_York', later, kept)).toEqual({
      ok: false,
      message: PUBLISH_TIME_MESSAGES.past,
    });
    expect(parsePublishTime(kept, 'America/New_York', later, kept)).toMatchObject({ ok: false });
    expect(parsePublishTime(shown, 'America/New_York', at, 'not a time')).toMatchObject({ ok: false });
    expect(parsePublishTime('', 'America/New_York', at, kept)).toEqual({
      ok: false,
      message: PUBLISH_TIME_MESSAGES.missing,
    });
  });
});

describe('who may set which status (the matrix)', () => {
  const { ADMIN, WEBSITE_MANAGER, EDITOR, DRAFT_EDITOR, STORE_MANAGER, VIEWER } = ContributorRole;
  const P: PublicationStatus = 'published';
  const D: PublicationStatus = 'draft';
  const R: PublicationStatus = 'needs-review';
  const S: PublicationStatus = 'scheduled';
  const ALL = [...PUBLICATION_STATUSES];
  const DRAFTS = [D, R];

  // role, kind, from (null: a new one) → the statuses it may save it with.
  const matrix: [ContributorRole, PublishedKind, PublicationStatus | null, PublicationStatus[]][] = [];
  for (const from of [null, P, D, R, S] as const) {
    for (const kind of ['page', 'post', 'product'] as const) {
      matrix.push([ADMIN, kind, from, ALL]);
      matrix.push([WEBSITE_MANAGER, kind, from, ALL]);
      matrix.push([VIEWER, kind, from, []]);
    }
    matrix.push([EDITOR, 'page', from, ALL], [EDITOR, 'post', from, ALL], [EDITOR, 'product', from, []]);
    matrix.push([STORE_MANAGER, 'page', from, []], [STORE_MANAGER, 'post', from, []]);
    matrix.push([STORE_MANAGER, 'product', from, ALL]);
    // A draft editor: drafts only, and only of what is not live (nor about to go live by itself).
    const drafts = from === P || from === S ? [] : DRAFTS;
    matrix.push([DRAFT_EDITOR, 'page', from, drafts], [DRAFT_EDITOR, 'post', from, drafts]);
    matrix.push([DRAFT_EDITOR, 'product', from, []]);
  }

  it.each(matrix)('role %i, a %s that is %s: may set %j', (role, kind, from, allowed) => {
    expect(statusChoices(role, kind, from)).toEqual(allowed);
  });

  it('says why, in words a draft editor can act on', () => {
    expect(publicationRefusal(DRAFT_EDITOR, 'post', D, P)).toBe(
      'A draft editor saves drafts only: save this post as Draft or Needs Review, and an editor publishes it.',
    );
    expect(publicationRefusal(DRAFT_EDITOR, 'page', null, S)).toBe(
      'A draft editor saves drafts only: save this page as Draft or Needs Review, and an editor publishes it.',
    );
    expect(publicationRefusal(DRAFT_EDITOR, 'page', P, D)).toBe(
      'A draft editor changes drafts only: this page is Published. An editor may set it back to Draft.',
    );
    expect(publicationRefusal(DRAFT_EDITOR, 'product', D, D)).toBe(
      'Your account (draft-editor) may not change products.',
    );
    expect(publicationRefusal(VIEWER, 'page', P, P)).toBe('Your account (viewer) may not change pages.');
  });

  it('lets a draft editor delete drafts only, and those who publish delete anything', () => {
    expect(deletionRefusal(DRAFT_EDITOR, 'post', D)).toBeNull();
    expect(deletionRefusal(DRAFT_EDITOR, 'post', R)).toBeNull();
    expect(deletionRefusal(DRAFT_EDITOR, 'post', P)).toBe(
      'A draft editor deletes drafts only: this post is Published.',
    );
    expect(deletionRefusal(DRAFT_EDITOR, 'page', S)).toBe(
      'A draft editor deletes drafts only: this page is Scheduled.',
    );
    expect(deletionRefusal(EDITOR, 'post', P)).toBeNull();
    expect(deletionRefusal(STORE_MANAGER, 'post', D)).toBe('Your account (store-manager) may not delete posts.');
  });

  it("makes a draft editor's new thing a Draft and everyone else's published", () => {
    expect(defaultStatus(DRAFT_EDITOR, 'post')).toBe('draft');
    expect(defaultStatus(EDITOR, 'post')).toBe('published');
    expect(defaultStatus(STORE_MANAGER, 'product')).toBe('published');
  });
});
