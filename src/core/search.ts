/**
 * Site search rules (the /search page, page type 102): what a query's words are, how text is reduced to the words
 * the index holds, which words of a result are marked, the snippet shown, and the page number. No I/O.
 *
 * Words are runs of letters and digits, compared without case and without accents ('Café' is 'cafe'), and each
 * word of the query matches the words that start with it ('mug' finds 'mugs'). The same reduction feeds both
 * engines' indexes (SQLite FTS5, PostgreSQL tsvector with the 'simple' configuration) and the highlighting, so what
 * is found is what is marked, on either engine. A query is never passed to a full-text parser as typed: quotes,
 * `*`, `NEAR(`, `-`, `:` and the like are separators here, like spaces.
 */

/** Longest query accepted (characters); a longer one is refused with SEARCH_MESSAGES.tooLong. */
export const SEARCH_QUERY_MAX_LENGTH = 200;
/** Words of a query searched; later ones are left out (the page says so). */
export const SEARCH_MAX_TERMS = 8;
/** A longer word is searched by its first this many characters (it still finds the word: words match by prefix). */
export const SEARCH_TERM_MAX_LENGTH = 40;
/** Results per page. */
export const SEARCH_PAGE_SIZE = 10;
/** Matches counted at most; beyond it the total is "more than" this (ten pages of results). */
export const SEARCH_COUNT_CAP = 100;
/** Highest page number accepted. */
export const SEARCH_MAX_PAGE = 100;
/** Longest snippet shown under a result (characters, ellipses included). */
export const SEARCH_SNIPPET_LENGTH = 240;

export const SEARCH_MESSAGES = {
  label: 'Search',
  tooLong: `Your search is too long: use at most ${SEARCH_QUERY_MAX_LENGTH} characters.`,
  badPage: `The page number must be a whole number from 1 to ${SEARCH_MAX_PAGE}.`,
  noWords: 'Type a word to search for: letters or digits.',
  termsDropped: `Only the first ${SEARCH_MAX_TERMS} words were searched.`,
} as const;

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}/gu;

/** Text without case and accents: 'Crème Brûlée' → 'creme brulee' (compatibility forms too: 'ﬁ' → 'fi'). */
export const foldText = (text: string): string => text.normalize('NFKD').replace(MARKS, '').toLowerCase();

/** The words of a text as the index holds them (folded). */
export const searchWords = (text: string): string[] => foldText(text).match(WORD) ?? [];

/** A text as one index column: its folded words, separated by spaces. */
export const indexText = (text: string): string => searchWords(text).join(' ');

export type SearchQuery =
  { ok: true; text: string; terms: string[]; termsDropped: boolean } | { ok: false; text: string; message: string };

/**
 * A typed query as the words to search (folded, each once, at most SEARCH_MAX_TERMS, each cut to
 * SEARCH_TERM_MAX_LENGTH). `text` is the query as shown back (trimmed). An empty `terms` with `ok` is a query with
 * no word in it (empty, or only punctuation).
 */
export function parseSearchQuery(raw: string | null | undefined): SearchQuery {
  const text = (raw ?? '').trim();
  const chars = Array.from(text);
  // Refused, and shown back cut to the length accepted, so it can be shortened rather than typed again.
  if (chars.length > SEARCH_QUERY_MAX_LENGTH)
    return { ok: false, text: chars.slice(0, SEARCH_QUERY_MAX_LENGTH).join(''), message: SEARCH_MESSAGES.tooLong };
  const unique = [...new Set(searchWords(text).map((w) => Array.from(w).slice(0, SEARCH_TERM_MAX_LENGTH).join('')))];
  return { ok: true, text, terms: unique.slice(0, SEARCH_MAX_TERMS), termsDropped: unique.length > SEARCH_MAX_TERMS };
}

/** The `page` parameter: absent or empty is 1; anything but a whole number from 1 to SEARCH_MAX_PAGE is refused. */
export function parseSearchPage(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw === '') return 1;
  if (!/^[0-9]{1,4}$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= SEARCH_MAX_PAGE ? page : null;
}

/** Pages needed for `total` results (at least 1). */
export const searchPageCount = (total: number): number => Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));

/** A piece of shown text: `match` pieces are words the query found (shown in <mark>). */
export interface TextPiece {
  text: string;
  match: boolean;
}

/** Whether a word of shown text is one the terms find (one of its folded parts starts with a term). */
const wordMatches = (word: string, terms: readonly string[]): boolean =>
  searchWords(word).some((part) => terms.some((term) => part.startsWith(term)));

/** Splits text into pieces, the words the terms find marked. Joined back, the pieces are the text unchanged. */
export function highlight(text: string, terms: readonly string[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  const push = (piece: string, match: boolean) => {
    if (piece === '') return;
    const last = pieces[pieces.length - 1];
    if (last && last.match === match && !match) last.text += piece;
    else pieces.push({ text: piece, match });
  };
  let at = 0;
  // Words of the shown text, by the same rule as the index (before folding: 'Café' is one word).
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    push(text.slice(at, m.index), false);
    push(m[0], terms.length > 0 && wordMatches(m[0], terms));
    at = m.index + m[0].length;
  }
  push(text.slice(at), false);
  return pieces;
}

/** Whether any word of the text is found by the terms. */
export const textMatches = (text: string, terms: readonly string[]): boolean =>
  highlight(text, terms).some((p) => p.match);

/**
 * The part of a text to show under a result: whitespace collapsed, at most `maxLength` characters, starting a
 * little before the first word the terms find (with '…' where text was cut), or the start of the text.
 */
export function searchSnippet(
  text: string,
  terms: readonly string[],
  maxLength: number = SEARCH_SNIPPET_LENGTH,
): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= maxLength) return flat;
  const pieces = highlight(flat, terms);
  let firstMatch = 0;
  let seen = 0;
  for (const piece of pieces) {
    if (piece.match) {
      firstMatch = seen;
      break;
    }
    seen += Array.from(piece.text).length;
  }
  // Some words of context before the match: a fifth of the snippet, back to a space.
  let start = Math.max(0, firstMatch - Math.floor(maxLength / 5));
  if (start > 0) {
    const space = chars.lastIndexOf(' ', start);
    start = space > 0 && firstMatch - space < maxLength / 2 ? space + 1 : start;
  }
  start = Math.min(start, Math.max(0, chars.length - (maxLength - 1)));
  const lead = start > 0 ? '…' : '';
  const room = maxLength - lead.length;
  const rest = chars.slice(start);
  if (rest.length <= room) return lead + rest.join('');
  let body = rest.slice(0, room - 1).join('');
  const cut = body.lastIndexOf(' ');
  if (cut > room / 2) body = body.slice(0, cut);
  return `${lead}${body.trimEnd()}…`;
}
