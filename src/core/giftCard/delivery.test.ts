import { describe, expect, it } from 'vitest';
import {
  CARD_CANCELLED_NOTE,
  checkDeliveryDate,
  DELIVERY_MESSAGES,
  deliveryDateText,
  deliveryNote,
  startOfDayIn,
  todayIn,
  usableTimeZone,
} from './delivery';

describe('gift-card delivery dates', () => {
  // 03:30 UTC on 2025-03-10 is still 2025-03-09 in New York (EDT started that morning).
  const now = new Date('2025-03-10T03:30:00Z');

  it('knows the day in the site time zone', () => {
    expect(todayIn('America/New_York', now)).toBe('2025-03-09');
    expect(todayIn('UTC', now)).toBe('2025-03-10');
    expect(todayIn('Asia/Tokyo', now)).toBe('2025-03-10');
  });

  it("refuses to find the start of what is not a YYYY-MM-DD date (a caller checks the shopper's input first)", () => {
    expect(() => startOfDayIn('2025-3-9', 'UTC')).toThrow(new RangeError('not a YYYY-MM-DD date: 2025-3-9'));
    expect(() => startOfDayIn('', 'UTC')).toThrow(RangeError);
  });

  it('finds the start of a day in a zone, across a DST change', () => {
    expect(startOfDayIn('2025-03-09', 'America/New_York').toISOString()).toBe('2025-03-09T05:00:00.000Z');
    expect(startOfDayIn('2025-03-10', 'America/New_York').toISOString()).toBe('2025-03-10T04:00:00.000Z');
    expect(startOfDayIn('2025-12-24', 'Europe/Berlin').toISOString()).toBe('2025-12-23T23:00:00.000Z');
    expect(startOfDayIn('2025-12-24', 'UTC').toISOString()).toBe('2025-12-24T00:00:00.000Z');
  });

  it('sends today (the default) at once and a later day at its midnight', () => {
    expect(checkDeliveryDate('', 'America/New_York', now)).toEqual({
      ok: true,
      value: { date: '2025-03-09', sendAfter: null },
    });
    expect(checkDeliveryDate('2025-03-09', 'America/New_York', now)).toEqual({
      ok: true,
      value: { date: '2025-03-09', sendAfter: null },
    });
    const later = checkDeliveryDate('2025-03-20', 'America/New_York', now);
    expect(later.ok && later.value.sendAfter?.toISOString()).toBe('2025-03-20T04:00:00.000Z');
  });

  it('refuses a past day, a day too far ahead and what is not a date', () => {
    expect(checkDeliveryDate('2025-03-08', 'America/New_York', now)).toEqual({
      ok: false,
      error: DELIVERY_MESSAGES.past,
    });
    expect(checkDeliveryDate('2026-03-10', 'America/New_York', now)).toEqual({
      ok: false,
      error: DELIVERY_MESSAGES.tooFar,
    });
    expect(checkDeliveryDate('2026-03-09', 'America/New_York', now).ok).toBe(true);
    for (const bad of ['tomorrow', '2025-02-30', '2025-3-20', '20250320']) {
      expect(checkDeliveryDate(bad, 'America/New_York', now)).toEqual({ ok: false, error: DELIVERY_MESSAGES.invalid });
    }
  });

  it('falls back to UTC for a zone Intl does not know', () => {
    expect(usableTimeZone('Mars/Olympus')).toBe('UTC');
    expect(usableTimeZone(undefined)).toBe('UTC');
    expect(todayIn('Mars/Olympus', now)).toBe('2025-03-10');
  });

  it('names a delivery day as the buyer reads it, whatever the zone', () => {
    expect(deliveryDateText('2026-12-24')).toBe('24 December 2026');
    expect(deliveryDateText('2027-01-01')).toBe('1 January 2027');
    expect(deliveryDateText('not a date')).toBe('not a date');
  });

  it('tells the buyer when the card is e-mailed: later, on its way, sent, or cancelled', () => {
    const card = {
      recipientEmail: 'grace@example.com',
      deliveryDate: '2026-12-24',
      deliveredOn: null,
      cancelled: false,
    };
    expect(deliveryNote(card, '2026-11-26')).toBe('It will be e-mailed to grace@example.com on 24 December 2026.');
    expect(deliveryNote(card, '2026-12-24')).toBe('It is on its way to grace@example.com.');
    expect(deliveryNote({ ...card, deliveredOn: '2026-12-24' }, '2026-12-30')).toBe(
      'E-mailed to grace@example.com on 24 December 2026.',
    );
    expect(deliveryNote({ ...card, cancelled: true }, '2026-11-26')).toBe(CARD_CANCELLED_NOTE);
  });
});
