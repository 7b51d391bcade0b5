import { describe, expect, it } from 'vitest';
import { ADDRESS_COUNTRIES } from '../address/countries';
import {
  ADDRESS_MESSAGES,
  COUNTRY_NAMES,
  GENERIC_ADDRESS_FORM,
  addressFormFor,
  checkShippingAddress,
  countryName,
  formatAddressLines,
} from './address';
import { ADDRESS_FIELDS, type ShippingAddress } from './types';

const ALL = ADDRESS_COUNTRIES;

const brooklyn = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: '12 Main St',
  address2: 'Apt 4',
  city: 'Brooklyn',
  country: 'US',
  region: 'NY',
  postalCode: '11201',
  phone: '+1 (555) 123-4567',
};

const errorsOf = (input: unknown, shipsTo: readonly string[] = ALL) => {
  const result = checkShippingAddress(input, shipsTo);
  return result.ok ? {} : result.error;
};
const valueOf = (input: unknown, shipsTo: readonly string[] = ALL) => {
  const result = checkShippingAddress(input, shipsTo);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
  return result.value;
};

describe('COUNTRY_NAMES', () => {
  it('names every country of the address dictionary in English', () => {
    expect(COUNTRY_NAMES).toEqual({
      US: 'United States',
      CA: 'Canada',
      AU: 'Australia',
      NZ: 'New Zealand',
      IE: 'Ireland',
      GB: 'United Kingdom',
      DE: 'Germany',
      FR: 'France',
      ES: 'Spain',
      NL: 'Netherlands',
      NO: 'Norway',
      SE: 'Sweden',
    });
    expect(Object.keys(COUNTRY_NAMES).sort()).toEqual([...ALL].sort());
  });

  it('countryName looks a code up, exactly', () => {
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('gb')).toBeUndefined();
    expect(countryName('XX')).toBeUndefined();
    expect(countryName('constructor')).toBeUndefined();
  });
});

describe('addressFormFor', () => {
  it.each<[string, string, string, string, boolean, boolean, number]>([
    ['US', 'United States', 'State', 'ZIP Code', true, true, 59],
    ['CA', 'Canada', 'Province/Territory', 'Postal Code', true, true, 13],
    ['AU', 'Australia', 'State/Territory', 'Postcode', true, true, 8],
    ['NZ', 'New Zealand', 'Region', 'Postcode', false, true, 17],
    ['IE', 'Ireland', 'County', 'Eircode', false, false, 26],
    ['GB', 'United Kingdom', 'County', 'Postcode', false, true, 4],
    ['DE', 'Germany', 'State', 'Postal Code', false, true, 16],
    ['FR', 'France', 'Region', 'Postal Code', false, true, 18],
    ['ES', 'Spain', 'Province', 'Postal Code', false, true, 52],
    ['NL', 'Netherlands', 'Province', 'Postal Code', false, true, 12],
    ['NO', 'Norway', 'County', 'Postal Code', false, true, 15],
    ['SE', 'Sweden', 'County', 'Postal Code', false, true, 21],
  ])('%s: %s, %s, %s', (country, name, regionLabel, postalLabel, regionRequired, postalRequired, regionCount) => {
    const form = addressFormFor(country);
    expect(form).toMatchObject({ countryName: name, regionLabel, postalLabel, regionRequired, postalRequired });
    expect(form.regions).toHaveLength(regionCount);
  });

  it('lists regions as code and name in the dictionary order', () => {
    expect(addressFormFor('US').regions.slice(0, 2)).toEqual([
      { code: 'AL', name: 'Alabama' },
      { code: 'AK', name: 'Alaska' },
    ]);
    expect(addressFormFor('US').regions).toContainEqual({ code: 'AE', name: 'Armed Forces Europe' });
    expect(addressFormFor('GB').regions.map((r) => r.name)).toEqual([
      'England',
      'Northern Ireland',
      'Scotland',
      'Wales',
    ]);
  });

  it('reads the code in any case and with spaces', () => {
    expect(addressFormFor(' ca ').countryName).toBe('Canada');
  });

  it.each(['', 'XX', 'usa', 'constructor', 'x'.repeat(100_000)])('gives the generic form for %j', (country) => {
    expect(addressFormFor(country)).toEqual({
      countryName: '',
      regionLabel: 'State/Province/Region',
      postalLabel: 'ZIP/Postal code',
      regions: [],
      regionRequired: false,
      postalRequired: false,
    });
  });

  it('never hands out a shared list', () => {
    addressFormFor('XX').regions.push({ code: 'X', name: 'X' });
    addressFormFor('US').regions.pop();
    expect(GENERIC_ADDRESS_FORM.regions).toEqual([]);
    expect(addressFormFor('US').regions).toHaveLength(59);
  });
});

