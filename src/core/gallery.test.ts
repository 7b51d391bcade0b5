import { describe, expect, it } from 'vitest';
import {
  autoplayDelayMs,
  DEFAULT_GALLERY_DESIGN,
  GALLERY_ASPECT_RATIO_VALUES,
  GALLERY_ASPECT_RATIOS,
  GALLERY_LIGHTBOX_THEMES,
  GALLERY_NUMBER_OPTIONS,
  galleryImageSizes,
  galleryNumberOption,
  galleryPosition,
  parseGalleryDesign,
  stepSlide,
} from './gallery';

describe('gallery defaults (§9)', () => {
  it('are the spec values', () => {
    expect(DEFAULT_GALLERY_DESIGN).toBe('grid');
    expect(GALLERY_NUMBER_OPTIONS).toEqual({
      autoplayDelay: { default: 5, min: 1, max: 10 },
      thumbnailStripHeight: { default: 80, min: 0, max: 200 },
      margin: { default: 20, min: 0, max: 60 },
      thumbnailsPerRow: { default: 4, min: 1, max: 10 },
      padding: { default: 20, min: 0, max: 50 },
      maxWidth: { default: 300, min: 100, max: 300 },
    });
    expect(GALLERY_ASPECT_RATIOS).toHaveLength(7);
    expect(GALLERY_LIGHTBOX_THEMES).toEqual(['dark', 'light']);
  });

  it.each<[unknown, string]>([
    ['slideshow', 'slideshow'],
    ['carousel', 'slider'],
    ['slider', 'slider'],
    ['stacked', 'stacked'],
    ['masonry', 'grid'],
    [undefined, 'grid'],
  ])('design %j → %s', (raw, expected) => {
    expect(parseGalleryDesign(raw)).toBe(expected);
  });

  it.each<[Parameters<typeof galleryNumberOption>[0], unknown, number]>([
    ['autoplayDelay', undefined, 5],
    ['autoplayDelay', 0, 1],
    ['autoplayDelay', '7', 7],
    ['autoplayDelay', 50, 10],
    ['margin', 'wide', 20],
    ['margin', '', 20],
    ['maxWidth', 50, 100],
    ['thumbnailsPerRow', NaN, 4],
  ])('%s(%j) → %s', (option, raw, expected) => {
    expect(galleryNumberOption(option, raw)).toBe(expected);
  });
});

describe('gallery rendering rules', () => {
  it('gives every §9 aspect ratio a CSS ratio, width over height', () => {
    expect(Object.keys(GALLERY_ASPECT_RATIO_VALUES)).toEqual([...GALLERY_ASPECT_RATIOS]);
    expect(GALLERY_ASPECT_RATIO_VALUES.square).toBe('1 / 1');
    expect(GALLERY_ASPECT_RATIO_VALUES['standard-vertical']).toBe('2 / 3');
    expect(GALLERY_ASPECT_RATIO_VALUES.widescreen).toBe('16 / 9');
    for (const value of Object.values(GALLERY_ASPECT_RATIO_VALUES)) expect(value).toMatch(/^\d+(\.\d+)? \/ \d+$/);
  });

  it.each<[number, number, number, number]>([
    [0, 5, 1, 1],
    [4, 5, 1, 0],
    [0, 5, -1, 4],
    [2, 5, -1, 1],
    [0, 1, 1, 0],
    [3, 0, 1, 0],
  ])('stepSlide(%i of %i, %i) → %i (wraps at both ends)', (index, count, step, expected) => {
    expect(stepSlide(index, count, step)).toBe(expected);
  });

  it('says a place as "n of count"', () => {
    expect(galleryPosition(0, 5)).toBe('1 of 5');
    expect(galleryPosition(4, 5)).toBe('5 of 5');
  });

  it('turns the autoplay delay (seconds, 1–10, default 5) into milliseconds', () => {
    expect(autoplayDelayMs(3)).toBe(3000);
    expect(autoplayDelayMs(undefined)).toBe(5000);
    expect(autoplayDelayMs(0.2)).toBe(1000);
    expect(autoplayDelayMs(60)).toBe(10_000);
  });

  it('sizes grid images by the thumbnails per row, slider slides at a third, slideshows and stacks at full width', () => {
    expect(galleryImageSizes('grid', 4)).toEqual({
      sizes: '(min-width: 1160px) 290px, (min-width: 700px) 25vw, 50vw',
      displayWidth: 290,
    });
    expect(galleryImageSizes('grid', 1)).toEqual({
      sizes: '(min-width: 1160px) 1160px, (min-width: 700px) 100vw, 100vw',
      displayWidth: 1160,
    });
    expect(galleryImageSizes('grid', 99).displayWidth).toBe(116);
    expect(galleryImageSizes('slider', 4)).toEqual({
      sizes: '(min-width: 1160px) 387px, (min-width: 700px) 34vw, 80vw',
      displayWidth: 387,
    });
    expect(galleryImageSizes('slideshow', 4)).toEqual({
      sizes: '(min-width: 1160px) 1160px, 100vw',
      displayWidth: 1160,
    });
    expect(galleryImageSizes('stacked', 4)).toEqual(galleryImageSizes('slideshow', 4));
  });
});
