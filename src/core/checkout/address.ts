/**
 * The checkout's shipping address: the form per country (labels and region list from the address dictionary of
 * spec §3), the server's and the browser's check of what was typed, and the lines printed on the confirmation
 * page and in e-mails.
 */
import { COUNTRY_ADDRESS_FORMATS, isAddressCountry, regionName, type AddressCountry } from '../address/countries';
import { FIELD_MESSAGES } from '../forms/validation';
import { err, ok, type Result } from '../result';
import { checkPostalCode } from './postalCode';
import { longerThan, readText } from './readText';
import { ADDRESS_FIELDS, type AddressField, type ShippingAddress } from './types';

export const COUNTRY_NAMES: Readonly<Record<AddressCountry, string>> = {
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
};

/** The English name of a dictionary country ('US' → 'United States'), or undefined for any other code. */
export const countryName = (code: string): string | undefined =>
  isAddressCountry(code) ? COUNTRY_NAMES[code] : undefined;

export interface AddressForm {
  /** '' for a country outside the dictionary. */
  countryName: string;
  regionLabel: string;
  postalLabel: string;
  /** The region select's options, in the dictionary's order; [] shows no region field. */
  regions: { code: string; name: string }[];
  regionRequired: boolean;
  postalRequired: boolean;
}

/**
 * Where the post needs the region on the parcel (a state or province code beside the postcode). Elsewhere the
 * postcode already places the address, and the region list is there for the merchant's tax and shipping regions.
 */
const REGION_REQUIRED: ReadonlySet<string> = new Set<AddressCountry>(['US', 'CA', 'AU']);
/** Ireland has had Eircodes only since 2015; many shoppers do not know theirs, and An Post delivers without one. */
const POSTAL_OPTIONAL: ReadonlySet<string> = new Set<AddressCountry>(['IE']);

/** Labels for a country outside the dictionary, wide enough for any address. */
export const GENERIC_ADDRESS_FORM: Readonly<AddressForm> = {
  countryName: '',
  regionLabel: 'State/Province/Region',
  postalLabel: 'ZIP/Postal code',
  regions: [],
  regionRequired: false,
  postalRequired: false,
};

const normalizeCountry = (country: unknown): string =>
  typeof country === 'string' ? country.trim().toUpperCase() : '';

/** The address form for a country code (any case); a generic form for a country outside the dictionary. */
export const addressFormFor = (country: string): AddressForm => {
  const code = normalizeCountry(country);
  if (!isAddressCountry(code)) return { ...GENERIC_ADDRESS_FORM, regions: [] };
  const format = COUNTRY_ADDRESS_FORMATS[code];
  return {
    countryName: COUNTRY_NAMES[code],
    regionLabel: format.regionNoun.singular,
    postalLabel: format.postalNoun.singular,
    regions: Object.entries(format.regions).map(([regionCode, name]) => ({ code: regionCode, name })),
    regionRequired: REGION_REQUIRED.has(code),
    postalRequired: !POSTAL_OPTIONAL.has(code),
  };
};

export const ADDRESS_MAX_LENGTHS = {
  firstName: 100,
  lastName: 100,
  address1: 200,
  address2: 200,
  city: 100,
  postalCode: 16,
} as const satisfies Partial<Record<AddressField, number>>;

const REQUIRED_FIELDS = ['firstName', 'lastName', 'address1', 'city'] as const satisfies readonly AddressField[];

export const ADDRESS_MESSAGES = {
  /** The spec's text for an empty required field (§5). */
  required: FIELD_MESSAGES.required,
  chooseCountry: 'Choose a country.',
  invalidPhone: 'Invalid phone number. Use 6 to 20 digits, spaces or + - ( ).',
} as const;

/** 'We do not ship to Canada.' */
export const notShippedToMessage = (country: AddressCountry): string => `We do not ship to ${COUNTRY_NAMES[country]}.`;
/** 'Choose a state.', 'Choose a province/territory.' — the country's region noun. */
export const chooseRegionMessage = (regionNoun: string): string => `Choose a ${regionNoun.toLowerCase()}.`;
/** 'Must be 100 characters or fewer.' */
export const tooLongMessage = (max: number): string => `Must be ${max} characters or fewer.`;

export type AddressErrors = Partial<Record<AddressField, string>>;

// Digits, spaces and + - ( ) only; at least 6 digits, so a string of dashes is not a number.
const PHONE_PATTERN = /^[\d +()-]{6,20}$/;
const isPhone = (phone: string): boolean => PHONE_PATTERN.test(phone) && phone.replace(/\D/g, '').length >= 6;

