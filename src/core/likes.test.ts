import { describe, expect, it } from 'vitest';
import { isLikerId, likeCountLabel } from './likes';

describe('likeCountLabel', () => {
  it('says how many liked the post', () => {
    expect(likeCountLabel(0)).toBe('0 likes');
    expect(likeCountLabel(1)).toBe('1 like');
    expect(likeCountLabel(12)).toBe('12 likes');
  });
  it('reads bad counts as none', () => {
    for (const bad of [-1, NaN, Infinity, '3', null, undefined]) expect(likeCountLabel(bad)).toBe('0 likes');
    expect(likeCountLabel(2.7)).toBe('2 likes');
  });
});

describe('isLikerId', () => {
  it('takes 128 random bits in base64url and nothing else', () => {
    expect(isLikerId('AbCdEfGhIjKlMnOpQrSt_-')).toBe(true);
    for (const bad of ['', 'short', 'AbCdEfGhIjKlMnOpQrSt_-x', 'AbCdEfGhIjKlMnOpQrSt+/', 42, undefined])
      expect(isLikerId(bad)).toBe(false);
  });
});
