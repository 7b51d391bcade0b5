import type { BillingPeriod } from './subscription';

/**
 * When a subscription bills, in the site's time zone (§9 default America/New_York). Period 1 is the purchase itself;
 * period k (k ≥ 2) falls (k − 1) billing periods after it, at the same wall-clock time. Months and years count from the
 * start, not from the previous bill, so a subscription started on 31 January bills on 28 (or 29) February, then on
 * 31 March: the day is only clamped to the month's last day where the month is shorter.
 */

export const DEFAULT_TIME_ZONE = 'America/New_York';

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'paused', 'cancelled', 'completed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** What the merchant and the shopper read for a status. */
export const SUBSCRIPTION_STATUS_TEXT: Readonly<Record<SubscriptionStatus, string>> = {
  active: 'Active',
  past_due: 'Past due',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

interface LocalTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone when the runtime knows it, else the spec's default (a site file may name a zone this runtime lacks). */
export function usableTimeZone(timeZone: string | null | undefined): string {
  if (typeof timeZone === 'string' && timeZone.trim() !== '') {
    try {
      formatterFor(timeZone.trim());
      return timeZone.trim();
    } catch {
      // fall through to the default
    }
  }
  return DEFAULT_TIME_ZONE;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time in `timeZone` of an instant. */
export function localTimeOf(instant: Date, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: instant.getUTCMilliseconds(),
  };
}

const asUtc = (t: LocalTime): number => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);

/** The zone's offset from UTC at an instant, in ms. */
const offsetAt = (ms: number, timeZone: string): number => asUtc(localTimeOf(new Date(ms), timeZone)) - ms;

/**
 * The instant a wall-clock time in `timeZone` names. A time skipped by a daylight-saving change (02:30 on the spring
 * morning) moves forward by the change; a repeated one (01:30 in autumn) is its first occurrence.
 */
export function instantOf(local: LocalTime, timeZone: string): Date {
  const guess = asUtc(local);
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  if (first === second) return new Date(first);
  // Of the two readings, the one whose wall clock is the asked one; in a gap neither is, and the later one wins.
  const matches = [first, second].filter((ms) => asUtc(localTimeOf(new Date(ms), timeZone)) === guess);
  return new Date(matches.length > 0 ? Math.min(...matches) : Math.max(first, second));
}

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The wall-clock time `count` billing periods after `start` (months and years clamped to the month's last day). */
export function addBillingPeriods(start: LocalTime, period: BillingPeriod, count: number): LocalTime {
  if (period.unit === 'WEEK') {
    const moved = new Date(Date.UTC(start.year, start.month - 1, start.day + 7 * period.value * count));
    return { ...start, year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
  }
  const months = (period.unit === 'YEAR' ? 12 : 1) * period.value * count;
  const index = start.year * 12 + (start.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { ...start, year, month, day: Math.min(start.day, daysInMonth(year, month)) };
}

/** When period `periodNumber` (1 = the purchase) bills, for a subscription that started at `startedAt`. */
export function billingDate(startedAt: Date, period: BillingPeriod, periodNumber: number, timeZone: string): Date {
  if (!Number.isSafeInteger(periodNumber) || periodNumber < 1)
    throw new RangeError(`a period number is 1 or more, not ${periodNumber}`);
  const zone = usableTimeZone(timeZone);
  return instantOf(addBillingPeriods(localTimeOf(startedAt, zone), period, periodNumber - 1), zone);
}

/**
 * After period `periodNumber` was billed (or skipped): the subscription is completed when it has a number of cycles
 * and this was the last, else it waits for the next period.
 */
export function afterPeriod(
  periodNumber: number,
  numBillingCycles: number | null,
): { completed: boolean; nextPeriod: number } {
  const cycles =
    numBillingCycles !== null && Number.isSafeInteger(numBillingCycles) && numBillingCycles > 0
      ? numBillingCycles
      : null;
  return { completed: cycles !== null && periodNumber >= cycles, nextPeriod: periodNumber + 1 };
}

/** '12 March 2026' in the site's zone, for e-mails and pages. */
export function billingDateText(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: usableTimeZone(timeZone),
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(instant);
}
