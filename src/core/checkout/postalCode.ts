/**
 * A shopper's full postal code, checked against its country's format and written the way the post prints it
 * ('k1a0b1' → 'K1A 0B1'). The merchant-facing hints of address/hints.ts check region prefixes instead; where one of
 * the spec's §5 hint texts also fits a shopper's mistake (a code with the wrong number of digits) it is reused.
 */
import { ADDRESS_HINTS } from '../address/hints';
import type { AddressCountry } from '../address/countries';
import { err, ok, type Result } from '../result';

interface PostalFormat {
  /** Matched against the code without spaces, in upper case; the groups are the printed parts. */
  pattern: RegExp;
  /** Printed between the groups. */
  separator: string;
  /** Shown when the code does not match. */
  message: string;
}

const digits = (n: number, message: string): PostalFormat => ({
  pattern: new RegExp(`^(\\d{${n}})$`),
  separator: '',
  message,
});

// Letters Canada Post and An Post leave out of codes because they are read as digits or one another.
const CA_FIRST = 'ABCEGHJ-NPRSTVXY';
const CA_OTHER = 'ABCEGHJ-NPRSTV-Z';
const EIRCODE = '0-9AC-FHKNPRTV-Y';

export const POSTAL_FORMATS: Readonly<Record<AddressCountry, PostalFormat>> = {
  // ZIP or ZIP+4; the dash may be left out.
  US: { pattern: /^(\d{5})(?:-?(\d{4}))?$/, separator: '-', message: ADDRESS_HINTS.zipCode5Digits },
  CA: {
    pattern: new RegExp(`^([${CA_FIRST}]\\d[${CA_OTHER}])(\\d[${CA_OTHER}]\\d)$`),
    separator: ' ',
    message: ADDRESS_HINTS.invalidPostalCode,
  },
  AU: digits(4, ADDRESS_HINTS.postcode4Digits),
  NZ: digits(4, ADDRESS_HINTS.postcode4Digits),
  // Routing key (D6W is the one with a letter last) and a 4-character unique identifier.
  IE: {
    pattern: new RegExp(`^([AC-FHKNPRTV-Y]\\d{2}|D6W)([${EIRCODE}]{4})$`),
    separator: ' ',
    message: ADDRESS_HINTS.invalidPostalCode,
  },
  // Outward code (or the Girobank GIR), then the inward code: digit and two letters.
  GB: { pattern: /^([A-Z]{1,2}\d[A-Z\d]?|GIR)(\d[A-Z]{2})$/, separator: ' ', message: ADDRESS_HINTS.invalidPostalCode },
  DE: digits(5, ADDRESS_HINTS.postalCode5Digits),
  FR: digits(5, ADDRESS_HINTS.postalCode5Digits),
  ES: digits(5, ADDRESS_HINTS.postalCode5Digits),
  NL: { pattern: /^([1-9]\d{3})([A-Z]{2})$/, separator: ' ', message: ADDRESS_HINTS.invalidPostalCode },
  NO: digits(4, ADDRESS_HINTS.postalCode4Digits),
  SE: { pattern: /^([1-9]\d{2})(\d{2})$/, separator: ' ', message: ADDRESS_HINTS.invalidPostalCode },
};

/** The code in its printed form, or the message for the country when it is not a full code of that country. */
export const checkPostalCode = (country: AddressCountry, code: string): Result<string, string> => {
  const format = POSTAL_FORMATS[country];
  const match = format.pattern.exec(code.replace(/\s+/g, '').toUpperCase());
  if (!match) return err(format.message);
  return ok(
    match
      .slice(1)
      .filter((part) => part !== undefined && part !== '')
      .join(format.separator),
  );
};
