/** Colour rules of spec §5: hex parsing and HSL(A) adjustments. */
import { err, ok, type Result } from './result';

export const COLOUR_MESSAGES = {
  hue: 'Hue out of bounds.',
  saturation: 'Saturation out of bounds.',
  lightness: 'Lightness out of bounds.',
  alpha: 'Alpha out of bounds.',
  missing: 'Missing an H/S/L value.',
} as const;
export type ColourMessage = (typeof COLOUR_MESSAGES)[keyof typeof COLOUR_MESSAGES];

export interface Rgb {
  r: number;
  g: number;
  b: number;
}
/** Hue 0–360 degrees; saturation, lightness and alpha 0–1. */
export interface Hsla {
  h: number;
  s: number;
  l: number;
  a: number;
}

/**
 * Reads a hex colour of 3 to 6 hex characters, with or without '#'; anything else is ignored (null).
 * 3 characters are CSS shorthand ('abc' = 'aabbcc'). 4 and 5 characters have no CSS meaning for
 * an opaque colour, so they are read as a number and zero-padded ('fff0' = '00fff0') — the same
 * numeric reading the light/dark threshold uses.
 */
export const parseHex = (input: unknown): Rgb | null => {
  if (typeof input !== 'string') return null;
  const hex = input.trim().replace(/^#/, '');
  if (!/^[0-9a-f]{3,6}$/i.test(hex)) return null;
  const six = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex.padStart(6, '0');
  const n = parseInt(six, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
};

/** '#rrggbb', lower case. */
export const rgbToHex = ({ r, g, b }: Rgb): string =>
  '#' +
  [r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

/** The colour as one number 0–16777215 (0xRRGGBB). */
export const rgbToNumber = ({ r, g, b }: Rgb): number => (r << 16) + (g << 8) + b;

/** Normalises a hex colour to '#rrggbb', or null when it is ignored. */
export const normaliseHex = (input: unknown): string | null => {
  const rgb = parseHex(input);
  return rgb ? rgbToHex(rgb) : null;
};

const inRange = (value: number, min: number, max: number): boolean =>
  Number.isFinite(value) && value >= min && value <= max;

/** Builds an HSLA colour; alpha defaults to 1 (opaque) when not given. */
export const hsla = (input: { h?: unknown; s?: unknown; l?: unknown; a?: unknown }): Result<Hsla, ColourMessage> => {
  const { h, s, l } = input;
  const a = input.a ?? 1;
  if (typeof h !== 'number' || typeof s !== 'number' || typeof l !== 'number') return err(COLOUR_MESSAGES.missing);
  if (!inRange(h, 0, 360)) return err(COLOUR_MESSAGES.hue);
  if (!inRange(s, 0, 1)) return err(COLOUR_MESSAGES.saturation);
  if (!inRange(l, 0, 1)) return err(COLOUR_MESSAGES.lightness);
  if (typeof a !== 'number' || !inRange(a, 0, 1)) return err(COLOUR_MESSAGES.alpha);
  return ok({ h, s, l, a });
};

/** Sets some components of a colour; each new value is checked with the messages of §5. */
export const setHsla = (colour: Hsla, changes: Partial<Hsla>): Result<Hsla, ColourMessage> =>
  hsla({ ...colour, ...changes });

/**
 * Shifts a colour by relative amounts ('10 % lighter', 'rotate hue'). The hue goes round the
 * wheel and the others stop at their ends, because that is what a designer means by
 * 'lighter' or 'rotate'; only non-finite amounts are errors.
 */
export const shiftHsla = (colour: Hsla, by: Partial<Hsla>): Result<Hsla, ColourMessage> => {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const { h = 0, s = 0, l = 0, a = 0 } = by;
  if (!Number.isFinite(h)) return err(COLOUR_MESSAGES.hue);
  if (!Number.isFinite(s)) return err(COLOUR_MESSAGES.saturation);
  if (!Number.isFinite(l)) return err(COLOUR_MESSAGES.lightness);
  if (!Number.isFinite(a)) return err(COLOUR_MESSAGES.alpha);
  const hue = (((colour.h + h) % 360) + 360) % 360;
  return hsla({ h: hue, s: clamp(colour.s + s), l: clamp(colour.l + l), a: clamp(colour.a + a) });
};

export const rgbToHsla = ({ r, g, b }: Rgb, a = 1): Hsla => {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l, a };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === rn) h = ((gn - bn) / d) % 6;
  else if (max === gn) h = (bn - rn) / d + 2;
  else h = (rn - gn) / d + 4;
  return { h: (h * 60 + 360) % 360, s: Math.min(1, s), l, a };
};

export const hslaToRgb = ({ h, s, l }: Hsla): Rgb => {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const sector = Math.floor((((h % 360) + 360) % 360) / 60);
  const sectors: ReadonlyArray<readonly [number, number, number]> = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ];
  const [r, g, b] = sectors[sector] ?? [0, 0, 0];
  return { r: Math.round((r + m) * 255), g: Math.round((g + m) * 255), b: Math.round((b + m) * 255) };
};

/** CSS text, e.g. 'hsla(210, 50%, 40%, 0.5)'. */
export const formatHsla = ({ h, s, l, a }: Hsla): string =>
  `hsla(${round(h)}, ${round(s * 100)}%, ${round(l * 100)}%, ${round(a, 3)})`;

const round = (v: number, places = 2): number => Math.round(v * 10 ** places) / 10 ** places;
