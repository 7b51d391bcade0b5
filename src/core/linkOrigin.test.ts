import { describe, expect, it } from 'vitest';
import { linkOrigin, ownerOrigin, storedLinkOrigin } from './linkOrigin';

describe('linkOrigin: e-mail links never follow a forged Host', () => {
  it('takes PUBLIC_URL when it names the site or the site lists no domains', () => {
    expect(linkOrigin([], 'http', 'evil.example', 'https://shop.example/')).toBe('https://shop.example');
    expect(linkOrigin(['shop.example'], 'http', 'evil.example', 'https://shop.example')).toBe('https://shop.example');
    expect(linkOrigin(['localhost', '127.0.0.1'], 'http', 'localhost:3000', 'http://localhost:8080')).toBe(
      'http://localhost:8080',
    );
    // Another site's PUBLIC_URL is not this one's address.
    expect(linkOrigin(['other.example'], 'https', 'evil.example', 'https://shop.example')).toBe(
      'https://other.example',
    );
    // Not an http(s) URL: as if unset.
    expect(linkOrigin([], 'http', 'evil.example', 'javascript:alert(1)')).toBe('http://localhost');
    // Not a URL at all (a typo in the setting): as if unset, never an error.
    expect(linkOrigin(['shop.example'], 'https', 'shop.example', 'shop example')).toBe('https://shop.example');
  });

  it('keeps the host used when the site lists it, a local host with its port, and falls back to the first domain', () => {
    expect(linkOrigin(['shop.example', 'www.shop.example'], 'https', 'WWW.shop.example')).toBe(
      'https://www.shop.example',
    );
    expect(linkOrigin(['shop.example'], 'https', 'shop.example:6666')).toBe('https://shop.example');
    expect(linkOrigin(['localhost', '127.0.0.1'], 'http', 'localhost:3000')).toBe('http://localhost:3000');
    expect(linkOrigin([], 'http', '127.0.0.1:4000')).toBe('http://127.0.0.1:4000');
    expect(linkOrigin(['localhost', '127.0.0.1'], 'http', 'evil.example')).toBe('http://localhost');
    expect(linkOrigin(['shop.example'], 'http', 'evil.example')).toBe('https://shop.example');
    expect(linkOrigin([], 'https', 'evil.example')).toBe('http://localhost');
    expect(linkOrigin([], 'http', 'localhost.evil.example')).toBe('http://localhost');
    expect(linkOrigin([], 'http', '')).toBe('http://localhost');
  });

  it('reads a stored origin: kept when it is the site’s own, else the site’s address', () => {
    expect(storedLinkOrigin('http://localhost:3000', ['localhost', '127.0.0.1'])).toBe('http://localhost:3000');
    expect(storedLinkOrigin('https://www.shop.example', ['shop.example', 'www.shop.example'])).toBe(
      'https://www.shop.example',
    );
    expect(storedLinkOrigin('http://evil.example', ['shop.example'])).toBe('https://shop.example');
    expect(storedLinkOrigin('http://evil.example', [])).toBe('http://localhost');
    expect(storedLinkOrigin('http://evil.example', [], 'https://shop.example')).toBe('https://shop.example');
    expect(storedLinkOrigin('http://localhost:3000', ['localhost'], 'https://localhost')).toBe('https://localhost');
    expect(storedLinkOrigin('not a url', ['shop.example'])).toBe('https://shop.example');
  });
});

describe('ownerOrigin: the report link printed for the owner', () => {
  it('takes PUBLIC_URL for this site, else the first public domain over https, else the local server on PORT', () => {
    expect(ownerOrigin(['shop.example'], 3000, 'https://shop.example')).toEqual({
      origin: 'https://shop.example',
      source: 'public-url',
    });
    expect(ownerOrigin([], 3000, 'http://shop.example:8080/')).toEqual({
      origin: 'http://shop.example:8080',
      source: 'public-url',
    });
    expect(ownerOrigin(['localhost', 'shop.example'], 3000)).toEqual({
      origin: 'https://shop.example',
      source: 'domain',
    });
    expect(ownerOrigin(['other.example'], 3000, 'https://shop.example')).toEqual({
      origin: 'https://other.example',
      source: 'domain',
    });
    expect(ownerOrigin(['localhost', '127.0.0.1'], 3000)).toEqual({ origin: 'http://localhost:3000', source: 'local' });
    expect(ownerOrigin(['127.0.0.1'], 4321)).toEqual({ origin: 'http://127.0.0.1:4321', source: 'local' });
    expect(ownerOrigin([], 8080)).toEqual({ origin: 'http://localhost:8080', source: 'local' });
    expect(ownerOrigin([], 0)).toEqual({ origin: 'http://localhost', source: 'local' });
  });
});