describe('checkShippingAddress: a good address', () => {
  it('is accepted as sent', () => {
    expect(checkShippingAddress(brooklyn, ['US'])).toEqual({ ok: true, value: brooklyn });
  });

  it('is trimmed and normalised', () => {
    expect(
      valueOf({
        firstName: '  Ada ',
        lastName: 'Lovelace\n',
        address1: ' 12   Main\tSt ',
        city: 'Brooklyn',
        country: ' us ',
        region: 'us-ny',
        postalCode: ' 11201-0001 ',
        extra: 'ignored',
      }),
    ).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '12 Main St',
      address2: '',
      city: 'Brooklyn',
      country: 'US',
      region: 'NY',
      postalCode: '11201-0001',
      phone: '',
    });
  });

  it.each<[string, string, string, string, string]>([
    ['CA', 'on', 'k1a0b1', 'ON', 'K1A 0B1'],
    ['AU', 'nsw', '2000', 'NSW', '2000'],
    ['NZ', '', '6011', '', '6011'],
    ['NZ', 'wgn', '6011', 'WGN', '6011'],
    ['IE', '', '', '', ''],
    ['IE', 'd', 'd02x285', 'D', 'D02 X285'],
    ['GB', '', 'sw1a1aa', '', 'SW1A 1AA'],
    ['GB', 'SCT', 'EH1 1YZ', 'SCT', 'EH1 1YZ'],
    ['DE', 'BE', '10115', 'BE', '10115'],
    ['FR', '', '75001', '', '75001'],
    ['ES', 'm', '28013', 'M', '28013'],
    ['NL', '', '1234ab', '', '1234 AB'],
    ['NO', '03', '0150', '03', '0150'],
    ['SE', 'ab', '11122', 'AB', '111 22'],
  ])('%s region %j postal %j → %j %j', (country, region, postalCode, wantRegion, wantPostal) => {
    const value = valueOf({ ...brooklyn, country, region, postalCode });
    expect([value.country, value.region, value.postalCode]).toEqual([country, wantRegion, wantPostal]);
  });

  it('reads numbers sent for text fields as their digits', () => {
    expect(valueOf({ ...brooklyn, country: 'DE', region: '', postalCode: 10115 }).postalCode).toBe('10115');
  });
});

describe('checkShippingAddress: required fields', () => {
  it.each(['firstName', 'lastName', 'address1', 'city'] as const)('%s empty or blank → Required', (field) => {
    expect(errorsOf({ ...brooklyn, [field]: '' })).toEqual({ [field]: 'Required' });
    expect(errorsOf({ ...brooklyn, [field]: ' \n\t ' })).toEqual({ [field]: 'Required' });
  });

  it('address2 and phone are optional', () => {
    expect(valueOf({ ...brooklyn, address2: undefined, phone: '' })).toMatchObject({ address2: '', phone: '' });
  });

  it('postal code is required where the post needs it', () => {
    expect(errorsOf({ ...brooklyn, postalCode: '' })).toEqual({ postalCode: 'Required' });
    expect(errorsOf({ ...brooklyn, country: 'GB', region: '', postalCode: ' ' })).toEqual({ postalCode: 'Required' });
  });

  it.each([null, undefined, 42, 'a string', [], true])('%j as the whole input names every required field', (input) => {
    expect(errorsOf(input)).toEqual({
      firstName: 'Required',
      lastName: 'Required',
      address1: 'Required',
      city: 'Required',
      country: 'Choose a country.',
    });
  });

  it('uses the spec’s text for a required field', () => {
    expect(ADDRESS_MESSAGES.required).toBe('Required');
  });
});

