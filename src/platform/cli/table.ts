/**
 * How the CLI prints lists: aligned columns under a header line, long cells cut with '…'. Values come from the
 * database — shoppers typed some of them — so control characters are shown as '?' and can never move the cursor,
 * clear the screen or rewrite a line of the terminal.
 */

export interface Column {
  header: string;
  /** Longer cells are cut to this many characters (the last one '…'). */
  maxWidth?: number;
  align?: 'left' | 'right';
}

// C0 and C1 controls, and the bidirectional overrides that make text read in another order than it is stored.
const UNPRINTABLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
const UNPRINTABLE_KEEP_LINES = /[^\P{Cc}\n\t]|[\u202a-\u202e\u2066-\u2069]/gu;

/** The text with every control character shown as '?'; `keepLines` keeps line feeds and tabs (a message body). */
export const printable = (text: string, options: { keepLines?: boolean } = {}): string =>
  text
    .replace(/\r\n/g, options.keepLines ? '\n' : ' ')
    .replace(options.keepLines ? UNPRINTABLE_KEEP_LINES : UNPRINTABLE, '?');

const width = (text: string): number => [...text].length;

const cut = (text: string, max: number | undefined): string => {
  if (max === undefined || width(text) <= max) return text;
  return `${[...text].slice(0, Math.max(max - 1, 0)).join('')}…`;
};

/** The table as lines: the header, then one line per row. The last column is not padded (no trailing spaces). */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const cells = rows.map((row) => columns.map((column, i) => cut(printable(row[i] ?? ''), column.maxWidth)));
  const widths = columns.map((column, i) => Math.max(width(column.header), ...cells.map((row) => width(row[i] ?? ''))));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - width(value));
        if (columns[i]?.align === 'right') return pad + value;
        return i === values.length - 1 ? value : value + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)];
}
