import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMAIL_INVALID_MESSAGE, emailInvalidMessage, isEmail, validateEmail } from './email';

describe('email', () => {
  it('has the §5 message with our example', () => {
    expect(EMAIL_INVALID_MESSAGE).toBe(
      'Email is not valid. Email addresses should follow the format email@example.com.',
    );
    expect(emailInvalidMessage('name@shop.test')).toBe(
      'Email is not valid. Email addresses should follow the format name@shop.test.',
    );
  });

  it.each([
    ['ada@example.com', true],
    ['  ada@example.com  ', true],
    ['a.b+tag@mail.example.co.uk', true],
    ['a@b.c', true],
    ['', false],
    ['ada', false],
    ['ada@', false],
    ['@example.com', false],
    ['ada@example', false],
    ['ada@@example.com', false],
    ['ada lovelace@example.com', false],
    ['ada@example..com', false],
    ['ada@.com', false],
    [`${'a'.repeat(245)}@example.com`, false], // 257 characters
    [`${'a'.repeat(244)}@example.com`, true], // 256 characters
  ])('isEmail(%j) → %s', (value, expected) => {
    expect(isEmail(value)).toBe(expected);
  });

  it('rejects non-strings', () => {
    expect(isEmail(42)).toBe(false);
    expect(isEmail(null)).toBe(false);
  });

  it('accepts optional empty values and returns the trimmed address', () => {
    expect(validateEmail('')).toEqual({ ok: true, value: '' });
    expect(validateEmail('   ')).toEqual({ ok: true, value: '' });
    expect(validateEmail(undefined)).toEqual({ ok: true, value: '' });
    expect(validateEmail(null)).toEqual({ ok: true, value: '' });
    expect(validateEmail(' ada@example.com ')).toEqual({ ok: true, value: 'ada@example.com' });
  });

  it('rejects bad values with the §5 message', () => {
    expect(validateEmail('nope')).toEqual({ ok: false, error: EMAIL_INVALID_MESSAGE });
    expect(validateEmail(12)).toEqual({ ok: false, error: EMAIL_INVALID_MESSAGE });
  });

  it('never throws on any input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = validateEmail(value);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (value) => typeof isEmail(value) === 'boolean'));
  });

  it('accepts generated addresses of valid length', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        fc.pre(address.length <= 256 && /\.[^.]+$/.test(address.split('@')[1] ?? ''));
        expect(isEmail(address)).toBe(true);
      }),
    );
  });
});
