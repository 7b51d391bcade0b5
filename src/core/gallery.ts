/** Gallery block options and defaults of spec §3 and §9. */

/**
 * §3 calls the fourth design 'slider', §9 calls it 'carousel'. We store 'slider' and read 'carousel' as its alias,
 * so a site file written with either word keeps its gallery.
 */
export const GALLERY_DESIGNS = ['grid', 'slideshow', 'slider', 'stacked'] as const;
export type GalleryDesign = (typeof GALLERY_DESIGNS)[number];
export const DEFAULT_GALLERY_DESIGN: GalleryDesign = 'grid';

export const GALLERY_META_POSITIONS = [
  'top',
  'top-left',
  'top-right',
  'center',
  'bottom',
  'bottom-left',
  'bottom-right',
] as const;
export type GalleryMetaPosition = (typeof GALLERY_META_POSITIONS)[number];

export const GALLERY_ACTIVE_ALIGNMENTS = ['center', 'left', 'right'] as const;
export type GalleryActiveAlignment = (typeof GALLERY_ACTIVE_ALIGNMENTS)[number];

export const GALLERY_FLAGS = [
  'autoplay',
  'auto-crop',
  'controls',
  'lightbox',
  'square-thumbs',
  'show-meta',
  'show-meta-on-hover',
  'thumbnails',
  'indicators',
] as const;
export type GalleryFlag = (typeof GALLERY_FLAGS)[number];

export const GALLERY_ASPECT_RATIOS = [
  'square',
  'standard',
  'standard-vertical',
  'four-three',
  'three-four-vertical',
  'widescreen',
  'anamorphic-widescreen',
] as const;
export type GalleryAspectRatio = (typeof GALLERY_ASPECT_RATIOS)[number];

export const GALLERY_LIGHTBOX_THEMES = ['dark', 'light'] as const;
export type GalleryLightboxTheme = (typeof GALLERY_LIGHTBOX_THEMES)[number];

interface NumberOption {
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

/** Numeric options with their default and allowed range (§9). Autoplay delay is in seconds. */
export const GALLERY_NUMBER_OPTIONS = {
  autoplayDelay: { default: 5, min: 1, max: 10 },
  thumbnailStripHeight: { default: 80, min: 0, max: 200 },
  margin: { default: 20, min: 0, max: 60 },
  thumbnailsPerRow: { default: 4, min: 1, max: 10 },
  padding: { default: 20, min: 0, max: 50 },
  maxWidth: { default: 300, min: 100, max: 300 },
} as const satisfies Record<string, NumberOption>;
export type GalleryNumberOption = keyof typeof GALLERY_NUMBER_OPTIONS;

/** A value outside the range is clamped (the owner meant "as much as allowed"); a non-number takes the default. */
export function galleryNumberOption(option: GalleryNumberOption, raw: unknown): number {
  const { default: fallback, min, max } = GALLERY_NUMBER_OPTIONS[option];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

/** Reads a design name; unknown names fall back to the default grid. */
export function parseGalleryDesign(raw: unknown): GalleryDesign {
  if (raw === 'carousel') return 'slider';
  return (GALLERY_DESIGNS as readonly unknown[]).includes(raw) ? (raw as GalleryDesign) : DEFAULT_GALLERY_DESIGN;
}

/** CSS aspect-ratio of each §9 ratio name (width / height): standard is 3:2, widescreen 16:9, anamorphic 2.39:1. */
export const GALLERY_ASPECT_RATIO_VALUES: Readonly<Record<GalleryAspectRatio, string>> = {
  square: '1 / 1',
  standard: '3 / 2',
  'standard-vertical': '2 / 3',
  'four-three': '4 / 3',
  'three-four-vertical': '3 / 4',
  widescreen: '16 / 9',
  'anamorphic-widescreen': '2.39 / 1',
};

/**
 * Texts of the gallery's controls. The spec names the controls (§3's flags) but not their words; these are ours, short
 * and in the words a screen reader user expects of a carousel (WAI-ARIA's carousel pattern).
 */
export const GALLERY_LABELS = {
  gallery: 'Gallery',
  previousSlide: 'Previous slide',
  nextSlide: 'Next slide',
  pause: 'Pause slideshow',
  play: 'Play slideshow',
  slides: 'Slides',
  lightbox: 'Image viewer',
  close: 'Close',
  previousImage: 'Previous image',
  nextImage: 'Next image',
} as const;

/** '2 of 5': a slide's or lightbox image's place, for its label and the live status. */
export const galleryPosition = (index: number, count: number): string => `${index + 1} of ${count}`;

/** The slide `step` away from `index` (±1), wrapping at both ends: after the last comes the first. */
export function stepSlide(index: number, count: number, step: number): number {
  if (count <= 0) return 0;
  const next = (index + step) % count;
  return next < 0 ? next + count : next;
}

/** The autoplay delay (§9: seconds, 1–10, default 5) in milliseconds, clamped like every gallery number. */
export const autoplayDelayMs = (seconds: unknown): number => galleryNumberOption('autoplayDelay', seconds) * 1000;

/** Widest a content page draws a block, in CSS pixels (src/ui/styles.css `.container`). */
export const GALLERY_CONTENT_WIDTH = 1160;

/**
 * How wide a gallery draws each image, for `sizes` and the fallback `src`: a grid divides the content width by its
 * thumbnails per row (two columns at most on a phone), a slider shows slides of about a third of it, a slideshow and
 * a stack use all of it. `displayWidth` is the §9 thumbnail threshold that covers the drawn width.
 */
export function galleryImageSizes(
  design: GalleryDesign,
  thumbnailsPerRow: number,
): { sizes: string; displayWidth: number } {
  const full = GALLERY_CONTENT_WIDTH;
  if (design === 'grid') {
    const columns = galleryNumberOption('thumbnailsPerRow', thumbnailsPerRow);
    const wide = Math.ceil(full / columns);
    const phone = columns >= 2 ? '50vw' : '100vw';
    return {
      sizes: `(min-width: ${full}px) ${wide}px, (min-width: 700px) ${Math.ceil(100 / columns)}vw, ${phone}`,
      displayWidth: wide,
    };
  }
  if (design === 'slider')
    return {
      sizes: `(min-width: ${full}px) ${Math.ceil(full / 3)}px, (min-width: 700px) 34vw, 80vw`,
      displayWidth: Math.ceil(full / 3),
    };
  return { sizes: `(min-width: ${full}px) ${full}px, 100vw`, displayWidth: full };
}
