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
