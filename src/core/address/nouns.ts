/** Address terms and region nouns of spec §3. Title case: they are field labels and column headings. */

export const ADDRESS_TERMS = {
  address: 'Address',
  address2: 'Address 2',
} as const;

export interface Noun {
  singular: string;
  plural: string;
}

export const REGION_NOUNS = {
  state: { singular: 'State', plural: 'States' },
  province: { singular: 'Province', plural: 'Provinces' },
  county: { singular: 'County', plural: 'Counties' },
  region: { singular: 'Region', plural: 'Regions' },
  postcode: { singular: 'Postcode', plural: 'Postcodes' },
  zipCode: { singular: 'ZIP Code', plural: 'ZIP Codes' },
  postalCode: { singular: 'Postal Code', plural: 'Postal Codes' },
  fsa: { singular: 'FSA', plural: 'FSAs' },
  eircode: { singular: 'Eircode', plural: 'Eircodes' },
  city: { singular: 'City', plural: 'Cities' },
  stateTerritory: { singular: 'State/Territory', plural: 'States/Territories' },
  provinceTerritory: { singular: 'Province/Territory', plural: 'Provinces/Territories' },
} as const satisfies Record<string, Noun>;

export type RegionNounKey = keyof typeof REGION_NOUNS;

/** Singular for one, plural otherwise ('0 States', '1 State', '2 States'). */
export const regionNoun = (key: RegionNounKey, count = 1): string =>
  count === 1 ? REGION_NOUNS[key].singular : REGION_NOUNS[key].plural;
