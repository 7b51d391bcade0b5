/** Reading one text field of a posted form (address, card) that may be anything: JSON, a form post, a forged body. */

/**
 * The field's text, trimmed, with every run of white space or control characters made one space ('' when absent).
 * Address lines are printed one per row on the confirmation page, in e-mails and on parcels, so a line break or tab
 * inside a field would break that layout. A finite number is read as its digits (a JSON client may send a postal
 * code or a CVC as a number); any other value counts as not given. Only own properties are read, so a key such as
 * 'constructor' never reaches the prototype.
 */
export const readText = (input: unknown, key: string): string => {
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, key)) return '';
  const value: unknown = (input as Record<string, unknown>)[key];
  const text =
    typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
};

/** Whether a text has more than `max` characters, counted as a shopper counts them (an emoji is one). */
export const longerThan = (text: string, max: number): boolean => {
  if (text.length <= max) return false;
  // A character is one or two UTF-16 units: beyond twice the limit it is too long without counting (and huge input
  // is never spread into an array).
  return text.length > 2 * max || Array.from(text).length > max;
};
