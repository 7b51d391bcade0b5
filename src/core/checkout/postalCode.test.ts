import { describe, expect, it } from 'vitest';
import type { AddressCountry } from '../address/countries';
import { checkPostalCode } from './postalCode';

const INVALID = 'Invalid postal code.';

describe('checkPostalCode: full codes in their printed form', () => {
  it.each<[AddressCountry, string, string]>([
    ['US', '12345', '12345'],
    ['US', '12345-6789', '12345-6789'],
    ['US', '123456789', '12345-6789'],
    ['US', '12345 6789', '12345-6789'],
    ['US', ' 02134 ', '02134'],
    ['CA', 'K1A 0B1', 'K1A 0B1'],
    ['CA', 'k1a0b1', 'K1A 0B1'],
    ['CA', 'h2x  1y4', 'H2X 1Y4'],
    ['AU', '2000', '2000'],
    ['AU', '0800', '0800'],
    ['NZ', '6011', '6011'],
    ['NO', '0150', '0150'],
    ['DE', '10115', '10115'],
    ['DE', '10 115', '10115'],
    ['FR', '75001', '75001'],
    ['FR', '97400', '97400'],
    ['ES', '28013', '28013'],
    ['NL', '1234 AB', '1234 AB'],
    ['NL', '1234ab', '1234 AB'],
    ['SE', '123 45', '123 45'],
    ['SE', '12345', '123 45'],
    ['GB', 'SW1A 1AA', 'SW1A 1AA'],
    ['GB', 'sw1a1aa', 'SW1A 1AA'],
    ['GB', 'M1 1AE', 'M1 1AE'],
    ['GB', 'M11AE', 'M1 1AE'],
    ['GB', 'B33 8TH', 'B33 8TH'],
    ['GB', 'CR2 6XH', 'CR2 6XH'],
    ['GB', 'DN55 1PT', 'DN55 1PT'],
    ['GB', 'W1A 0AX', 'W1A 0AX'],
    ['GB', 'GIR 0AA', 'GIR 0AA'],
    ['IE', 'D02 X285', 'D02 X285'],
    ['IE', 'd02x285', 'D02 X285'],
    ['IE', 'A65 F4E2', 'A65 F4E2'],
    ['IE', 'D6W 1234', 'D6W 1234'],
    ['IE', 'T12 KX34', 'T12 KX34'],
  ])('%s %s → %s', (country, code, printed) =>
    expect(checkPostalCode(country, code)).toEqual({ ok: true, value: printed }),
  );
});

describe('checkPostalCode: the message for a wrong code (spec §5 hints where they fit)', () => {
  it.each<[AddressCountry, string, string]>([
    ['US', '1234', 'ZIP Codes need to be 5 digits.'],
    ['US', '123456', 'ZIP Codes need to be 5 digits.'],
    ['US', '12345-67', 'ZIP Codes need to be 5 digits.'],
    ['US', 'ABCDE', 'ZIP Codes need to be 5 digits.'],
    ['US', '12345-', 'ZIP Codes need to be 5 digits.'],
    ['AU', '200', 'Postcodes need to be 4 digits'],
    ['AU', '20000', 'Postcodes need to be 4 digits'],
    ['NZ', '60111', 'Postcodes need to be 4 digits'],
    ['NO', '015', 'Postal Codes need to be 4 digits'],
    ['NO', 'N-0150', 'Postal Codes need to be 4 digits'],
    ['DE', '1011', 'Postal Codes need to be 5 digits'],
    ['FR', '750011', 'Postal Codes need to be 5 digits'],
    ['ES', 'E28013', 'Postal Codes need to be 5 digits'],
    ['CA', 'K1A', INVALID],
    ['CA', 'D1A 0B1', INVALID], // D is never a first letter
    ['CA', 'K1A 0O1', INVALID], // nor O anywhere
    ['NL', '1234', INVALID],
    ['NL', '0123 AB', INVALID],
    ['NL', '1234 A', INVALID],
    ['SE', '1234', INVALID],
    ['SE', '023 45', INVALID],
    ['GB', 'SW1A', INVALID],
    ['GB', 'SW1A 1A', INVALID],
    ['GB', '1AA SW1', INVALID],
    ['IE', 'D02', INVALID],
    ['IE', 'D02 X28', INVALID],
    ['IE', 'B02 X285', INVALID], // B is no routing key
    ['IE', 'T12 AB34', INVALID], // nor a letter of the identifier
    ['IE', 'D02 X2O5', INVALID], // O is not used
  ])('%s %s → %s', (country, code, message) =>
    expect(checkPostalCode(country, code)).toEqual({ ok: false, error: message }),
  );
});
