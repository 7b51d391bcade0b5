import { describe, expect, it } from 'vitest';
import { socialProfileLabel, splitHashtags } from './social';

describe('socialProfileLabel', () => {
  it('names the shop and the network', () => {
    expect(socialProfileLabel('Vitrine Demo Store', 'instagram')).toBe('Vitrine Demo Store on Instagram');
    expect(socialProfileLabel('Shop', 'x')).toBe('Shop on X');
  });
});

describe('splitHashtags (hashtag links built from text)', () => {
  it('finds hashtags at the start, after spaces and punctuation, keeping every other character', () => {
    const text = '#Glazes are hard. Try (#cone6) and #café_au_lait!';
    const parts = splitHashtags(text);
    expect(parts).toEqual([
      { hashtag: '#Glazes', slug: 'glazes' },
      { text: ' are hard. Try (' },
      { hashtag: '#cone6', slug: 'cone6' },
      { text: ') and ' },
      { hashtag: '#café_au_lait', slug: 'cafe-au-lait' },
      { text: '!' },
    ]);
    expect(parts.map((p) => ('text' in p ? p.text : p.hashtag)).join('')).toBe(text);
  });
  it('leaves numbers, words with a # inside, entities, fragments and lone #s alone', () => {
    for (const text of [
      'We are #1',
      'C#sharp',
      'it&#39;s',
      'see https://a.example/#top',
      '# heading',
      '##double',
      'plain',
    ]) {
      expect(splitHashtags(text)).toEqual([{ text }]);
    }
    expect(splitHashtags('')).toEqual([]);
  });
});
