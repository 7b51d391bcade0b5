/**
 * Address hints of spec §5, shown to merchants entering the postal codes of shipping or tax
 * regions. The spec does not show the matching rules; ours accept the form each country's
 * regions are usually given in (a whole code, or only its leading part where codes are long).
 */
import type { AddressCountry } from './countries';

export const ADDRESS_HINTS = {
  postalCode4Digits: 'Postal Codes need to be 4 digits',
  postalCode4DigitsSentence: 'Postal Codes need to be 4 digits.',
  postalCode5Digits: 'Postal Codes need to be 5 digits',
  zipCode5Digits: 'ZIP Codes need to be 5 digits.',
  postcode4Digits: 'Postcodes need to be 4 digits',
  invalidPostalCode: 'Invalid postal code.',
  invalidFsa: 'An FSA code is invalid.',
  ukOutcode: 'Enter only the 1-4 character outcode portion of postcodes.',
  eircodeRoutingKey: 'Enter only the first three characters of the Eircode',
  postcodePrefix: 'Enter up to 3 digits of the postcode',
  houseNumberExample: '(e.g. 1, 203, 42)',
} as const;

export type AddressHint = (typeof ADDRESS_HINTS)[keyof typeof ADDRESS_HINTS];

interface PostalRule {
  pattern: RegExp;
  hint: AddressHint;
}

// The spec has 'Postal Codes need to be 4 digits' with and without a full stop; which country
// gets which is our choice (both are kept verbatim).
const POSTAL_RULES: Readonly<Record<AddressCountry, PostalRule>> = {
  US: { pattern: /^\d{5}$/, hint: ADDRESS_HINTS.zipCode5Digits },
  CA: { pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]$/, hint: ADDRESS_HINTS.invalidFsa },
  AU: { pattern: /^\d{4}$/, hint: ADDRESS_HINTS.postcode4Digits },
  NZ: { pattern: /^\d{4}$/, hint: ADDRESS_HINTS.postcode4Digits },
  IE: { pattern: /^(?:[AC-FHKNPRTV-Y]\d{2}|D6W)$/, hint: ADDRESS_HINTS.eircodeRoutingKey },
  GB: { pattern: /^(?:[A-Z]{1,2}\d[A-Z\d]?)$/, hint: ADDRESS_HINTS.ukOutcode },
  DE: { pattern: /^\d{5}$/, hint: ADDRESS_HINTS.postalCode5Digits },
  FR: { pattern: /^\d{5}$/, hint: ADDRESS_HINTS.postalCode5Digits },
  ES: { pattern: /^\d{5}$/, hint: ADDRESS_HINTS.postalCode5Digits },
  NL: { pattern: /^\d{4}$/, hint: ADDRESS_HINTS.postalCode4DigitsSentence },
  NO: { pattern: /^\d{4}$/, hint: ADDRESS_HINTS.postalCode4Digits },
  SE: { pattern: /^\d{1,3}$/, hint: ADDRESS_HINTS.postcodePrefix },
};

/**
 * The hint for a postal code a merchant typed for a region, or null when it fits.
 * Letters are compared in upper case and spaces are ignored ('sw1a' is the outcode SW1A).
 * A country without a rule only rejects an empty or symbol-only code.
 */
export const postalCodeHint = (country: string, code: unknown): AddressHint | null => {
  const value = typeof code === 'string' ? code.replace(/\s+/g, '').toUpperCase() : '';
  const rule = Object.hasOwn(POSTAL_RULES, country) ? POSTAL_RULES[country as AddressCountry] : null;
  if (rule) return rule.pattern.test(value) ? null : rule.hint;
  return /^[A-Z0-9-]{1,10}$/.test(value) ? null : ADDRESS_HINTS.invalidPostalCode;
};
