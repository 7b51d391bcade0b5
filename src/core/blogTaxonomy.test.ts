import { describe, expect, it } from 'vitest';
import { taxonomyName, taxonomyPath, taxonomySlug } from './blogTaxonomy';

describe('taxonomySlug (a category or tag as an address writes it)', () => {
  it('lower-cases, drops accents and joins words with dashes', () => {
    expect(taxonomySlug('Brewing Guides')).toBe('brewing-guides');
    expect(taxonomySlug('  Café & Tea!  ')).toBe('cafe-tea');
    expect(taxonomySlug('日本 茶')).toBe('日本-茶');
  });
  it('is empty when nothing of the word can be written, and at most 64 characters', () => {
    expect(taxonomySlug('!!!')).toBe('');
    expect(taxonomySlug(`${'a'.repeat(63)} b`)).toBe('a'.repeat(63));
  });
});

describe('taxonomyPath and taxonomyName', () => {
  it('builds the list page address of a category or tag', () => {
    expect(taxonomyPath('blog', 'category', 'Brewing Guides')).toBe('/blog/category/brewing-guides');
    expect(taxonomyPath('blog', 'tag', 'Café')).toBe('/blog/tag/cafe');
    expect(taxonomyPath('blog', 'tag', '茶')).toBe('/blog/tag/%E8%8C%B6');
  });
  it('finds the word a slug stands for', () => {
    expect(taxonomyName(['Coffee', 'Brewing Guides'], 'brewing-guides')).toBe('Brewing Guides');
    expect(taxonomyName(['Coffee'], 'tea')).toBeUndefined();
  });
});