describe('checkShippingAddress: country', () => {
  it.each(['', 'XX', 'usa', 'constructor', 'x'.repeat(10_000)])('%j → Choose a country.', (country) => {
    expect(errorsOf({ ...brooklyn, country })).toEqual({ country: 'Choose a country.' });
  });

  it('refuses a country the store does not ship to, by name', () => {
    expect(errorsOf({ ...brooklyn, country: 'CA', region: 'ON', postalCode: 'K1A 0B1' }, ['US'])).toEqual({
      country: 'We do not ship to Canada.',
    });
    expect(errorsOf(brooklyn, [])).toEqual({ country: 'We do not ship to United States.' });
    expect(errorsOf(brooklyn, ['GB', 'IE'])).toEqual({ country: 'We do not ship to United States.' });
  });

  it('reads shipsTo in any case and survives a list that is not one', () => {
    expect(checkShippingAddress(brooklyn, [' us ']).ok).toBe(true);
    expect(errorsOf(brooklyn, 'US' as unknown as string[])).toEqual({ country: 'We do not ship to United States.' });
    expect(errorsOf(brooklyn, [42, null] as unknown as string[])).toEqual({
      country: 'We do not ship to United States.',
    });
  });

  it('leaves region and postal code unchecked until there is a country to ship to', () => {
    expect(errorsOf({ ...brooklyn, region: 'nowhere', postalCode: 'x' }, ['GB'])).toEqual({
      country: 'We do not ship to United States.',
    });
    expect(errorsOf({ ...brooklyn, country: '', region: '', postalCode: '' })).toEqual({
      country: 'Choose a country.',
    });
  });
});

describe('checkShippingAddress: region', () => {
  it.each<[string, string]>([
    ['US', 'Choose a state.'],
    ['CA', 'Choose a province/territory.'],
    ['AU', 'Choose a state/territory.'],
  ])('%s must have one: %s', (country, message) => {
    expect(errorsOf({ ...brooklyn, country, region: '', postalCode: '' })).toMatchObject({ region: message });
  });

  it.each(['NZ', 'IE', 'GB', 'DE', 'FR', 'ES', 'NL', 'NO', 'SE'])('%s may leave it out', (country) => {
    expect(errorsOf({ ...brooklyn, country, region: '', postalCode: '' }).region).toBeUndefined();
  });

  it.each<[string, string, string]>([
    ['US', 'ZZ', 'Choose a state.'],
    ['US', 'New York', 'Choose a state.'],
    ['US', 'CA-ON', 'Choose a state.'],
    ['US', 'constructor', 'Choose a state.'],
    ['US', 'x'.repeat(100_000), 'Choose a state.'],
    ['CA', 'NY', 'Choose a province/territory.'],
    ['AU', 'WAX', 'Choose a state/territory.'],
    ['NZ', 'XX', 'Choose a region.'],
    ['IE', 'DUB', 'Choose a county.'],
    ['GB', 'KENT', 'Choose a county.'],
    ['DE', 'BAV', 'Choose a state.'],
    ['FR', 'PAR', 'Choose a region.'],
    ['ES', 'XX', 'Choose a province.'],
    ['NL', 'XX', 'Choose a province.'],
    ['NO', '99', 'Choose a county.'],
    ['SE', 'XX', 'Choose a county.'],
  ])('%s %j is not in the list: %s', (country, region, message) => {
    expect(errorsOf({ ...brooklyn, country, region, postalCode: '' })).toMatchObject({ region: message });
  });
});

describe('checkShippingAddress: postal code', () => {
  it.each<[string, string, string, string]>([
    ['US', 'NY', '1120', 'ZIP Codes need to be 5 digits.'],
    ['AU', 'NSW', '200', 'Postcodes need to be 4 digits'],
    ['NZ', '', '60111', 'Postcodes need to be 4 digits'],
    ['DE', '', '1011', 'Postal Codes need to be 5 digits'],
    ['FR', '', '7500', 'Postal Codes need to be 5 digits'],
    ['ES', '', '280', 'Postal Codes need to be 5 digits'],
    ['NO', '', '01500', 'Postal Codes need to be 4 digits'],
    ['CA', 'ON', 'K1A', 'Invalid postal code.'],
    ['GB', '', 'SW1A', 'Invalid postal code.'],
    ['IE', '', 'D02', 'Invalid postal code.'],
    ['NL', '', '1234', 'Invalid postal code.'],
    ['SE', '', '1234', 'Invalid postal code.'],
  ])('%s %j → %s', (country, region, postalCode, message) => {
    expect(errorsOf({ ...brooklyn, country, region, postalCode })).toEqual({ postalCode: message });
  });

  it('is at most 16 characters', () => {
    expect(errorsOf({ ...brooklyn, postalCode: '1'.repeat(17) })).toEqual({
      postalCode: 'Must be 16 characters or fewer.',
    });
    expect(errorsOf({ ...brooklyn, country: 'IE', region: '', postalCode: 'x'.repeat(1_000_000) })).toEqual({
      postalCode: 'Must be 16 characters or fewer.',
    });
  });
});

