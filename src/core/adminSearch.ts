/**
 * The owner's area's searches by a part of a text (issue 25: orders by e-mail or name, the inventory by product name
 * or SKU, the customers by e-mail or name), served by a trigram index on each engine (migration 027): what a search
 * looks for. Each word of 3 characters or more must be in one of the texts searched ('ada lovelace': both words, in
 * either order); a search with a shorter word is looked for whole ('jo li'); a search of fewer than 3 characters in
 * all finds nothing (a trigram index needs 3), and the page says so.
 */

/** The fewest characters a search by a part of a text looks for. */
export const SEARCH_MIN_CHARACTERS = 3;

/** Said where a search is too short to look for. */
export const SEARCH_TOO_SHORT = `Type at least ${SEARCH_MIN_CHARACTERS} characters to search.`;

/** What a search looks for, lower-cased: each a part of a text; null when it is too short to look for. */
export function searchTerms(q: string): string[] | null {
  const text = q.trim().replace(/\s+/g, ' ').toLowerCase();
  if ([...text].length < SEARCH_MIN_CHARACTERS) return null;
  const words = text.split(' ');
  return words.every((w) => [...w].length >= SEARCH_MIN_CHARACTERS) ? [...new Set(words)] : [text];
}
