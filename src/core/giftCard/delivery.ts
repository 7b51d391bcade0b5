/**
 * When a gift card's e-mail goes out: on its delivery date, a calendar day in the site's time zone. Today (the
 * default) sends it at once; a later day sends it at that day's midnight in the site's time zone. Uses only Intl.
 */
import { err, ok, type Result } from '../result';
import { billingDateText } from '../subscriptionSchedule';

/** How far ahead a delivery may be set. */
export const MAX_DELIVERY_DAYS_AHEAD = 365;

export const DELIVERY_MESSAGES = {
  invalid: 'Enter the delivery date as a date, for example 2025-12-24.',
  past: 'The delivery date cannot be in the past.',
  tooFar: `The delivery date can be at most ${MAX_DELIVERY_DAYS_AHEAD} days ahead.`,
} as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The parts of an instant on the wall clock of `timeZone`. */
function wallClock(
  instant: Date,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** A time zone Intl knows, else UTC (a site file's zone is checked at import; this never throws on a bad one). */
export function usableTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 'YYYY-MM-DD': the day it is at `now` in `timeZone`. */
export function todayIn(timeZone: string, now: Date): string {
  const c = wallClock(now, usableTimeZone(timeZone));
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`;
}

/** The instant a day starts in `timeZone` (its midnight on the wall clock; the zone's offset that day). */
export function startOfDayIn(date: string, timeZone: string): Date {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const zone = usableTimeZone(timeZone);
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // The zone's offset near that instant, applied twice to settle on the right side of a DST change.
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const c = wallClock(new Date(guess), zone);
    const wallAsUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
    guess = asUtc - (wallAsUtc - guess);
  }
  return new Date(guess);
}

/** A real calendar day (no 2025-02-30). */
function isCalendarDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const dayNumber = (date: string): number => {
  const m = DATE.exec(date)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
};

export interface Delivery {
  /** The delivery day, 'YYYY-MM-DD' in the site's time zone. */
  date: string;
  /** When the e-mail may be sent: null for at once (today). */
  sendAfter: Date | null;
}

/** The delivery date typed ('' for today) checked against the site's calendar. */
export function checkDeliveryDate(input: string, timeZone: string, now: Date): Result<Delivery, string> {
  const today = todayIn(timeZone, now);
  const date = input.trim() === '' ? today : input.trim();
  if (!isCalendarDate(date)) return err(DELIVERY_MESSAGES.invalid);
  const ahead = dayNumber(date) - dayNumber(today);
  if (ahead < 0) return err(DELIVERY_MESSAGES.past);
  if (ahead > MAX_DELIVERY_DAYS_AHEAD) return err(DELIVERY_MESSAGES.tooFar);
  return ok({ date, sendAfter: ahead === 0 ? null : startOfDayIn(date, timeZone) });
}

/** A delivery day as the buyer reads it: '24 December 2026', as billing dates read (a calendar day: no zone applies). */
export function deliveryDateText(date: string): string {
  if (!isCalendarDate(date)) return date;
  return billingDateText(new Date(dayNumber(date) * 86_400_000), 'UTC');
}

/** A bought card as its order's page tells of it. */
export interface CardDelivery {
  recipientEmail: string;
  /** The delivery day chosen, 'YYYY-MM-DD' in the site's time zone. */
  deliveryDate: string;
  /** The day its e-mail was confirmed sent ('YYYY-MM-DD', site's time zone), or null. */
  deliveredOn: string | null;
  /** Refunded: it was never sent, or can no longer be spent. */
  cancelled: boolean;
}

export const CARD_CANCELLED_NOTE = 'This gift card was cancelled.';

/** What the order's page says of a card's e-mail, `today` being the site's day now. */
export function deliveryNote(card: CardDelivery, today: string): string {
  if (card.cancelled) return CARD_CANCELLED_NOTE;
  if (card.deliveredOn !== null) return `E-mailed to ${card.recipientEmail} on ${deliveryDateText(card.deliveredOn)}.`;
  if (isCalendarDate(card.deliveryDate) && isCalendarDate(today) && dayNumber(card.deliveryDate) > dayNumber(today)) {
    return `It will be e-mailed to ${card.recipientEmail} on ${deliveryDateText(card.deliveryDate)}.`;
  }
  return `It is on its way to ${card.recipientEmail}.`;
}
