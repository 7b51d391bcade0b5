import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { URL_INVALID_MESSAGE, isUrl, parseUrl, validateUrl } from './url';

describe('url', () => {
  it.each([
    ['https://www.example.com', true],
    ['http://example.com/path?q=1#top', true],
    ['example.com', true],
    ['www.example.com/shop', true],
    ['https://example.com:1', true],
    ['https://example.com:65535/x', true],
    ['https://user:pass@example.com', true],
    ['https://192.168.0.1/', true],
    ['https://[2001:db8::1]:8080/', true],
    ['https://bücher.de', true],
    ['https://xn--bcher-kva.de', true],
    ['https://example.com.', true],
    ['https://example.com:0', false],
    ['https://example.com:65536', false],
    ['https://example.com:', false],
    ['https://example.com:123456', false],
    ['ftp://example.com', false],
    ['javascript:alert(1)', false],
    ['mailto:ada@example.com', false],
    ['https://localhost', false],
    ['https://-bad.com', false],
    ['https://exa mple.com', false],
    ['https://', false],
    ['https://example.c', false],
    ['https://[::1', false],
    ['', false],
  ])('isUrl(%j) → %s', (value, expected) => {
    expect(isUrl(value)).toBe(expected);
  });

  it('allows 2083 characters and no more', () => {
    const base = 'https://example.com/';
    expect(isUrl(base + 'a'.repeat(2083 - base.length))).toBe(true);
    expect(parseUrl(base + 'a'.repeat(2084 - base.length))).toEqual({ ok: false, error: 'too-long' });
    // The added scheme counts too.
    const bare = 'example.com/';
    expect(parseUrl(bare + 'a'.repeat(2083 - bare.length))).toEqual({ ok: false, error: 'too-long' });
  });

  it('reports what was wrong', () => {
    expect(parseUrl(5)).toEqual({ ok: false, error: 'format' });
    expect(parseUrl(' ')).toEqual({ ok: false, error: 'empty' });
    expect(parseUrl('data:text/html,hi')).toEqual({ ok: false, error: 'scheme' });
    expect(parseUrl('https://example.com:99999')).toEqual({ ok: false, error: 'port' });
    expect(parseUrl('https://bad_host')).toEqual({ ok: false, error: 'host' });
    expect(parseUrl('https://a@b@c.com')).toEqual({ ok: false, error: 'host' });
  });

  it('normalises scheme-less addresses and reads the port', () => {
    expect(parseUrl('Example.com:8080/a')).toEqual({
      ok: true,
      value: { href: 'https://Example.com:8080/a', scheme: 'https', host: 'example.com', port: 8080 },
    });
    expect(parseUrl('HTTP://example.com')).toMatchObject({ ok: true, value: { scheme: 'http', port: null } });
  });

  it('validateUrl accepts optional empty and uses the message', () => {
    expect(validateUrl('')).toEqual({ ok: true, value: '' });
    expect(validateUrl(undefined)).toEqual({ ok: true, value: '' });
    expect(validateUrl('shop.example.com')).toEqual({ ok: true, value: 'https://shop.example.com' });
    expect(validateUrl('nope')).toEqual({ ok: false, error: URL_INVALID_MESSAGE });
    expect(URL_INVALID_MESSAGE).toBe('URL is not valid. URLs should follow the format https://www.example.com.');
  });

  it('never throws on any input', () => {
    fc.assert(fc.property(fc.anything(), (value) => typeof validateUrl(value).ok === 'boolean'));
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (value) => typeof isUrl(value) === 'boolean'));
  });

  it('accepts generated web URLs with a dotted host', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
        (url) => {
          const host = /^https?:\/\/(?:[^@/]*@)?([^/:?#]+)/.exec(url)?.[1] ?? '';
          fc.pre(url.length <= 2083 && /\.[a-z]{2,}$/i.test(host) && !/[\s]/.test(url));
          expect(parseUrl(url).ok).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
