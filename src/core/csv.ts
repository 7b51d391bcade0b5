/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF lines, quotes doubled), safe to open in a spreadsheet: a cell that
 * starts with = + - @, a tab or a carriage return is prefixed with an apostrophe, so that a shopper's answer is never
 * read as a formula (CSV injection).
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export const csvCell = (value: string): string => {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const csvLine = (cells: readonly string[]): string => cells.map(csvCell).join(',');

export const toCsv = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [header, ...rows].map(csvLine).join('\r\n') + '\r\n';
