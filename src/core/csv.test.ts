import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, toCsv } from './csv';

describe('CSV (RFC 4180, safe to open in a spreadsheet)', () => {
  it('never lets a cell start a formula: = + - @, a tab or a carriage return get an apostrophe first', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx"]);
    expect(csvCell('\rx')).toBe('"\'\rx"');
    // Only the first character counts.
    expect(csvCell('1+1=2')).toBe('1+1=2');
  });

  it('quotes a cell with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('')).toBe('');
  });

  it('writes comma-separated lines ending in CRLF, the header first', () => {
    expect(csvLine(['a', 'b,c', '=d'])).toBe('a,"b,c",\'=d');
    expect(
      toCsv(
        ['E-mail', 'Status'],
        [
          ['ann@example.com', 'confirmed'],
          ['=cmd|x', 'a "b"'],
        ],
      ),
    ).toBe('E-mail,Status\r\nann@example.com,confirmed\r\n\'=cmd|x,"a ""b"""\r\n');
    expect(toCsv(['E-mail'], [])).toBe('E-mail\r\n');
  });
});
