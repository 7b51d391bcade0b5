import { describe, expect, it } from 'vitest';
import {
  afterPeriod,
  billingDate,
  billingDateText,
  instantOf,
  localTimeOf,
  usableTimeZone,
} from './subscriptionSchedule';

const NY = 'America/New_York';
const month = { value: 1, unit: 'MONTH' } as const;

describe('billing dates in the site time zone', () => {
  it('period 1 is the start itself', () => {
    const start = new Date('2026-01-15T15:00:00Z');
    expect(billingDate(start, month, 1, NY).toISOString()).toBe('2026-01-15T15:00:00.000Z');
  });

  it('months count from the start and clamp to the month end (31 Jan → 28 Feb → 31 Mar)', () => {
    // 31 January 10:00 in New York (EST, UTC−5).
    const start = new Date('2026-01-31T15:00:00Z');
    expect(billingDate(start, month, 2, NY).toISOString()).toBe('2026-02-28T15:00:00.000Z');
    // March 31 is after the DST change (EDT, UTC−4): still 10:00 on the wall clock.
    expect(billingDate(start, month, 3, NY).toISOString()).toBe('2026-03-31T14:00:00.000Z');
    expect(billingDate(start, month, 4, NY).toISOString()).toBe('2026-04-30T14:00:00.000Z');
  });

  it('leap years: 29 February is kept where it exists', () => {
    const start = new Date('2028-01-31T15:00:00Z');
    expect(billingDate(start, month, 2, NY).toISOString()).toBe('2028-02-29T15:00:00.000Z');
    const yearly = { value: 1, unit: 'YEAR' } as const;
    const leap = new Date('2028-02-29T17:00:00Z');
    expect(billingDate(leap, yearly, 2, NY).toISOString()).toBe('2029-02-28T17:00:00.000Z');
    expect(billingDate(leap, yearly, 5, NY).toISOString()).toBe('2032-02-29T17:00:00.000Z');
  });

  it('the calendar day is the one of the site zone, not of UTC', () => {
    // 31 January 23:30 in New York is already 1 February in UTC: it bills on the last day of each month, New York time.
    const start = new Date('2026-02-01T04:30:00Z');
    expect(localTimeOf(start, NY).day).toBe(31);
    expect(billingDate(start, month, 2, NY).toISOString()).toBe('2026-03-01T04:30:00.000Z');
    expect(localTimeOf(billingDate(start, month, 2, NY), NY)).toMatchObject({
      month: 2,
      day: 28,
      hour: 23,
      minute: 30,
    });
  });

  it('weeks add days on the wall clock across daylight-saving changes', () => {
    const start = new Date('2026-03-02T14:00:00Z'); // Monday 09:00 EST
    const twoWeeks = { value: 2, unit: 'WEEK' } as const;
    expect(billingDate(start, twoWeeks, 2, NY).toISOString()).toBe('2026-03-16T13:00:00.000Z'); // 09:00 EDT
    expect(billingDate(start, { value: 1, unit: 'WEEK' }, 53, NY).toISOString()).toBe('2027-03-01T14:00:00.000Z');
  });

  it('a wall-clock time skipped by the spring change moves forward; a repeated one is its first occurrence', () => {
    expect(
      instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0, millisecond: 0 }, NY).toISOString(),
    ).toBe('2026-03-08T07:30:00.000Z');
    expect(
      instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0, millisecond: 0 }, NY).toISOString(),
    ).toBe('2026-11-01T05:30:00.000Z');
  });

  it('other zones, and an unknown zone falls back to the default', () => {
    const start = new Date('2026-01-31T00:30:00Z'); // 31 Jan 11:30 in Sydney (AEDT, UTC+11)
    expect(billingDate(start, month, 2, 'Australia/Sydney').toISOString()).toBe('2026-02-28T00:30:00.000Z');
    expect(usableTimeZone('Mars/Olympus_Mons')).toBe(NY);
    expect(usableTimeZone('')).toBe(NY);
    expect(usableTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(billingDate(new Date('2026-01-31T15:00:00Z'), month, 2, 'nowhere').toISOString()).toBe(
      '2026-02-28T15:00:00.000Z',
    );
  });

  it('refuses a period number below 1', () => {
    expect(() => billingDate(new Date(), month, 0, NY)).toThrow(RangeError);
  });

  it('reads the date in the site zone', () => {
    expect(billingDateText(new Date('2026-03-01T04:30:00Z'), NY)).toBe('28 February 2026');
  });
});

describe('cycles', () => {
  it('until cancelled never completes', () => {
    expect(afterPeriod(1, null)).toEqual({ completed: false, nextPeriod: 2 });
    expect(afterPeriod(500, 0)).toEqual({ completed: false, nextPeriod: 501 });
  });
  it('N cycles complete with period N', () => {
    expect(afterPeriod(2, 3).completed).toBe(false);
    expect(afterPeriod(3, 3).completed).toBe(true);
    expect(afterPeriod(1, 1).completed).toBe(true);
  });
});
