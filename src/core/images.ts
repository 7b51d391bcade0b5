/** Responsive image rules of spec §5 and §9. */
import { parseHex, rgbToNumber } from './colour';
import { err, ok, type Result } from './result';

export const IMAGE_WIDTHS = [100, 300, 500, 750, 1000, 1500, 2500] as const;
export const THUMBNAIL_THRESHOLDS = [100, 300, 500, 750, 1000] as const;
export const ALT_TEXT_MAX_LENGTH = 250;
export const DEFAULT_FOCAL_POINT: Readonly<FocalPoint> = { x: 0.5, y: 0.5 };
export const INVALID_SOURCE_MESSAGE = "Invalid source parameter. Pass in 'originalSize'.";
/** Half of 0xFFFFFF: a colour whose RRGGBB number is below this is dark. */
export const DARK_COLOUR_THRESHOLD = 16777215 / 2;

export interface FocalPoint {
  x: number;
  y: number;
}
export interface ImageSize {
  width: number;
  height: number;
}

/** The URL of one rendition: `${assetUrl}?format=${width}w` (joined with '&' when the URL already has a query). */
export const imageUrl = (assetUrl: string, width: number): string =>
  `${assetUrl}${assetUrl.includes('?') ? '&' : '?'}format=${width}w`;

/** Reads 'WxH' (positive integers) else the §5 message. */
export const parseOriginalSize = (originalSize: unknown): Result<ImageSize, typeof INVALID_SOURCE_MESSAGE> => {
  const match = typeof originalSize === 'string' ? /^\s*([1-9]\d{0,5})x([1-9]\d{0,5})\s*$/i.exec(originalSize) : null;
  if (!match) return err(INVALID_SOURCE_MESSAGE);
  return ok({ width: Number(match[1]), height: Number(match[2]) });
};

/**
 * The widths worth offering for an image: never wider than the original (an upscaled
 * rendition is bigger and no sharper), but always at least the smallest one.
 * Unknown original width → every width.
 */
export const srcsetWidths = (originalWidth?: number): number[] => {
  if (originalWidth === undefined || !Number.isFinite(originalWidth)) return [...IMAGE_WIDTHS];
  const fitting = IMAGE_WIDTHS.filter((w) => w <= originalWidth);
  return fitting.length > 0 ? fitting : [IMAGE_WIDTHS[0]];
};

/** 'url?format=100w 100w, url?format=300w 300w, …' */
export const buildSrcset = (assetUrl: string, originalWidth?: number): string =>
  srcsetWidths(originalWidth)
    .map((w) => `${imageUrl(assetUrl, w)} ${w}w`)
    .join(', ');

/**
 * Smallest thumbnail width at least as wide as the box being filled (in device pixels).
 * Past the largest thumbnail the full width list is used, and past that the largest width.
 */
export const thumbnailWidth = (wantedWidth: number): number => {
  const wanted = Number.isFinite(wantedWidth) ? wantedWidth : 0;
  return (
    THUMBNAIL_THRESHOLDS.find((t) => t >= wanted) ??
    IMAGE_WIDTHS.find((w) => w >= wanted) ??
    IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!
  );
};

export type ImagePriority = 'high' | 'low' | 'auto';

/** Lazy by default; a high-priority image (above the fold) loads eagerly. */
export const imageLoading = (priority?: ImagePriority | null): 'lazy' | 'eager' =>
  priority === 'high' ? 'eager' : 'lazy';

const isUnit = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** A focal point is two fractions of the image, each 0–1. */
export const validateFocalPoint = (input: unknown): Result<FocalPoint, 'invalid-focal-point'> => {
  if (typeof input !== 'object' || input === null) return err('invalid-focal-point');
  const { x, y } = input as { x?: unknown; y?: unknown };
  return isUnit(x) && isUnit(y) ? ok({ x, y }) : err('invalid-focal-point');
};

/** The stored focal point, or the centre when it is missing or bad (cropping around the centre is never wrong). */
export const focalPointOrDefault = (input: unknown): FocalPoint => {
  const checked = validateFocalPoint(input);
  return checked.ok ? checked.value : { ...DEFAULT_FOCAL_POINT };
};

/** CSS object-position for a focal point, e.g. '50% 25%'. */
export const objectPosition = (input: unknown): string => {
  const { x, y } = focalPointOrDefault(input);
  return `${Math.round(x * 1000) / 10}% ${Math.round(y * 1000) / 10}%`;
};

const plainText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Alt text: the asset's own alt text, else its body (caption) as plain text cut at 250
 * characters, else its title, else '' (decorative). The filename is never used: screen
 * readers reading 'IMG_4032.jpg' help nobody.
 */
export const imageAltText = (asset: {
  altText?: string | null;
  body?: string | null;
  title?: string | null;
}): string => {
  const own = asset.altText?.trim();
  if (own) return own;
  const body = plainText(asset.body ?? '');
  if (body) return Array.from(body).slice(0, ALT_TEXT_MAX_LENGTH).join('').trimEnd();
  return asset.title?.trim() ?? '';
};

/**
 * 'dark' when the colour, read as the number 0xRRGGBB, is below half of 16777215; 'light'
 * otherwise; null when the hex is ignored. The other reading of §9 (dark when luminance is
 * below 0.65 × 256) is `colourToneByLuminance`; this numeric one is the spec's main reading.
 */
export const colourTone = (hex: unknown): 'light' | 'dark' | null => {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  return rgbToNumber(rgb) < DARK_COLOUR_THRESHOLD ? 'dark' : 'light';
};

/** The other reading: Rec. 601 luma (0–255) below 0.65 × 256 is dark. */
export const colourToneByLuminance = (hex: unknown): 'light' | 'dark' | null => {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  const luma = 0.299 * rgb.r + 0.587 * rgb.g + 0.114 * rgb.b;
  return luma < 0.65 * 256 ? 'dark' : 'light';
};
