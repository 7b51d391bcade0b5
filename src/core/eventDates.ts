/**
 * Event posts (spec §3: startDate and endDate in epoch ms, location): the date range as the shop's visitors read it,
 * in the site's time zone (a studio open day at 10:00 in New York is 10:00 for everyone reading the shop).
 */

export interface EventTimes {
  /** Epoch milliseconds. */
  startDate: number;
  /** Epoch milliseconds; absent or before the start: the start. */
  endDate?: number | null;
  /** Dates only (no times). */
  allDay?: boolean;
}

const DATE: Intl.DateTimeFormatOptions = { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' };
const DATE_TIME: Intl.DateTimeFormatOptions = { ...DATE, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };

/**
 * 'Saturday, June 13, 2026, 10:00 AM – 4:00 PM EDT', 'Friday, July 3 – Sunday, July 5, 2026' (all day): one range,
 * with the parts the start and end share written once (Intl's formatRange). An unknown time zone or locale falls back
 * to UTC and en-US rather than failing the page.
 */
export function formatEventRange(event: EventTimes, timeZone: string, locale: string): string {
  const end = typeof event.endDate === 'number' && event.endDate >= event.startDate ? event.endDate : event.startDate;
  const options = { ...(event.allDay ? DATE : DATE_TIME), timeZone };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, options);
  } catch {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
  return format.formatRange(event.startDate, end);
}
