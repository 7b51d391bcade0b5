import { describe, expect, it } from 'vitest';
import { CARD_MESSAGES, TEST_CARDS, checkCardInput, isLuhnValid } from './card';

const now = new Date('2026-06-15T12:00:00Z');
const good = { cardNumber: TEST_CARDS.approved, cardExpiry: '12 / 29', cardCvc: '123' };
const errorsOf = (input: unknown, at: Date = now) => {
  const result = checkCardInput(input, at);
  return result.ok ? {} : result.error;
};

const INCOMPLETE_NUMBER = 'Your card number is incomplete.';
const INVALID_NUMBER = 'Your card number is invalid.';
const INCOMPLETE_EXPIRY = 'Your card’s expiration date is incomplete.';
const PAST_EXPIRY = 'Your card’s expiration date is in the past.';
const INVALID_EXPIRY = 'Your card’s expiration date is invalid.';
const INCOMPLETE_CVC = 'Your card’s security code is incomplete.';
const INVALID_CVC = 'Your card’s security code is invalid.';

describe('CARD_MESSAGES and TEST_CARDS', () => {
  it('has these texts', () => {
    expect(Object.values(CARD_MESSAGES)).toEqual([
      INCOMPLETE_NUMBER,
      INVALID_NUMBER,
      INCOMPLETE_EXPIRY,
      PAST_EXPIRY,
      INVALID_EXPIRY,
      INCOMPLETE_CVC,
      INVALID_CVC,
    ]);
  });

  it('the test cards are the demo’s and pass the checksum', () => {
    expect(TEST_CARDS).toEqual({ approved: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' });
    expect(isLuhnValid(TEST_CARDS.approved.replace(/ /g, ''))).toBe(true);
    expect(isLuhnValid(TEST_CARDS.declined.replace(/ /g, ''))).toBe(true);
  });
});

describe('isLuhnValid', () => {
  it.each<[string, boolean]>([
    ['4242424242424242', true],
    ['4000000000000002', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['79927398713', true],
    ['4242424242424241', false],
    ['2424424242424242', false], // two digits swapped
    ['', false],
    ['4242 4242', false],
    ['abc', false],
  ])('%j → %s', (digits, valid) => expect(isLuhnValid(digits)).toBe(valid));
});

describe('checkCardInput: good input', () => {
  it('gives the digits, the month, the 4-digit year and the code', () => {
    expect(checkCardInput(good, now)).toEqual({
      ok: true,
      value: { number: '4242424242424242', expMonth: 12, expYear: 2029, cvc: '123' },
    });
  });

  it.each<[string, number, number]>([
    ['12 / 29', 12, 2029],
    ['12/29', 12, 2029],
    ['12/2029', 12, 2029],
    ['12 / 2029', 12, 2029],
    ['1/27', 1, 2027],
    ['01/27', 1, 2027],
    ['0627', 6, 2027],
    ['062027', 6, 2027],
    [' 06 / 26 ', 6, 2026], // this month is still good
    ['12/76', 12, 2076], // 50 years ahead
  ])('expiry %j → %i/%i', (cardExpiry, expMonth, expYear) => {
    expect(checkCardInput({ ...good, cardExpiry }, now)).toMatchObject({ ok: true, value: { expMonth, expYear } });
  });

  it.each<[string, string]>([
    ['4242-4242-4242-4242', '4242424242424242'],
    [' 4242424242424242 ', '4242424242424242'],
    ['4242 4242 4242 4242', '4242424242424242'],
    ['3782 822463 10005', '378282246310005'],
    ['424242424242', '424242424242'], // 12 digits
    ['4242424242424242428', '4242424242424242428'], // 19 digits
  ])('number %j → %j', (cardNumber, digits) => {
    expect(checkCardInput({ ...good, cardNumber }, now)).toMatchObject({ ok: true, value: { number: digits } });
  });

  it('takes a 4-digit code', () => {
    expect(checkCardInput({ ...good, cardCvc: '1234' }, now)).toMatchObject({ ok: true, value: { cvc: '1234' } });
  });

  it('reads numbers sent as numbers', () => {
    expect(checkCardInput({ cardNumber: 4242424242424242, cardExpiry: '12/29', cardCvc: 123 }, now)).toMatchObject({
      ok: true,
      value: { number: '4242424242424242', cvc: '123' },
    });
  });
});

describe('checkCardInput: card number', () => {
  it.each<[unknown, string]>([
    ['', INCOMPLETE_NUMBER],
    [' - ', INCOMPLETE_NUMBER],
    [undefined, INCOMPLETE_NUMBER],
    [{}, INCOMPLETE_NUMBER],
    ['4242', INCOMPLETE_NUMBER],
    ['42424242424', INCOMPLETE_NUMBER], // 11 digits
    ['4242424242424241', INVALID_NUMBER], // checksum
    ['00000000000000000000', INVALID_NUMBER], // 20 digits
    ['4242 4242 4242 424x', INVALID_NUMBER],
    ['4242.4242.4242.4242', INVALID_NUMBER],
    ['٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢', INVALID_NUMBER], // not ASCII digits
    ['4'.repeat(1_000_000), INVALID_NUMBER],
  ])('%j → %s', (cardNumber, message) => expect(errorsOf({ ...good, cardNumber })).toEqual({ cardNumber: message }));
});

describe('checkCardInput: expiry', () => {
  it.each<[unknown, string]>([
    ['', INCOMPLETE_EXPIRY],
    [undefined, INCOMPLETE_EXPIRY],
    ['1', INCOMPLETE_EXPIRY],
    ['12', INCOMPLETE_EXPIRY],
    ['12 /', INCOMPLETE_EXPIRY],
    ['12/2', INCOMPLETE_EXPIRY],
    ['12/202', INCOMPLETE_EXPIRY],
    ['122', INCOMPLETE_EXPIRY],
    ['05/26', PAST_EXPIRY], // last month
    ['12/25', PAST_EXPIRY],
    ['12/1999', PAST_EXPIRY],
    ['00/29', INVALID_EXPIRY],
    ['13/29', INVALID_EXPIRY],
    ['01/77', INVALID_EXPIRY], // more than 50 years ahead
    ['12/9999', INVALID_EXPIRY],
    ['12//29', INVALID_EXPIRY],
    ['ab/cd', INVALID_EXPIRY],
    ['12-29', INVALID_EXPIRY],
    ['12/29/30', INVALID_EXPIRY],
    ['x'.repeat(1_000_000), INVALID_EXPIRY],
  ])('%j → %s', (cardExpiry, message) => expect(errorsOf({ ...good, cardExpiry })).toEqual({ cardExpiry: message }));

  it('a card is good to the end of its month, in UTC', () => {
    expect(errorsOf({ ...good, cardExpiry: '06/26' }, new Date('2026-06-30T23:59:59Z'))).toEqual({});
    expect(errorsOf({ ...good, cardExpiry: '06/26' }, new Date('2026-07-01T00:00:00Z'))).toEqual({
      cardExpiry: PAST_EXPIRY,
    });
  });

  it('reads a two-digit year in the current century', () => {
    expect(checkCardInput({ ...good, cardExpiry: '01/05' }, new Date('2100-12-31T00:00:00Z'))).toMatchObject({
      ok: true,
      value: { expYear: 2105 },
    });
  });

  it('refuses rather than accepts when the clock cannot be read', () => {
    expect(errorsOf(good, new Date('nope'))).toEqual({ cardExpiry: PAST_EXPIRY });
    expect(errorsOf(good, 'today' as unknown as Date)).toEqual({ cardExpiry: PAST_EXPIRY });
  });
});

describe('checkCardInput: security code', () => {
  it.each<[unknown, string]>([
    ['', INCOMPLETE_CVC],
    [undefined, INCOMPLETE_CVC],
    ['1', INCOMPLETE_CVC],
    ['12', INCOMPLETE_CVC],
    ['12345', INVALID_CVC],
    ['12a', INVALID_CVC],
    ['1 23', INVALID_CVC],
    ['x'.repeat(1_000_000), INVALID_CVC],
  ])('%j → %s', (cardCvc, message) => expect(errorsOf({ ...good, cardCvc })).toEqual({ cardCvc: message }));
});

describe('checkCardInput: bad input never throws', () => {
  it.each([null, undefined, 42, 'card', [], true])('%j names every field', (input) => {
    expect(errorsOf(input)).toEqual({
      cardNumber: INCOMPLETE_NUMBER,
      cardExpiry: INCOMPLETE_EXPIRY,
      cardCvc: INCOMPLETE_CVC,
    });
  });

  it('names every wrong field at once', () => {
    expect(errorsOf({ cardNumber: '4242424242424241', cardExpiry: '13/29', cardCvc: '12' })).toEqual({
      cardNumber: INVALID_NUMBER,
      cardExpiry: INVALID_EXPIRY,
      cardCvc: INCOMPLETE_CVC,
    });
  });
});
