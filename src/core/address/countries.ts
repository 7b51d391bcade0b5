/** Per-country address labels and region tables of spec §3. */
import { REGION_NOUNS, type Noun } from './nouns';
import {
  AUSTRALIA_STATES,
  CANADA_PROVINCES,
  FRANCE_REGIONS,
  GERMANY_STATES,
  IRELAND_COUNTIES,
  NETHERLANDS_PROVINCES,
  NEW_ZEALAND_REGIONS,
  NORWAY_COUNTIES,
  SPAIN_PROVINCES,
  SWEDEN_COUNTIES,
  UNITED_KINGDOM_REGIONS,
  US_STATES,
} from './regions';

export const ADDRESS_COUNTRIES = ['US', 'CA', 'AU', 'NZ', 'IE', 'GB', 'DE', 'FR', 'ES', 'NL', 'NO', 'SE'] as const;
export type AddressCountry = (typeof ADDRESS_COUNTRIES)[number];

export interface CountryAddressFormat {
  /** Label of the region field and heading of the region list. */
  regionNoun: Noun;
  /** Label of the postal code field. */
  postalNoun: Noun;
  regions: Readonly<Record<string, string>>;
}

export const COUNTRY_ADDRESS_FORMATS: Readonly<Record<AddressCountry, CountryAddressFormat>> = {
  US: { regionNoun: REGION_NOUNS.state, postalNoun: REGION_NOUNS.zipCode, regions: US_STATES },
  CA: { regionNoun: REGION_NOUNS.provinceTerritory, postalNoun: REGION_NOUNS.postalCode, regions: CANADA_PROVINCES },
  AU: { regionNoun: REGION_NOUNS.stateTerritory, postalNoun: REGION_NOUNS.postcode, regions: AUSTRALIA_STATES },
  NZ: { regionNoun: REGION_NOUNS.region, postalNoun: REGION_NOUNS.postcode, regions: NEW_ZEALAND_REGIONS },
  IE: { regionNoun: REGION_NOUNS.county, postalNoun: REGION_NOUNS.eircode, regions: IRELAND_COUNTIES },
  // The optional UK address line is a county; the region list holds the nations (see regions.ts).
  GB: { regionNoun: REGION_NOUNS.county, postalNoun: REGION_NOUNS.postcode, regions: UNITED_KINGDOM_REGIONS },
  DE: { regionNoun: REGION_NOUNS.state, postalNoun: REGION_NOUNS.postalCode, regions: GERMANY_STATES },
  FR: { regionNoun: REGION_NOUNS.region, postalNoun: REGION_NOUNS.postalCode, regions: FRANCE_REGIONS },
  ES: { regionNoun: REGION_NOUNS.province, postalNoun: REGION_NOUNS.postalCode, regions: SPAIN_PROVINCES },
  NL: { regionNoun: REGION_NOUNS.province, postalNoun: REGION_NOUNS.postalCode, regions: NETHERLANDS_PROVINCES },
  NO: { regionNoun: REGION_NOUNS.county, postalNoun: REGION_NOUNS.postalCode, regions: NORWAY_COUNTIES },
  SE: { regionNoun: REGION_NOUNS.county, postalNoun: REGION_NOUNS.postalCode, regions: SWEDEN_COUNTIES },
};

export const isAddressCountry = (value: unknown): value is AddressCountry =>
  typeof value === 'string' && (ADDRESS_COUNTRIES as readonly string[]).includes(value);

/** Format for a country code (case-insensitive), or null for countries the dictionary does not cover. */
export const countryAddressFormat = (country: unknown): CountryAddressFormat | null => {
  const code = typeof country === 'string' ? country.trim().toUpperCase() : '';
  return isAddressCountry(code) ? COUNTRY_ADDRESS_FORMATS[code] : null;
};

/**
 * Name of a region, e.g. ('US', 'NY') → 'New York'. Accepts the ISO form 'US-NY' too.
 * Unknown → null, so the caller can show what the shopper typed instead.
 */
export const regionName = (country: unknown, code: unknown): string | null => {
  const format = countryAddressFormat(country);
  if (!format || typeof code !== 'string') return null;
  const upper = code.trim().toUpperCase();
  const key = upper.startsWith(`${String(country).trim().toUpperCase()}-`) ? upper.slice(3) : upper;
  return Object.hasOwn(format.regions, key) ? (format.regions[key] ?? null) : null;
};
