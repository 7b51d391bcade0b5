/**
 * Add-to-calendar link of spec §7, as a Google Calendar template URL: it works in every browser
 * without a download, and other calendar apps can import the same event from Google. The times
 * use the basic UTC form YYYYMMDDTHHMMSSZ, so the visitor's calendar shows them in its own zone.
 */
import { err, ok, type Result } from './result';

export const GOOGLE_CALENDAR_TEMPLATE_URL = 'https://www.google.com/calendar/render';

export interface CalendarLocation {
  addressLine1?: string | null;
  addressLine2?: string | null;
  addressCountry?: string | null;
}

export interface CalendarEvent {
  title: string;
  /** Epoch milliseconds. */
  startDate: number;
  /** Epoch milliseconds. */
  endDate?: number | null;
  location?: CalendarLocation | null;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Basic UTC form, e.g. 20240301T143000Z; null outside years 0001–9999 (the form has four year digits). */
export const toBasicUtc = (epochMs: number): string | null => {
  if (!Number.isFinite(epochMs)) return null;
  const d = new Date(epochMs);
  const year = d.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) return null;
  return (
    `${pad(year, 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
};

/** 'addressLine1, addressLine2, addressCountry', skipping empty parts. */
export const joinLocation = (location?: CalendarLocation | null): string =>
  [location?.addressLine1, location?.addressLine2, location?.addressCountry]
    .map((part) => (typeof part === 'string' ? part.trim() : ''))
    .filter((part) => part !== '')
    .join(', ');

/**
 * The link, or 'invalid-start' when the start is not a usable time. A missing, bad or earlier
 * end becomes the start: a zero-length entry is better than refusing the shopper a link.
 */
export const addToCalendarUrl = (event: CalendarEvent): Result<string, 'invalid-start'> => {
  const start = toBasicUtc(event.startDate);
  if (start === null) return err('invalid-start');
  const endMs = event.endDate;
  const end = typeof endMs === 'number' && endMs >= event.startDate ? (toBasicUtc(endMs) ?? start) : start;
  const params = new URLSearchParams({ action: 'TEMPLATE', text: event.title, dates: `${start}/${end}` });
  const location = joinLocation(event.location);
  if (location) params.set('location', location);
  return ok(`${GOOGLE_CALENDAR_TEMPLATE_URL}?${params.toString()}`);
};
