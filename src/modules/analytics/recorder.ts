/**
 * Turns what a request reported into analytics rows and hands them to the buffer: the day, the salted visitor hash
 * (of the visit cookie's id when the browser keeps one, else of the client's address and user agent — neither is
 * stored), the visit hash (the visitor and their visit's start: distinct values are visits), the browser family and
 * device class. Bots (and empty user agents) are not counted.
 *
 * Private pages (src/core/privatePath.ts: the checkout, order pages, the account area, per-visitor links) are never
 * stored by their path: their events are kept under PRIVATE_PAGES, and private URLs in an event's text (an error's
 * message and stack, an event's data) are replaced by it too.
 */
import type { Kysely } from 'kysely';
import { analyticsPath, redactPrivatePaths } from '../../core/privatePath';
import { parseVisitCookie } from '../../core/visitorCookie';
import { browserFamily, deviceClass } from '../../core/userAgent';
import type { Database } from '../../platform/db/tables';
import { AnalyticsBuffer, type AnalyticsBufferOptions } from './buffer';
import { DailySalts, dayOf, saltedHash } from './visitorHash';

export type AnalyticsKind = 'hit' | 'census' | 'commerce' | 'vital' | 'error';

export interface AnalyticsClient {
  /** The request's address: hashed, never stored. */
  ip: string;
  userAgent: string | undefined;
  /** The §4 visit cookie (ss_cvr) as sent; a bad one counts as none. */
  visitCookie?: string | undefined;
  /** ISO country code when a trusted proxy says (no geo database here). */
  country?: string | null;
}

export interface AnalyticsEventInput {
  kind: AnalyticsKind;
  name: string;
  path: string;
  pageType?: number | null;
  ref?: string | null;
  value?: number | null;
  rating?: string | null;
  detail?: string | null;
}

export class AnalyticsRecorder {
  readonly buffer: AnalyticsBuffer;
  readonly #salts: DailySalts;

  constructor(
    db: Kysely<Database>,
    options: AnalyticsBufferOptions = {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.buffer = new AnalyticsBuffer(db, options);
    this.#salts = new DailySalts(db);
  }

  /** Queues the events; false when the client is a bot (nothing queued). */
  async record(siteId: string, client: AnalyticsClient, events: readonly AnalyticsEventInput[]): Promise<boolean> {
    const device = deviceClass(client.userAgent);
    if (device === 'bot' || events.length === 0) return false;
    const now = this.now();
    const day = dayOf(now);
    const salt = await this.#salts.saltFor(day);
    const visit = parseVisitCookie(client.visitCookie);
    const who = visit ? `id:${visit.id}` : `client:${client.ip}\u0000${client.userAgent ?? ''}`;
    const visitorHash = saltedHash(salt, siteId, who);
    // Without a visit cookie each hit is a visit of its own (a visitor without consent keeps no session).
    const visitHash = saltedHash(
      salt,
      siteId,
      who,
      visit ? String(visit.currentVisit) : `${now.getTime()}:${Math.random()}`,
    );
    const browser = browserFamily(client.userAgent);
    const createdAt = now.toISOString();
    this.buffer.push(
      ...events.map((e) => ({
        site_id: siteId,
        day,
        created_at: createdAt,
        kind: e.kind,
        name: e.kind === 'error' ? redactPrivatePaths(e.name) : e.name,
        path: analyticsPath(e.path),
        page_type: e.pageType ?? null,
        visitor_hash: visitorHash,
        visit_hash: e.kind === 'hit' ? visitHash : null,
        browser,
        device,
        country: client.country ?? null,
        ref: e.ref ?? null,
        value: e.value ?? null,
        rating: e.rating ?? null,
        detail: e.detail ? redactPrivatePaths(e.detail) : null,
      })),
    );
    return true;
  }

  close(): Promise<void> {
    return this.buffer.close();
  }
}
