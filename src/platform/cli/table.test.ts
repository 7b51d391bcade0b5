import { describe, expect, it } from 'vitest';
import { formatTable, printable } from './table';

describe('formatTable', () => {
  it('aligns columns under their headers, numbers to the right, without trailing spaces', () => {
    const lines = formatTable(
      [{ header: 'ID' }, { header: 'N', align: 'right' }, { header: 'NAME' }],
      [
        ['a', '1', 'Ada'],
        ['bbbb', '120', ''],
      ],
    );
    expect(lines).toEqual(['ID      N  NAME', 'a       1  Ada', 'bbbb  120']);
  });

  it('cuts long cells and shows control characters as ?', () => {
    const lines = formatTable(
      [{ header: 'TO', maxWidth: 6 }, { header: 'S' }],
      [['abcdefghij', 'x\u001b[2J\u202ey\r\nz']],
    );
    expect(lines).toEqual(['TO      S', 'abcde…  x?[2J?y z']);
  });
});

describe('printable', () => {
  it('keeps line feeds and tabs of a body when asked, and nothing else unprintable', () => {
    expect(printable('a\r\nb\tc\u0007\u009b', { keepLines: true })).toBe('a\nb\tc??');
    expect(printable('a\nb\tc')).toBe('a?b?c');
  });
});
