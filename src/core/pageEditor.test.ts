import { describe, expect, it } from 'vitest';
import { checkPagePath, normalisePagePath, pageIdFor } from './pageEditor';

const taken = { pages: ['/', '/about'], collections: ['shop', 'blog'] };

describe('a page URL typed in the pages editor (§5 editor messages)', () => {
  it('takes what the owner meant: a leading slash added, trailing ones dropped, lower case', () => {
    expect(normalisePagePath(' About-Us/ ')).toBe('/about-us');
    expect(normalisePagePath('/')).toBe('/');
    expect(checkPagePath('team/people', taken)).toEqual({ ok: true, path: '/team/people' });
    expect(checkPagePath('/about/team', taken)).toEqual({ ok: true, path: '/about/team' });
  });

  it("refuses what is not a path with '{val} is not a valid page URL', naming what was typed", () => {
    expect(checkPagePath('about us', taken)).toEqual({ ok: false, message: 'about us is not a valid page URL' });
    expect(checkPagePath('/café', taken)).toEqual({ ok: false, message: '/café is not a valid page URL' });
    expect(checkPagePath(' ', taken)).toEqual({ ok: false, message: 'Please enter a page URL' });
    expect(checkPagePath('//evil.example', taken)).toMatchObject({ ok: false });
  });

  it("refuses another page's, a collection's or the store's own URL with 'This page URL already exists'", () => {
    for (const path of ['/about', 'About', '/shop', '/blog/post', '/cart', '/checkout/x', '/admin', '/api/x'])
      expect(checkPagePath(path, taken), path).toEqual({ ok: false, message: 'This page URL already exists' });
  });

  it('makes a new id from the path, unique among the pages', () => {
    expect(pageIdFor('/about-us', [])).toBe('about-us');
    expect(pageIdFor('/about/team', [])).toBe('about-team');
    expect(pageIdFor('/', ['home'])).toBe('home-2');
    expect(pageIdFor('/x', ['x', 'x-2'])).toBe('x-3');
  });
});
