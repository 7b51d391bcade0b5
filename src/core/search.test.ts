import { describe, expect, it } from 'vitest';
import {
  foldText,
  highlight,
  indexText,
  parseSearchPage,
  parseSearchQuery,
  SEARCH_MAX_PAGE,
  SEARCH_MAX_TERMS,
  SEARCH_MESSAGES,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_SNIPPET_LENGTH,
  SEARCH_TERM_MAX_LENGTH,
  searchPageCount,
  searchSnippet,
  searchWords,
  textMatches,
} from './search';

describe('words', () => {
  it('folds case, accents and compatibility forms', () => {
    expect(foldText('Crème Brûlée')).toBe('creme brulee');
    expect(foldText('ﬁne Ｗｉｄｅ')).toBe('fine wide');
    expect(foldText('e\u0301')).toBe('e');
  });

  it('takes runs of letters and digits as words; everything else separates them', () => {
    expect(searchWords('Pour-over V60 (1.5 l), "NEAR(x)" *mug* don\'t')).toEqual([
      'pour',
      'over',
      'v60',
      '1',
      '5',
      'l',
      'near',
      'x',
      'mug',
      'don',
      't',
    ]);
    expect(searchWords('кофе 咖啡杯 עברית')).toEqual(['кофе', '咖啡杯', 'עברית']);
    expect(searchWords('🍄 — !')).toEqual([]);
    expect(indexText('Speckled  Stoneware\nMug!')).toBe('speckled stoneware mug');
  });
});

