import { describe, expect, it } from 'vitest';
import {
  COLOUR_MESSAGES,
  formatHsla,
  hsla,
  hslaToRgb,
  normaliseHex,
  parseHex,
  rgbToHex,
  rgbToHsla,
  rgbToNumber,
  setHsla,
  shiftHsla,
} from './colour';

describe('hex colours (§5)', () => {
  it.each([
    ['#fff', '#ffffff'],
    ['abc', '#aabbcc'],
    ['#1A2b3C', '#1a2b3c'],
    ['fff0', '#00fff0'],
    ['12345', '#012345'],
    [' #000000 ', '#000000'],
    ['ff', null],
    ['#1234567', null],
    ['ggg', null],
    ['', null],
    [null, null],
    [123, null],
  ])('%j → %s', (input, expected) => {
    expect(normaliseHex(input)).toBe(expected);
  });

  it('parses into channels and a number', () => {
    expect(parseHex('#102030')).toEqual({ r: 16, g: 32, b: 48 });
    expect(rgbToNumber({ r: 255, g: 255, b: 255 })).toBe(16777215);
    expect(rgbToHex({ r: 300, g: -5, b: 127.6 })).toBe('#ff0080');
  });
});

describe('HSLA (§5)', () => {
  it('has the spec messages', () => {
    expect(COLOUR_MESSAGES).toEqual({
      hue: 'Hue out of bounds.',
      saturation: 'Saturation out of bounds.',
      lightness: 'Lightness out of bounds.',
      alpha: 'Alpha out of bounds.',
      missing: 'Missing an H/S/L value.',
    });
  });

  it.each([
    [
      { h: 0, s: 0, l: 0 },
      { ok: true, value: { h: 0, s: 0, l: 0, a: 1 } },
    ],
    [
      { h: 360, s: 1, l: 1, a: 0 },
      { ok: true, value: { h: 360, s: 1, l: 1, a: 0 } },
    ],
    [
      { s: 0.5, l: 0.5 },
      { ok: false, error: 'Missing an H/S/L value.' },
    ],
    [
      { h: 10, l: 0.5 },
      { ok: false, error: 'Missing an H/S/L value.' },
    ],
    [
      { h: 10, s: 0.5 },
      { ok: false, error: 'Missing an H/S/L value.' },
    ],
    [
      { h: -1, s: 0.5, l: 0.5 },
      { ok: false, error: 'Hue out of bounds.' },
    ],
    [
      { h: 361, s: 0.5, l: 0.5 },
      { ok: false, error: 'Hue out of bounds.' },
    ],
    [
      { h: Number.NaN, s: 0.5, l: 0.5 },
      { ok: false, error: 'Hue out of bounds.' },
    ],
    [
      { h: 10, s: 1.1, l: 0.5 },
      { ok: false, error: 'Saturation out of bounds.' },
    ],
    [
      { h: 10, s: 0.5, l: -0.1 },
      { ok: false, error: 'Lightness out of bounds.' },
    ],
    [
      { h: 10, s: 0.5, l: 0.5, a: 2 },
      { ok: false, error: 'Alpha out of bounds.' },
    ],
    [
      { h: 10, s: 0.5, l: 0.5, a: '1' },
      { ok: false, error: 'Alpha out of bounds.' },
    ],
  ])('hsla(%j)', (input, expected) => {
    expect(hsla(input)).toEqual(expected);
  });

  const base = { h: 200, s: 0.5, l: 0.5, a: 1 };

  it('sets components with validation', () => {
    expect(setHsla(base, { l: 0.8 })).toEqual({ ok: true, value: { ...base, l: 0.8 } });
    expect(setHsla(base, { h: 400 })).toEqual({ ok: false, error: 'Hue out of bounds.' });
  });

  it('shifts: hue wraps, the rest clamp, non-finite amounts fail', () => {
    expect(shiftHsla(base, { h: 200, l: 0.7, s: -1, a: -0.25 })).toEqual({
      ok: true,
      value: { h: 40, s: 0, l: 1, a: 0.75 },
    });
    expect(shiftHsla(base, { h: -220 })).toMatchObject({ ok: true, value: { h: 340 } });
    expect(shiftHsla(base, { h: Number.NaN })).toEqual({ ok: false, error: 'Hue out of bounds.' });
    expect(shiftHsla(base, { s: Number.NaN })).toEqual({ ok: false, error: 'Saturation out of bounds.' });
    expect(shiftHsla(base, { l: Number.POSITIVE_INFINITY })).toEqual({ ok: false, error: 'Lightness out of bounds.' });
    expect(shiftHsla(base, { a: Number.NaN })).toEqual({ ok: false, error: 'Alpha out of bounds.' });
  });

  it.each([
    '#ff0000',
    '#00ff00',
    '#0000ff',
    '#ffff00',
    '#00ffff',
    '#ff00ff',
    '#808080',
    '#336699',
    '#000000',
    '#ffffff',
  ])('round-trips %s through HSLA', (hex) => {
    const rgb = parseHex(hex)!;
    expect(rgbToHex(hslaToRgb(rgbToHsla(rgb)))).toBe(hex);
  });

  it('formats CSS text', () => {
    expect(formatHsla({ h: 210, s: 0.5, l: 0.4, a: 0.5 })).toBe('hsla(210, 50%, 40%, 0.5)');
    expect(rgbToHsla({ r: 255, g: 0, b: 0 }, 0.5)).toEqual({ h: 0, s: 1, l: 0.5, a: 0.5 });
  });
});
