/** The address dictionary of spec §3 and the address hints of §5. */
export * from './address/nouns';
export * from './address/regions';
export * from './address/countries';
export * from './address/hints';
