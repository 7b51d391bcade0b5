import { describe, expect, it } from 'vitest';
import { COLOUR_FORMAT_MESSAGE, moveItem, readColour, readLinkTarget } from './designForm';

describe('a colour typed in the design editor', () => {
  it.each([
    ['', undefined],
    ['  ', undefined],
    ['#C0FFEE', '#c0ffee'],
    ['abc', '#aabbcc'],
    ['hsl(0, 100%, 50%)', '#ff0000'],
    ['hsl(120 100% 25%)', '#008000'],
    ['HSL(240, 1, 0.5)', '#0000ff'],
    ['hsla(0, 0%, 100%, 1)', '#ffffff'],
  ])('reads %j as %s', (input, expected) => {
    expect(readColour(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['hsl(400, 50%, 50%)', 'Hue out of bounds.'],
    ['hsl(-1, 50%, 50%)', 'Hue out of bounds.'],
    ['hsl(10, 150%, 50%)', 'Saturation out of bounds.'],
    ['hsl(10, 50%, 1.5)', 'Lightness out of bounds.'],
    ['hsla(10, 50%, 50%, 2)', 'Alpha out of bounds.'],
    ['hsla(10, 50%, 50%, 0.5)', 'Alpha out of bounds.'],
    ['hsl(10, 50%)', 'Missing an H/S/L value.'],
    ['hsl(ten, 50%, 50%)', COLOUR_FORMAT_MESSAGE],
    ['#12345', COLOUR_FORMAT_MESSAGE],
    ['red', COLOUR_FORMAT_MESSAGE],
    ['#gggggg', COLOUR_FORMAT_MESSAGE],
  ])('refuses %j with %j', (input, message) => {
    expect(readColour(input)).toEqual({ ok: false, error: message });
  });
});

describe('a footer link typed in the design editor (§5 editor messages)', () => {
  const pages = [
    { id: 'home', path: '/' },
    { id: 'about', path: '/about' },
  ];

  it('takes a path of one of the pages as that page', () => {
    expect(readLinkTarget('/about', pages)).toEqual({ ok: true, value: { page: 'about' } });
    expect(readLinkTarget(' /about/ ', pages)).toEqual({ ok: true, value: { page: 'about' } });
    expect(readLinkTarget('/', pages)).toEqual({ ok: true, value: { page: 'home' } });
  });

  it("says '{val} is not a valid page URL' for a path that is no page", () => {
    expect(readLinkTarget('/nowhere', pages)).toEqual({ ok: false, error: '/nowhere is not a valid page URL' });
  });

  it('takes another website by its host or https address, as https', () => {
    expect(readLinkTarget('example.com', pages)).toEqual({ ok: true, value: { url: 'https://example.com/' } });
    expect(readLinkTarget('http://shop.example.org/terms', pages)).toEqual({
      ok: true,
      value: { url: 'https://shop.example.org/terms' },
    });
  });

  it.each(['', 'not a link', 'localhost', 'ftp://example.com', 'https://user:pw@example.com', 'javascript:alert(1)'])(
    "says 'Links must be formatted as …' for %j",
    (input) => {
      expect(readLinkTarget(input, pages)).toEqual({
        ok: false,
        error: 'Links must be formatted as example.com or https://example.com/page',
      });
    },
  );
});

describe('moving an item of the menu', () => {
  it('moves up and down, and leaves the list as it is at its ends', () => {
    expect(moveItem(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 5, 1)).toEqual(['a', 'b', 'c']);
  });
});
