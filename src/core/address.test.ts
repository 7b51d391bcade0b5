import { describe, expect, it } from 'vitest';
import {
  ADDRESS_COUNTRIES,
  ADDRESS_HINTS,
  ADDRESS_TERMS,
  AUSTRALIA_STATES,
  CANADA_PROVINCES,
  COUNTRY_ADDRESS_FORMATS,
  FRANCE_REGIONS,
  GERMANY_STATES,
  IRELAND_COUNTIES,
  NETHERLANDS_PROVINCES,
  NEW_ZEALAND_REGIONS,
  NORWAY_COUNTIES,
  REGION_NOUNS,
  SPAIN_PROVINCES,
  SWEDEN_COUNTIES,
  UNITED_KINGDOM_REGIONS,
  US_STATES,
  countryAddressFormat,
  isAddressCountry,
  postalCodeHint,
  regionName,
  regionNoun,
} from './address';

describe('address dictionary (§3)', () => {
  it('has the terms', () => {
    expect(ADDRESS_TERMS).toEqual({ address: 'Address', address2: 'Address 2' });
  });

  it('has every region noun in singular and plural', () => {
    expect(Object.values(REGION_NOUNS).map((n) => n.singular)).toEqual([
      'State',
      'Province',
      'County',
      'Region',
      'Postcode',
      'ZIP Code',
      'Postal Code',
      'FSA',
      'Eircode',
      'City',
      'State/Territory',
      'Province/Territory',
    ]);
    expect(regionNoun('county', 2)).toBe('Counties');
    expect(regionNoun('provinceTerritory')).toBe('Province/Territory');
    expect(regionNoun('stateTerritory', 0)).toBe('States/Territories');
  });

  it.each([
    [US_STATES, 59],
    [CANADA_PROVINCES, 13],
    [AUSTRALIA_STATES, 8],
    [NEW_ZEALAND_REGIONS, 17],
    [IRELAND_COUNTIES, 26],
    [UNITED_KINGDOM_REGIONS, 4],
    [GERMANY_STATES, 16],
    [FRANCE_REGIONS, 18],
    [SPAIN_PROVINCES, 52],
    [NETHERLANDS_PROVINCES, 12],
    [NORWAY_COUNTIES, 15],
    [SWEDEN_COUNTIES, 21],
  ])('region table %# has %s entries with unique names', (table, size) => {
    expect(Object.keys(table)).toHaveLength(size);
    expect(new Set(Object.values(table)).size).toBe(size);
  });

  it('includes the armed-forces pseudo-states', () => {
    expect(US_STATES.AA).toBe('Armed Forces Americas');
    expect(US_STATES.AE).toBe('Armed Forces Europe');
    expect(US_STATES.AP).toBe('Armed Forces Pacific');
  });

  it('looks up region names', () => {
    expect(regionName('US', 'ny')).toBe('New York');
    expect(regionName('us', 'US-CA')).toBe('California');
    expect(regionName('CA', 'QC')).toBe('Quebec');
    expect(regionName('NO', '03')).toBe('Oslo');
    expect(regionName('FR', '20R')).toBe('Corse');
    expect(regionName('US', 'XX')).toBeNull();
    expect(regionName('US', 'toString')).toBeNull();
    expect(regionName('JP', '13')).toBeNull();
    expect(regionName('US', 5)).toBeNull();
  });

  it('gives each covered country its labels', () => {
    expect(ADDRESS_COUNTRIES).toHaveLength(12);
    expect(countryAddressFormat(' us ')?.postalNoun.singular).toBe('ZIP Code');
    expect(countryAddressFormat('IE')?.postalNoun.singular).toBe('Eircode');
    expect(countryAddressFormat('CA')?.regionNoun.singular).toBe('Province/Territory');
    expect(countryAddressFormat('AU')?.regionNoun.singular).toBe('State/Territory');
    expect(countryAddressFormat('JP')).toBeNull();
    expect(countryAddressFormat(undefined)).toBeNull();
    expect(isAddressCountry('GB')).toBe(true);
    expect(isAddressCountry('gb')).toBe(false);
    expect(Object.keys(COUNTRY_ADDRESS_FORMATS)).toEqual([...ADDRESS_COUNTRIES]);
  });
});

describe('address hints (§5)', () => {
  it('has every hint verbatim', () => {
    expect(Object.values(ADDRESS_HINTS)).toEqual([
      'Postal Codes need to be 4 digits',
      'Postal Codes need to be 4 digits.',
      'Postal Codes need to be 5 digits',
      'ZIP Codes need to be 5 digits.',
      'Postcodes need to be 4 digits',
      'Invalid postal code.',
      'An FSA code is invalid.',
      'Enter only the 1-4 character outcode portion of postcodes.',
      'Enter only the first three characters of the Eircode',
      'Enter up to 3 digits of the postcode',
      '(e.g. 1, 203, 42)',
    ]);
  });

  it.each([
    ['US', '10001', null],
    ['US', '1000', 'ZIP Codes need to be 5 digits.'],
    ['CA', 'k1a', null],
    ['CA', 'K1A0B1', 'An FSA code is invalid.'],
    ['CA', 'D1A', 'An FSA code is invalid.'],
    ['AU', '2000', null],
    ['AU', '200', 'Postcodes need to be 4 digits'],
    ['NZ', '6011', null],
    ['IE', 'd02', null],
    ['IE', 'D6W', null],
    ['IE', 'D02 X285', 'Enter only the first three characters of the Eircode'],
    ['GB', 'sw1a', null],
    ['GB', 'M1', null],
    ['GB', 'SW1A 1AA', 'Enter only the 1-4 character outcode portion of postcodes.'],
    ['DE', '10115', null],
    ['FR', '7500', 'Postal Codes need to be 5 digits'],
    ['ES', 'abcde', 'Postal Codes need to be 5 digits'],
    ['NL', '1012', null],
    ['NL', '1012AB', 'Postal Codes need to be 4 digits.'],
    ['NO', '015', 'Postal Codes need to be 4 digits'],
    ['SE', '114', null],
    ['SE', '11455', 'Enter up to 3 digits of the postcode'],
    ['JP', '100-0001', null],
    ['JP', '', 'Invalid postal code.'],
    ['JP', '%%', 'Invalid postal code.'],
    ['US', undefined, 'ZIP Codes need to be 5 digits.'],
  ])('%s %j → %s', (country, code, hint) => {
    expect(postalCodeHint(country, code)).toBe(hint);
  });
});
