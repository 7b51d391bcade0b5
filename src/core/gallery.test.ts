import { describe, expect, it } from 'vitest';
import {
  DEFAULT_GALLERY_DESIGN,
  GALLERY_ASPECT_RATIOS,
  GALLERY_LIGHTBOX_THEMES,
  GALLERY_NUMBER_OPTIONS,
  galleryNumberOption,
  parseGalleryDesign,
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
