/** What a product has before its owner says otherwise (the site file schema's defaults, for the editor). */
export const DEFAULT_SCARCITY_TEXT = 'Only {qty} left in stock';
export const DEFAULT_SCARCITY_THRESHOLD = 3;
