import { describe, expect, it } from 'vitest';
import { formatEventRange } from './eventDates';

const at = (iso: string) => Date.parse(iso);

describe('formatEventRange (event posts, in the site’s time zone)', () => {
  it('writes a same-day event with its times once, in the site’s zone', () => {
    const text = formatEventRange(
      { startDate: at('2026-06-13T14:00:00Z'), endDate: at('2026-06-13T20:00:00Z') },
      'America/New_York',
      'en-US',
    );
    expect(text).toMatch(/^Saturday, June 13, 2026, 10:00\sAM\s–\s4:00\sPM EDT$/);
  });
  it('shows the same instant on another day in another zone', () => {
    const text = formatEventRange({ startDate: at('2026-06-13T23:30:00Z') }, 'Asia/Tokyo', 'en-US');
    expect(text).toMatch(/^Sunday, June 14, 2026(,| at) 8:30\sAM GMT\+9$/);
  });
  it('writes all-day events as dates, a range when they span days', () => {
    const text = formatEventRange(
      { startDate: at('2026-07-03T16:00:00Z'), endDate: at('2026-07-05T16:00:00Z'), allDay: true },
      'America/New_York',
      'en-US',
    );
    expect(text).toBe('Friday, July 3\u2009–\u2009Sunday, July 5, 2026');
    expect(formatEventRange({ startDate: at('2026-07-03T16:00:00Z'), allDay: true }, 'America/New_York', 'en-US')).toBe(
      'Friday, July 3, 2026',
    );
  });
  it('reads a missing or earlier end as the start, and an unknown zone as UTC', () => {
    const start = at('2026-06-13T14:00:00Z');
    expect(formatEventRange({ startDate: start, endDate: start - 1000, allDay: true }, 'UTC', 'en-US')).toBe(
      'Saturday, June 13, 2026',
    );
    expect(formatEventRange({ startDate: start, allDay: true }, 'Mars/Olympus', 'en-US')).toBe(
      'Saturday, June 13, 2026',
    );
  });
  it('writes the locale’s words', () => {
    expect(formatEventRange({ startDate: at('2026-06-13T14:00:00Z'), allDay: true }, 'Europe/Paris', 'fr-FR')).toBe(
      'samedi 13 juin 2026',
    );
  });
});
