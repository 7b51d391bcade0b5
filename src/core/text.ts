/** Small text rules of spec §8 and §9: truncation, time-since, element-path text, digit options. */

export const DEFAULT_TRUNCATE_LENGTH = 100;
export const ELLIPSIS = '…';
export const ELEMENT_PATH_TEXT_MAX_LENGTH = 200;
export const DIGIT_OPTION_MIN = 0;
export const DIGIT_OPTION_MAX = 50;
export const INVALID_DATE_MESSAGE = 'Invalid date.';

/**
 * Cuts text to at most `maxLength` characters, the ellipsis included, so a layout sized for
 * 100 characters never overflows. Characters are code points: an emoji is never split in half.
 * Trailing spaces before the ellipsis are dropped ('word …' reads as a mistake).
 */
export const truncate = (text: string, maxLength: number = DEFAULT_TRUNCATE_LENGTH): string => {
  const chars = Array.from(text);
  const max = Number.isFinite(maxLength) ? Math.max(0, Math.floor(maxLength)) : DEFAULT_TRUNCATE_LENGTH;
  if (chars.length <= max) return text;
  if (max === 0) return '';
  return (
    chars
      .slice(0, max - 1)
      .join('')
      .trimEnd() + ELLIPSIS
  );
};

/** Element path text (performance attribution) is cut at 200 characters, without an ellipsis: it is data, not display. */
export const elementPathText = (text: string): string =>
  Array.from(text).slice(0, ELEMENT_PATH_TEXT_MAX_LENGTH).join('');

/** Clamps a number-format digit option to 0–50; non-numbers give `fallback` (itself clamped). */
export const clampDigitOption = (value: unknown, fallback = 0): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  const chosen = Number.isFinite(n) ? Math.trunc(n) : Number.isFinite(fallback) ? Math.trunc(fallback) : 0;
  return Math.min(DIGIT_OPTION_MAX, Math.max(DIGIT_OPTION_MIN, chosen));
};

const UNITS: ReadonlyArray<readonly [ms: number, singular: string, plural: string]> = [
  [365 * 24 * 60 * 60 * 1000, 'year', 'years'],
  [30 * 24 * 60 * 60 * 1000, 'month', 'months'],
  [7 * 24 * 60 * 60 * 1000, 'week', 'weeks'],
  [24 * 60 * 60 * 1000, 'day', 'days'],
  [60 * 60 * 1000, 'hour', 'hours'],
  [60 * 1000, 'minute', 'minutes'],
];

/**
 * 'Time since' text for an epoch-ms timestamp (number or numeric string), e.g. '3 days ago'.
 * The spec shows only 'Invalid date.'; the wording of valid values is ours: the largest whole
 * unit, 'just now' under a minute, and future times (clock skew) also read 'just now'.
 */
export const timeSince = (timestamp: unknown, now: number): string => {
  const then =
    typeof timestamp === 'number'
      ? timestamp
      : typeof timestamp === 'string' && timestamp.trim() !== ''
        ? Number(timestamp)
        : NaN;
  if (!Number.isFinite(then) || !Number.isFinite(now)) return INVALID_DATE_MESSAGE;
  const elapsed = now - then;
  for (const [unitMs, singular, plural] of UNITS) {
    const count = Math.floor(elapsed / unitMs);
    if (count >= 1) return `${count} ${count === 1 ? singular : plural} ago`;
  }
  return 'just now';
};
