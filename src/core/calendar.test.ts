import { describe, expect, it } from 'vitest';
import { addToCalendarUrl, joinLocation, toBasicUtc } from './calendar';

const start = Date.UTC(2024, 2, 1, 14, 30, 0);
const end = Date.UTC(2024, 2, 1, 16, 0, 5);

describe('add to calendar (§7)', () => {
  it('formats basic UTC', () => {
    expect(toBasicUtc(start)).toBe('20240301T143000Z');
    expect(toBasicUtc(new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(1))).toBe('00010101T000000Z');
    expect(toBasicUtc(new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(0))).toBeNull();
    expect(toBasicUtc(Number.NaN)).toBeNull();
    expect(toBasicUtc(8.64e15 + 1)).toBeNull();
    expect(toBasicUtc(Date.UTC(10000, 0, 1))).toBeNull();
  });

  it('joins the location skipping empties', () => {
    expect(joinLocation({ addressLine1: '1 Main St', addressLine2: ' ', addressCountry: 'United States' })).toBe(
      '1 Main St, United States',
    );
    expect(joinLocation({ addressLine1: 'A', addressLine2: 'B', addressCountry: 'C' })).toBe('A, B, C');
    expect(joinLocation(null)).toBe('');
  });

  it('builds a Google Calendar template link', () => {
    const result = addToCalendarUrl({
      title: 'Open studio & sale',
      startDate: start,
      endDate: end,
      location: { addressLine1: '1 Main St', addressLine2: null, addressCountry: 'US' },
    });
    expect(result).toEqual({
      ok: true,
      value:
        'https://www.google.com/calendar/render?action=TEMPLATE&text=Open+studio+%26+sale&dates=20240301T143000Z%2F20240301T160005Z&location=1+Main+St%2C+US',
    });
  });

  it('omits an empty location and repairs a missing or earlier end', () => {
    const noEnd = addToCalendarUrl({ title: 'T', startDate: start });
    expect(noEnd).toEqual({
      ok: true,
      value: 'https://www.google.com/calendar/render?action=TEMPLATE&text=T&dates=20240301T143000Z%2F20240301T143000Z',
    });
    expect(addToCalendarUrl({ title: 'T', startDate: start, endDate: start - 1 })).toEqual(noEnd);
    expect(addToCalendarUrl({ title: 'T', startDate: start, endDate: 9e15 })).toEqual(noEnd);
  });

  it('refuses an unusable start', () => {
    expect(addToCalendarUrl({ title: 'T', startDate: Number.NaN })).toEqual({ ok: false, error: 'invalid-start' });
  });
});