const checkCountry = (value: string, shipsTo: readonly string[]): Result<AddressCountry, string> => {
  const code = value.toUpperCase();
  if (!isAddressCountry(code)) return err(ADDRESS_MESSAGES.chooseCountry);
  const shipped = Array.isArray(shipsTo) && shipsTo.some((c) => normalizeCountry(c) === code);
  return shipped ? ok(code) : err(notShippedToMessage(code));
};

/** The list's code for what was sent: 'ny', 'NY' and the ISO form 'US-NY' are all 'NY'; null when not in the list. */
const regionCode = (country: AddressCountry, value: string): string | null => {
  const upper = value.toUpperCase();
  const key = upper.startsWith(`${country}-`) ? upper.slice(country.length + 1) : upper;
  return Object.hasOwn(COUNTRY_ADDRESS_FORMATS[country].regions, key) ? key : null;
};

/** A code of the country's region list; '' only where the region may be left out. */
const checkRegion = (country: AddressCountry, value: string): Result<string, string> => {
  const message = chooseRegionMessage(COUNTRY_ADDRESS_FORMATS[country].regionNoun.singular);
  if (value === '') return REGION_REQUIRED.has(country) ? err(message) : ok('');
  const code = regionCode(country, value);
  return code === null ? err(message) : ok(code);
};

/** A full postal code of the country in its printed form; '' only where it may be left out. */
const checkPostal = (country: AddressCountry, value: string): Result<string, string> => {
  if (value === '') return POSTAL_OPTIONAL.has(country) ? ok('') : err(ADDRESS_MESSAGES.required);
  return checkPostalCode(country, value);
};

/**
 * Checks a posted shipping address against the countries the store ships to. Every field is trimmed; the ok value
 * is normalised (country and region codes in upper case, the postal code as the post prints it). The error names
 * every field that is wrong, with the message the form shows beside it.
 */
export const checkShippingAddress = (
  input: unknown,
  shipsTo: readonly string[],
): Result<ShippingAddress, AddressErrors> => {
  const address = Object.fromEntries(
    ADDRESS_FIELDS.map((field) => [field, readText(input, field)]),
  ) as unknown as ShippingAddress;
  const errors: AddressErrors = {};
  const take = (field: AddressField, checked: Result<string, string>) => {
    if (checked.ok) address[field] = checked.value;
    else errors[field] = checked.error;
  };
  for (const field of REQUIRED_FIELDS) if (address[field] === '') errors[field] = ADDRESS_MESSAGES.required;
  for (const [field, max] of Object.entries(ADDRESS_MAX_LENGTHS) as [keyof typeof ADDRESS_MAX_LENGTHS, number][]) {
    if (longerThan(address[field], max)) errors[field] = tooLongMessage(max);
  }

  const country = checkCountry(address.country, shipsTo);
  take('country', country);
  // Region and postal code are read by the country's rules: they wait until there is a country to ship to.
  if (country.ok) {
    take('region', checkRegion(country.value, address.region));
    if (errors.postalCode === undefined) take('postalCode', checkPostal(country.value, address.postalCode));
  }

  if (address.phone !== '' && !isPhone(address.phone)) errors.phone = ADDRESS_MESSAGES.invalidPhone;
  return Object.keys(errors).length > 0 ? err(errors) : ok(address);
};

// Parts are tested for truth, not for '': an address stored before a field existed may lack it.
const joinParts = (separator: string, ...parts: string[]): string => parts.filter(Boolean).join(separator);

/** The town line(s) as each country's post writes them. */
const localityLines = (a: ShippingAddress): string[] => {
  switch (a.country) {
    case 'US':
    case 'CA':
      return [joinParts(', ', a.city, joinParts(' ', a.region, a.postalCode))];
    case 'AU':
      return [joinParts(' ', a.city, a.region, a.postalCode)];
    case 'NZ':
      return [joinParts(' ', a.city, a.postalCode)];
    case 'GB':
      return [a.city, a.postalCode];
    case 'IE': {
      const county = regionName('IE', a.region);
      return [a.city, county === null ? '' : `Co. ${county}`, a.postalCode];
    }
    case 'DE':
    case 'FR':
    case 'ES':
    case 'NL':
    case 'NO':
    case 'SE':
      return [joinParts(' ', a.postalCode, a.city)];
    default:
      return [joinParts(' ', a.city, a.region, a.postalCode)];
  }
};

/**
 * The address as printed lines for the confirmation page and e-mails: name, street lines, the town line in the
 * country's style ('Brooklyn, NY 11201', '10115 Berlin'), the country's name, the phone when given.
 */
export const formatAddressLines = (a: ShippingAddress): string[] => {
  const name = joinParts(' ', a.firstName, a.lastName);
  const country = countryName(a.country) ?? a.country;
  return [name, a.address1, a.address2, ...localityLines(a), country, a.phone].filter(Boolean);
};
