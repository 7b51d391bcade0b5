import { describe, expect, it } from 'vitest';
import { shownTotalValue, totalChangedMessage, totalChangedSinceShown, totalsFinal } from './shownTotal';

describe('shownTotal', () => {
  it('holds the totals final once a shipping method is chosen, or when nothing ships', () => {
    expect(totalsFinal({ requiresShipping: true, selectedShippingOptionId: null })).toBe(false);
    expect(totalsFinal({ requiresShipping: true, selectedShippingOptionId: 'standard' })).toBe(true);
    expect(totalsFinal({ requiresShipping: false, selectedShippingOptionId: null })).toBe(true);
  });

  it('posts the grand total once it is final, nothing before', () => {
    expect(shownTotalValue({ grandTotalCents: 1900 }, true)).toBe('1900');
    expect(shownTotalValue({ grandTotalCents: 1900 }, false)).toBe('');
  });

  it('finds the total changed only when one was posted and differs', () => {
    expect(totalChangedSinceShown('1900', { grandTotalCents: 2915 }, true)).toBe(true);
    expect(totalChangedSinceShown('', { grandTotalCents: 2915 }, true)).toBe(true);
    expect(totalChangedSinceShown('2915', { grandTotalCents: 2915 }, true)).toBe(false);
    expect(totalChangedSinceShown('', { grandTotalCents: 2915 }, false)).toBe(false);
    expect(totalChangedSinceShown(undefined, { grandTotalCents: 2915 }, true)).toBe(false);
    expect(totalChangedSinceShown(['2915'], { grandTotalCents: 2915 }, true)).toBe(false);
  });

  it('says the new total and which button to press', () => {
    expect(totalChangedMessage('$29.15', 'Subscribe')).toBe(
      'Your total is now $29.15 with the details you entered. Please check it and your card details, then press Subscribe again.',
    );
  });
});