describe('parseSearchQuery', () => {
  const termsOf = (raw: string) => {
    const parsed = parseSearchQuery(raw);
    return parsed.ok ? parsed.terms : null;
  };

  it('gives the folded words, each once, with the query as typed (trimmed)', () => {
    expect(parseSearchQuery('  Mug mug MÜG ')).toEqual({
      ok: true,
      text: 'Mug mug MÜG',
      terms: ['mug'],
      termsDropped: false,
    });
  });

  it('turns full-text syntax into separators: no query reaches an engine as syntax', () => {
    expect(termsOf('"mug" NEAR(cup, 2) -tea title:x \'a\'')).toEqual([
      'mug',
      'near',
      'cup',
      '2',
      'tea',
      'title',
      'x',
      'a',
    ]);
    expect(termsOf('b* ^c {d} e|f & !g <-> "h')).toEqual(['b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(termsOf('"*" :-')).toEqual([]);
  });

  it('treats no query, an empty one and punctuation alike: no words', () => {
    for (const raw of [null, undefined, '', '   ', '"'])
      expect(parseSearchQuery(raw)).toMatchObject({ ok: true, terms: [] });
  });

  it(`refuses more than ${SEARCH_QUERY_MAX_LENGTH} characters (code points: emoji count once)`, () => {
    expect(parseSearchQuery('a'.repeat(SEARCH_QUERY_MAX_LENGTH)).ok).toBe(true);
    expect(parseSearchQuery('🍄'.repeat(SEARCH_QUERY_MAX_LENGTH)).ok).toBe(true);
    expect(parseSearchQuery('a'.repeat(SEARCH_QUERY_MAX_LENGTH + 1))).toEqual({
      ok: false,
      text: 'a'.repeat(SEARCH_QUERY_MAX_LENGTH),
      message: SEARCH_MESSAGES.tooLong,
    });
    expect(SEARCH_MESSAGES.tooLong).toBe('Your search is too long: use at most 200 characters.');
  });

  it(`searches the first ${SEARCH_MAX_TERMS} words and cuts long words to their first ${SEARCH_TERM_MAX_LENGTH} characters`, () => {
    const parsed = parseSearchQuery('a b c d e f g h i j');
    expect(parsed).toMatchObject({ terms: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], termsDropped: true });
    expect(parseSearchQuery(`${'x'.repeat(60)} y`)).toMatchObject({
      terms: ['x'.repeat(SEARCH_TERM_MAX_LENGTH), 'y'],
      termsDropped: false,
    });
  });
});

describe('parseSearchPage', () => {
  it('reads 1 to the last page; absent or empty is 1', () => {
    expect(parseSearchPage(null)).toBe(1);
    expect(parseSearchPage(undefined)).toBe(1);
    expect(parseSearchPage('')).toBe(1);
    expect(parseSearchPage('3')).toBe(3);
    expect(parseSearchPage(String(SEARCH_MAX_PAGE))).toBe(SEARCH_MAX_PAGE);
  });

  it('refuses anything else', () => {
    for (const raw of ['0', '-1', '1.5', '1e2', ' 2', '2 ', 'abc', String(SEARCH_MAX_PAGE + 1), '99999', '0x10'])
      expect(parseSearchPage(raw), raw).toBeNull();
  });

  it('counts pages of ten, at least one', () => {
    expect([0, 1, 10, 11, 25].map(searchPageCount)).toEqual([1, 1, 1, 2, 3]);
  });
});

describe('highlight', () => {
  it('marks the words a term starts, keeping the text exactly', () => {
    const pieces = highlight('Speckled Mugs, and a mug-tree.', ['mug']);
    expect(pieces).toEqual([
      { text: 'Speckled ', match: false },
      { text: 'Mugs', match: true },
      { text: ', and a ', match: false },
      { text: 'mug', match: true },
      { text: '-tree.', match: false },
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe('Speckled Mugs, and a mug-tree.');
  });

  it('finds accented words by their folded form, and keeps combining marks inside the word', () => {
    expect(
      highlight('Crème brûlée', ['creme', 'brulee'])
        .filter((p) => p.match)
        .map((p) => p.text),
    ).toEqual(['Crème', 'brûlée']);
    expect(highlight('Cafe\u0301 au lait', ['cafe'])[0]).toEqual({ text: 'Cafe\u0301', match: true });
  });

  it('marks nothing without terms, and treats markup as text', () => {
    expect(highlight('<b>bold</b>', [])).toEqual([{ text: '<b>bold</b>', match: false }]);
    expect(
      highlight('<b>bold</b>', ['b'])
        .filter((p) => p.match)
        .map((p) => p.text),
    ).toEqual(['b', 'bold', 'b']);
    expect(highlight('', ['x'])).toEqual([]);
    expect(textMatches('ceramics, mugs', ['mug'])).toBe(true);
    expect(textMatches('ceramics', ['mug'])).toBe(false);
  });
});

describe('searchSnippet', () => {
  const long = `${'Intro words here. '.repeat(30)}The speckled mug is the one. ${'Outro words there. '.repeat(30)}`;

  it('keeps short text whole, whitespace collapsed', () => {
    expect(searchSnippet('  A  short\n\ntext ', ['short'])).toBe('A short text');
  });

  it('starts a little before the first match, with ellipses where text was cut', () => {
    const snippet = searchSnippet(long, ['speckled']);
    expect(Array.from(snippet).length).toBeLessThanOrEqual(SEARCH_SNIPPET_LENGTH);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('The speckled mug is the one.');
    expect(snippet.indexOf('speckled')).toBeLessThan(SEARCH_SNIPPET_LENGTH / 2);
  });

  it('starts at the beginning without a match, and ends at the end when the match is near it', () => {
    const start = searchSnippet(long, ['zebra']);
    expect(start.startsWith('Intro words here.')).toBe(true);
    expect(start.endsWith('…')).toBe(true);
    const end = searchSnippet(`${'a '.repeat(300)}final`, ['final']);
    expect(end.startsWith('…')).toBe(true);
    expect(end.endsWith('final')).toBe(true);
    expect(Array.from(end).length).toBeLessThanOrEqual(SEARCH_SNIPPET_LENGTH);
  });

  it('cuts text without spaces anywhere, never past the length', () => {
    const snippet = searchSnippet('x'.repeat(1000), ['y'], 50);
    expect(Array.from(snippet).length).toBeLessThanOrEqual(50);
    expect(snippet.endsWith('…')).toBe(true);
  });
});
