import { describe, expect, it } from 'vitest';
import {
  formatUnlockToken,
  isPasswordHash,
  isUnexpired,
  pageLockCookie,
  parseUnlockToken,
  PAGE_UNLOCK_SECONDS,
} from './pageLock';

const SIGNATURE = 'A'.repeat(43);

describe('page lock (§2 lock screen 103, protected content 105)', () => {
  it('names one cookie per page, by its id', () => {
    expect(pageLockCookie('wholesale')).toBe('vitrine-page-wholesale');
    expect(pageLockCookie('a')).not.toBe(pageLockCookie('b'));
  });

  it('reads back the token it writes', () => {
    const token = { expiresAt: 1_900_000_000, signature: SIGNATURE };
    expect(parseUnlockToken(formatUnlockToken(token))).toEqual(token);
  });

  it.each([
    undefined,
    null,
    42,
    '',
    '.',
    `x.${SIGNATURE}`,
    `1.${SIGNATURE}x`,
    `1.${SIGNATURE.slice(1)}`,
    `1.${'+'.repeat(43)}`,
    `1234567890123.${SIGNATURE}`,
    `1.${SIGNATURE}.1`,
  ])('refuses a value it never writes: %j', (value) => {
    expect(parseUnlockToken(value)).toBeNull();
  });

  it('keeps a token until its time', () => {
    const now = Date.UTC(2026, 0, 1);
    const expiresAt = now / 1000 + PAGE_UNLOCK_SECONDS;
    expect(isUnexpired({ expiresAt, signature: SIGNATURE }, now)).toBe(true);
    expect(isUnexpired({ expiresAt, signature: SIGNATURE }, expiresAt * 1000)).toBe(false);
  });

  it('tells a stored hash from a password as written', () => {
    expect(isPasswordHash('scrypt$15$8$1$salt$key')).toBe(true);
    expect(isPasswordHash('wholesale-2026')).toBe(false);
  });
});
