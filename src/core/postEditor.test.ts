import { describe, expect, it } from 'vitest';
import { checkPostSlug, parsePostList, postListText, postSlugOf } from './postEditor';
import { freeSlug } from './slug';

describe('a post’s URL', () => {
  it('is made from the title when left empty, accents dropped', () => {
    expect(postSlugOf('Café au lait: the guide!')).toBe('cafe-au-lait-the-guide');
    expect(postSlugOf('!!!')).toBe('post');
    expect(postSlugOf('a'.repeat(80))).toHaveLength(64);
    expect(checkPostSlug('', 'Spring Roast', [])).toEqual({ ok: true, slug: 'spring-roast' });
  });

  it('takes what was typed, lower-cased, spaces as dashes, slashes around it dropped', () => {
    expect(checkPostSlug(' /First Post/ ', 'x', [])).toEqual({ ok: true, slug: 'first-post' });
  });

  it('is refused with the spec’s editor messages', () => {
    expect(checkPostSlug('a/b', 'x', [])).toEqual({ ok: false, message: 'a/b is not a valid page URL' });
    expect(checkPostSlug('-x', 'x', [])).toEqual({ ok: false, message: '-x is not a valid page URL' });
    expect(checkPostSlug('news', 'x', ['news'])).toEqual({ ok: false, message: 'This post URL already exists' });
    expect(checkPostSlug('', 'News', ['news'])).toEqual({ ok: false, message: 'This post URL already exists' });
  });

  it('is made free with a number', () => {
    expect(freeSlug('news', new Set())).toBe('news');
    expect(freeSlug('news', new Set(['news', 'news-2']))).toBe('news-3');
    expect(freeSlug('a'.repeat(64), new Set(['a'.repeat(64)]))).toBe(`${'a'.repeat(62)}-2`);
  });
});

describe('tags and categories as typed', () => {
  it('are split at commas, trimmed, one of each whatever the case', () => {
    expect(parsePostList(' Coffee,  brewing ,,coffee, Cold  brew ')).toEqual({
      ok: true,
      items: ['Coffee', 'brewing', 'Cold brew'],
    });
    expect(parsePostList('')).toEqual({ ok: true, items: [] });
    expect(postListText(['Coffee', 'Cold brew'])).toBe('Coffee, Cold brew');
  });

  it('refuse one too long, or too many', () => {
    expect(parsePostList(`ok, ${'x'.repeat(61)}`)).toEqual({
      ok: false,
      message: `“${'x'.repeat(20)}…” is longer than 60 characters`,
    });
    expect(parsePostList(Array.from({ length: 31 }, (_, i) => `t${i}`).join(','))).toEqual({
      ok: false,
      message: 'must be at most 30, separated by commas',
    });
  });
});
