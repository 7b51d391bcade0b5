import { describe, expect, it } from 'vitest';
import { isSignedIn, shouldLoadCartAtStart, type CartLoadCookies } from './cartLoad';

const userInfo = (json: string): string => encodeURIComponent(json);

describe('shouldLoadCartAtStart (§4: signed in, hasCart true, or a cart cookie)', () => {
  it.each<[string, CartLoadCookies, boolean]>([
    ['no cookies', {}, false],
    ['hasCart true', { hasCart: 'true' }, true],
    ['hasCart false', { hasCart: 'false' }, false],
    ['hasCart null', { hasCart: null }, false],
    ['cart cookie present', { cartCookie: true }, true],
    ['cart cookie absent', { cartCookie: false }, false],
    ['signed in', { siteUserInfo: userInfo('{"authenticated":true,"siteUserId":"u1"}') }, true],
    ['signed in (string flag)', { siteUserInfo: userInfo('{"authenticated":"true"}') }, true],
    ['signed out', { siteUserInfo: userInfo('{"authenticated":false}') }, false],
    ['JSON null', { siteUserInfo: 'null' }, false],
    ['broken URL encoding', { siteUserInfo: '%E0%A4%A' }, false],
    ['not JSON', { siteUserInfo: 'not json' }, false],
    ['signed out but hasCart', { siteUserInfo: userInfo('{"authenticated":false}'), hasCart: 'true' }, true],
  ])('%s → %s', (_, cookies, expected) => {
    expect(shouldLoadCartAtStart(cookies)).toBe(expected);
  });

  it('isSignedIn reads a missing cookie as signed out', () => {
    expect(isSignedIn(undefined)).toBe(false);
    expect(isSignedIn('')).toBe(false);
  });
});