describe('checkShippingAddress: lengths', () => {
  it.each<[keyof ShippingAddress, number]>([
    ['firstName', 100],
    ['lastName', 100],
    ['address1', 200],
    ['address2', 200],
    ['city', 100],
  ])('%s takes %i characters, not one more', (field, max) => {
    expect(checkShippingAddress({ ...brooklyn, [field]: 'a'.repeat(max) }, ALL).ok).toBe(true);
    expect(checkShippingAddress({ ...brooklyn, [field]: '😀'.repeat(max) }, ALL).ok).toBe(true);
    expect(errorsOf({ ...brooklyn, [field]: 'a'.repeat(max + 1) })).toEqual({
      [field]: `Must be ${max} characters or fewer.`,
    });
  });

  it('refuses huge fields quickly, without throwing', () => {
    const huge = 'x'.repeat(2_000_000);
    const started = Date.now();
    const everyField = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, huge]));
    expect(errorsOf(everyField)).toEqual({
      firstName: 'Must be 100 characters or fewer.',
      lastName: 'Must be 100 characters or fewer.',
      address1: 'Must be 200 characters or fewer.',
      address2: 'Must be 200 characters or fewer.',
      city: 'Must be 100 characters or fewer.',
      postalCode: 'Must be 16 characters or fewer.',
      country: 'Choose a country.',
      phone: 'Invalid phone number. Use 6 to 20 digits, spaces or + - ( ).',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('checkShippingAddress: phone', () => {
  it.each(['555123', '+1 (555) 123-4567', '+44 20 7946 0958', '0'.repeat(20), '(02) 9999-9999'])(
    '%j is a phone number',
    (phone) => {
      expect(valueOf({ ...brooklyn, phone }).phone).toBe(phone);
    },
  );

  it.each([
    '55512',
    '0'.repeat(21),
    'call me',
    '555-123-4567 ext 2',
    '+1.555.123.4567',
    '------',
    '(((( ))))',
    '12 -- 34',
  ])('%j is not: Invalid phone number. Use 6 to 20 digits, spaces or + - ( ).', (phone) => {
    expect(errorsOf({ ...brooklyn, phone })).toEqual({
      phone: 'Invalid phone number. Use 6 to 20 digits, spaces or + - ( ).',
    });
  });
});

describe('checkShippingAddress: every wrong field at once', () => {
  it('names each with its message', () => {
    expect(
      errorsOf({
        firstName: '',
        lastName: 7,
        address1: {},
        city: [],
        country: 'AU',
        region: 'XX',
        postalCode: '12',
        phone: 'x',
      }),
    ).toEqual({
      firstName: 'Required',
      address1: 'Required',
      city: 'Required',
      region: 'Choose a state/territory.',
      postalCode: 'Postcodes need to be 4 digits',
      phone: 'Invalid phone number. Use 6 to 20 digits, spaces or + - ( ).',
    });
  });
});

describe('formatAddressLines', () => {
  const address = (overrides: Partial<ShippingAddress>): ShippingAddress => ({
    ...brooklyn,
    address2: '',
    phone: '',
    ...overrides,
  });

  it.each<[string, Partial<ShippingAddress>, string[]]>([
    ['US', {}, ['Ada Lovelace', '12 Main St', 'Brooklyn, NY 11201', 'United States']],
    [
      'CA',
      { country: 'CA', city: 'Ottawa', region: 'ON', postalCode: 'K1A 0B1' },
      ['Ada Lovelace', '12 Main St', 'Ottawa, ON K1A 0B1', 'Canada'],
    ],
    [
      'AU',
      { country: 'AU', city: 'Sydney', region: 'NSW', postalCode: '2000' },
      ['Ada Lovelace', '12 Main St', 'Sydney NSW 2000', 'Australia'],
    ],
    [
      'NZ',
      { country: 'NZ', city: 'Wellington', region: 'WGN', postalCode: '6011' },
      ['Ada Lovelace', '12 Main St', 'Wellington 6011', 'New Zealand'],
    ],
    [
      'GB',
      { country: 'GB', city: 'London', region: 'ENG', postalCode: 'SW1A 1AA' },
      ['Ada Lovelace', '12 Main St', 'London', 'SW1A 1AA', 'United Kingdom'],
    ],
    [
      'IE',
      { country: 'IE', city: 'Dublin 2', region: 'D', postalCode: 'D02 X285' },
      ['Ada Lovelace', '12 Main St', 'Dublin 2', 'Co. Dublin', 'D02 X285', 'Ireland'],
    ],
    [
      'IE without county or Eircode',
      { country: 'IE', city: 'Cork', region: '', postalCode: '' },
      ['Ada Lovelace', '12 Main St', 'Cork', 'Ireland'],
    ],
    [
      'DE',
      { country: 'DE', city: 'Berlin', region: 'BE', postalCode: '10115' },
      ['Ada Lovelace', '12 Main St', '10115 Berlin', 'Germany'],
    ],
    [
      'FR',
      { country: 'FR', city: 'Paris', region: '', postalCode: '75001' },
      ['Ada Lovelace', '12 Main St', '75001 Paris', 'France'],
    ],
    [
      'ES',
      { country: 'ES', city: 'Madrid', region: 'M', postalCode: '28013' },
      ['Ada Lovelace', '12 Main St', '28013 Madrid', 'Spain'],
    ],
    [
      'NL',
      { country: 'NL', city: 'Amsterdam', region: '', postalCode: '1012 AB' },
      ['Ada Lovelace', '12 Main St', '1012 AB Amsterdam', 'Netherlands'],
    ],
    [
      'NO',
      { country: 'NO', city: 'Oslo', region: '03', postalCode: '0150' },
      ['Ada Lovelace', '12 Main St', '0150 Oslo', 'Norway'],
    ],
    [
      'SE',
      { country: 'SE', city: 'Stockholm', region: 'AB', postalCode: '111 22' },
      ['Ada Lovelace', '12 Main St', '111 22 Stockholm', 'Sweden'],
    ],
    [
      'a country outside the dictionary',
      { country: 'JP', city: 'Tokyo', region: '13', postalCode: '100-0001' },
      ['Ada Lovelace', '12 Main St', 'Tokyo 13 100-0001', 'JP'],
    ],
  ])('%s', (_name, overrides, lines) => expect(formatAddressLines(address(overrides))).toEqual(lines));

  it('adds address 2 and the phone when given', () => {
    expect(formatAddressLines(brooklyn as ShippingAddress)).toEqual([
      'Ada Lovelace',
      '12 Main St',
      'Apt 4',
      'Brooklyn, NY 11201',
      'United States',
      '+1 (555) 123-4567',
    ]);
  });

  it('leaves out what is empty or missing', () => {
    expect(formatAddressLines(address({ firstName: '', region: '', postalCode: '' }))).toEqual([
      'Lovelace',
      '12 Main St',
      'Brooklyn',
      'United States',
    ]);
    expect(formatAddressLines(address({ city: '', region: '' }))).toEqual([
      'Ada Lovelace',
      '12 Main St',
      '11201',
      'United States',
    ]);
    const stored = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '1 Rue',
      city: 'Paris',
      country: 'FR',
      postalCode: '75001',
    } as ShippingAddress;
    expect(formatAddressLines(stored)).toEqual(['Ada Lovelace', '1 Rue', '75001 Paris', 'France']);
  });

  it('prints what checkShippingAddress accepted', () => {
    expect(
      formatAddressLines(valueOf({ ...brooklyn, country: 'ca', region: 'qc', postalCode: 'h2x1y4', city: 'Montréal' })),
    ).toEqual(['Ada Lovelace', '12 Main St', 'Apt 4', 'Montréal, QC H2X 1Y4', 'Canada', '+1 (555) 123-4567']);
  });
});
