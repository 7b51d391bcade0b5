import { describe, expect, it } from 'vitest';
import { CRUMB_COOKIE, isCrumb, readCookie } from './crumb';

describe('the crumb (§7, §8)', () => {
  it('is 128 random bits in base64url: 22 characters of letters, digits, - and _', () => {
    expect(isCrumb('AbCdEfGhIjKlMnOpQr-_09')).toBe(true);
    expect(isCrumb('AbCdEfGhIjKlMnOpQr-_0')).toBe(false);
    expect(isCrumb('AbCdEfGhIjKlMnOpQr-_091')).toBe(false);
    // Standard base64's + and / (and its = padding) are not base64url: a forged or mangled value.
    expect(isCrumb('AbCdEfGhIjKlMnOpQr+/09')).toBe(false);
    expect(isCrumb('AbCdEfGhIjKlMnOpQr-_0=')).toBe(false);
    expect(isCrumb(' AbCdEfGhIjKlMnOpQr-_0')).toBe(false);
    expect(isCrumb(undefined)).toBe(false);
    expect(isCrumb(['AbCdEfGhIjKlMnOpQr-_09'])).toBe(false);
  });

  it('is read from a Cookie header or document.cookie by its exact name', () => {
    const header = 'cart=c1; xcrumb=wrong; crumb = AbCdEfGhIjKlMnOpQr-_09 ;theme=a=b';
    expect(readCookie(header, CRUMB_COOKIE)).toBe('AbCdEfGhIjKlMnOpQr-_09');
    // A value may hold '=': only the first one ends the name.
    expect(readCookie(header, 'theme')).toBe('a=b');
    expect(readCookie(header, 'cart')).toBe('c1');
    expect(readCookie('xcrumb=wrong; crumbs=also', CRUMB_COOKIE)).toBeNull();
    expect(readCookie('', CRUMB_COOKIE)).toBeNull();
    // A part without a name (=value) names no cookie.
    expect(readCookie('=crumb; crumb', CRUMB_COOKIE)).toBeNull();
  });

  it('takes the first of two cookies of the same name (the most specific path, as browsers send it)', () => {
    expect(readCookie('crumb=first; crumb=second', CRUMB_COOKIE)).toBe('first');
  });
});
