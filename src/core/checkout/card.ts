/**
 * The card form of the `test` payment provider, checked the same way in the browser (before posting) and on the
 * server (before paying). The texts are the ones shoppers know from hosted card fields.
 */
import { err, ok, type Result } from '../result';
import { readText } from './readText';

/** The demo's cards: the first pays, the second is declined (see the site file's `payments`). */
export const TEST_CARDS = { approved: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

export const CARD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: 'Your card’s expiration date is incomplete.',
  expiryInPast: 'Your card’s expiration date is in the past.',
  expiryInvalid: 'Your card’s expiration date is invalid.',
  cvcIncomplete: 'Your card’s security code is incomplete.',
  cvcInvalid: 'Your card’s security code is invalid.',
} as const;

export type CardField = 'cardNumber' | 'cardExpiry' | 'cardCvc';

export interface CardDetails {
  /** Digits only. */
  number: string;
  /** 1–12. */
  expMonth: number;
  /** Four digits. */
  expYear: number;
  cvc: string;
}

/** The Luhn checksum every card number carries: it catches one mistyped digit and most swapped neighbours. */
export const isLuhnValid = (digits: string): boolean => {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    const doubled = i % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum % 10 === 0;
};

const checkNumber = (text: string): Result<string, string> => {
  const digits = text.replace(/[\s-]/g, '');
  if (digits === '') return err(CARD_MESSAGES.numberIncomplete);
  if (!/^\d+$/.test(digits) || digits.length > 19) return err(CARD_MESSAGES.numberInvalid);
  if (digits.length < 12) return err(CARD_MESSAGES.numberIncomplete);
  return isLuhnValid(digits) ? ok(digits) : err(CARD_MESSAGES.numberInvalid);
};

// 'MM / YY', 'MM/YY', 'MM/YYYY' (a one-digit month too), or the same without the slash ('1229', '122029').
const EXPIRY = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$|^(\d{2})(\d{2}|\d{4})$/;
// What a shopper may have typed so far of a complete date: still incomplete rather than wrong.
const EXPIRY_SO_FAR = /^\d{0,2}\s*\/?\s*\d{0,3}$/;
// Cards are issued for a few years; a date further out is a typing mistake (e.g. 12/2092 for 12/2029).
const MAX_YEARS_AHEAD = 50;

const checkExpiry = (text: string, now: Date): Result<{ expMonth: number; expYear: number }, string> => {
  const match = EXPIRY.exec(text);
  if (!match) return err(EXPIRY_SO_FAR.test(text) ? CARD_MESSAGES.expiryIncomplete : CARD_MESSAGES.expiryInvalid);
  const expMonth = Number(match[1] ?? match[3]);
  const yearText = String(match[2] ?? match[4]);
  // Dates are compared in UTC so that browser and server agree; a card is good to the end of its month.
  const thisYear = now instanceof Date ? now.getUTCFullYear() : Number.NaN;
  const thisMonth = now instanceof Date ? now.getUTCMonth() + 1 : Number.NaN;
  // A two-digit year is in the current century (2000 + YY until 2099).
  const expYear = yearText.length === 2 ? Math.floor(thisYear / 100) * 100 + Number(yearText) : Number(yearText);
  if (expMonth < 1 || expMonth > 12 || expYear > thisYear + MAX_YEARS_AHEAD) return err(CARD_MESSAGES.expiryInvalid);
  // Written as "not at or after this month" so that an unreadable clock (NaN) refuses rather than accepts.
  if (!(expYear * 12 + expMonth >= thisYear * 12 + thisMonth)) return err(CARD_MESSAGES.expiryInPast);
  return ok({ expMonth, expYear });
};

const checkCvc = (text: string): Result<string, string> => {
  if (/^\d{3,4}$/.test(text)) return ok(text);
  return /^\d{0,2}$/.test(text) ? err(CARD_MESSAGES.cvcIncomplete) : err(CARD_MESSAGES.cvcInvalid);
};

/** Checks the test provider's card form; the error names each wrong field with the message shown beside it. */
export const checkCardInput = (input: unknown, now: Date): Result<CardDetails, Partial<Record<CardField, string>>> => {
  const number = checkNumber(readText(input, 'cardNumber'));
  const expiry = checkExpiry(readText(input, 'cardExpiry'), now);
  const cvc = checkCvc(readText(input, 'cardCvc'));
  if (number.ok && expiry.ok && cvc.ok) return ok({ number: number.value, ...expiry.value, cvc: cvc.value });
  const errors: Partial<Record<CardField, string>> = {};
  if (!number.ok) errors.cardNumber = number.error;
  if (!expiry.ok) errors.cardExpiry = expiry.error;
  if (!cvc.ok) errors.cardCvc = cvc.error;
  return err(errors);
};
