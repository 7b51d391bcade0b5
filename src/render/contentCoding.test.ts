import { describe, expect, it } from 'vitest';
import { etagMatches, negotiateContentCoding } from './contentCoding';

describe('negotiateContentCoding (RFC 9110 §12.5.3)', () => {
  it.each([
    // What browsers send: brotli, the smallest.
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
    ['zstd, deflate', 'identity'],
    ['*', 'br'],
    ['identity', 'identity'],
  ] as const)('%s → %s', (header, coding) => {
    expect(negotiateContentCoding(header)).toBe(coding);
  });

  it('sends no coding when none is asked for, or the header is empty', () => {
    expect(negotiateContentCoding(undefined)).toBe('identity');
    expect(negotiateContentCoding('')).toBe('identity');
    expect(negotiateContentCoding('  ')).toBe('identity');
  });

  it('follows the weights: the highest wins, q=0 refuses, ties go to br then gzip', () => {
    expect(negotiateContentCoding('br;q=0.5, gzip')).toBe('gzip');
    expect(negotiateContentCoding('br;q=0.9, gzip;q=0.8')).toBe('br');
    expect(negotiateContentCoding('gzip;q=1.0, br;q=1')).toBe('br');
    expect(negotiateContentCoding('br;q=0, gzip;q=0.1')).toBe('gzip');
    expect(negotiateContentCoding('br; q=0 , gzip ; Q=0.001')).toBe('gzip');
    expect(negotiateContentCoding('*;q=0.5, gzip')).toBe('gzip');
    expect(negotiateContentCoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(negotiateContentCoding('identity;q=1, gzip;q=0.5')).toBe('identity');
  });

  it('keeps identity acceptable unless refused, ranked below every coding named', () => {
    expect(negotiateContentCoding('gzip;q=0.5')).toBe('gzip');
    expect(negotiateContentCoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(negotiateContentCoding('identity;q=0, gzip')).toBe('gzip');
    expect(negotiateContentCoding('*;q=0, identity')).toBe('identity');
  });

  it('finds nothing acceptable (406) when identity is refused and nothing else is offered', () => {
    expect(negotiateContentCoding('identity;q=0')).toBeNull();
    expect(negotiateContentCoding('*;q=0')).toBeNull();
    expect(negotiateContentCoding('deflate, identity;q=0')).toBeNull();
    expect(negotiateContentCoding('br;q=0, gzip;q=0, identity;q=0')).toBeNull();
  });

  it('ignores an element with a malformed weight, and empty elements', () => {
    expect(negotiateContentCoding('br;q=2, gzip')).toBe('gzip');
    expect(negotiateContentCoding('br;q=abc')).toBe('identity');
    expect(negotiateContentCoding('br;q=0.0001, gzip;q=0.5')).toBe('gzip');
    expect(negotiateContentCoding(',, gzip ,')).toBe('gzip');
    expect(negotiateContentCoding('identity;q=x')).toBe('identity');
  });
});

describe('etagMatches (If-None-Match, weak comparison)', () => {
  const etag = '"abc-gzip"';
  it('matches the same tag, weak or strong, alone or in a list, and *', () => {
    expect(etagMatches('"abc-gzip"', etag)).toBe(true);
    expect(etagMatches('W/"abc-gzip"', etag)).toBe(true);
    expect(etagMatches('"x", "abc-gzip"', etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
  });
  it('does not match another representation of the same page, nothing, or a fragment', () => {
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches('"abc"', etag)).toBe(false);
    expect(etagMatches('"abc-br"', etag)).toBe(false);
    expect(etagMatches('abc-gzip', etag)).toBe(false);
    expect(etagMatches('', etag)).toBe(false);
  });
});
