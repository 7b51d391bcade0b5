import { describe, expect, it } from 'vitest';
import {
  IMAGE_WIDTHS,
  THUMBNAIL_THRESHOLDS,
  buildSrcset,
  colourTone,
  colourToneByLuminance,
  focalPointOrDefault,
  imageAltText,
  imageLoading,
  imageUrl,
  objectPosition,
  parseOriginalSize,
  srcsetWidths,
  thumbnailWidth,
  validateFocalPoint,
} from './images';

describe('image widths (§9)', () => {
  it('has the spec lists', () => {
    expect(IMAGE_WIDTHS).toEqual([100, 300, 500, 750, 1000, 1500, 2500]);
    expect(THUMBNAIL_THRESHOLDS).toEqual([100, 300, 500, 750, 1000]);
  });

  it('builds rendition URLs and srcsets', () => {
    expect(imageUrl('/assets/a.jpg', 300)).toBe('/assets/a.jpg?format=300w');
    expect(imageUrl('/assets/a.jpg?v=2', 300)).toBe('/assets/a.jpg?v=2&format=300w');
    expect(buildSrcset('/a.jpg', 600)).toBe(
      '/a.jpg?format=100w 100w, /a.jpg?format=300w 300w, /a.jpg?format=500w 500w',
    );
    expect(srcsetWidths()).toEqual([...IMAGE_WIDTHS]);
    expect(srcsetWidths(Number.NaN)).toEqual([...IMAGE_WIDTHS]);
    expect(srcsetWidths(50)).toEqual([100]);
    expect(srcsetWidths(2500)).toEqual([...IMAGE_WIDTHS]);
  });

  it.each([
    [0, 100],
    [100, 100],
    [101, 300],
    [750, 750],
    [1000, 1000],
    [1001, 1500],
    [2400, 2500],
    [4000, 2500],
    [Number.NaN, 100],
  ])('thumbnailWidth(%s) → %s', (wanted, width) => {
    expect(thumbnailWidth(wanted)).toBe(width);
  });
});

describe('originalSize', () => {
  it.each([
    ['1500x1000', { width: 1500, height: 1000 }],
    [' 1X1 ', { width: 1, height: 1 }],
  ])('parses %j', (input, size) => {
    expect(parseOriginalSize(input)).toEqual({ ok: true, value: size });
  });

  it.each([['1500'], ['0x100'], ['100x'], ['ax b'], ['1500.5x100'], ['-1x5'], [''], [undefined], [1500]])(
    'rejects %j',
    (input) => {
      expect(parseOriginalSize(input)).toEqual({
        ok: false,
        error: "Invalid source parameter. Pass in 'originalSize'.",
      });
    },
  );
});

describe('loading and focal point', () => {
  it('is lazy unless priority is high', () => {
    expect(imageLoading('high')).toBe('eager');
    expect(imageLoading('low')).toBe('lazy');
    expect(imageLoading()).toBe('lazy');
    expect(imageLoading(null)).toBe('lazy');
  });

  it('validates and defaults the focal point', () => {
    expect(validateFocalPoint({ x: 0, y: 1 })).toEqual({ ok: true, value: { x: 0, y: 1 } });
    expect(validateFocalPoint({ x: 1.2, y: 0.5 }).ok).toBe(false);
    expect(validateFocalPoint(null).ok).toBe(false);
    expect(validateFocalPoint({ x: '0.5', y: 0.5 }).ok).toBe(false);
    expect(focalPointOrDefault(undefined)).toEqual({ x: 0.5, y: 0.5 });
    expect(focalPointOrDefault({ x: 0.2, y: 0.3 })).toEqual({ x: 0.2, y: 0.3 });
    expect(objectPosition({ x: 0.25, y: 0.333 })).toBe('25% 33.3%');
    expect(objectPosition({})).toBe('50% 50%');
  });
});

describe('alt text', () => {
  it('prefers alt text, then body cut at 250, then title', () => {
    expect(imageAltText({ altText: ' A red chair ', body: 'x', title: 't' })).toBe('A red chair');
    expect(imageAltText({ body: '<p>Hand&nbsp;made <b>oak</b></p>', title: 't' })).toBe('Hand made oak');
    expect(imageAltText({ body: 'w'.repeat(300) })).toHaveLength(250);
    expect(imageAltText({ altText: '', body: '<br/>', title: ' Chair ' })).toBe('Chair');
    expect(imageAltText({})).toBe('');
  });
});

describe('light or dark (§9)', () => {
  it.each([
    ['#000000', 'dark'],
    ['#7fffff', 'dark'],
    ['#800000', 'light'],
    ['#ffffff', 'light'],
    ['nope', null],
  ])('colourTone(%s) → %s', (hex, tone) => {
    expect(colourTone(hex)).toBe(tone);
  });

  it('offers the luminance reading', () => {
    expect(colourToneByLuminance('#800000')).toBe('dark');
    expect(colourToneByLuminance('#ffffff')).toBe('light');
    expect(colourToneByLuminance('#a6a6a6')).toBe('dark'); // 166 < 166.4
    expect(colourToneByLuminance('#a7a7a7')).toBe('light');
    expect(colourToneByLuminance('x')).toBeNull();
  });
});
