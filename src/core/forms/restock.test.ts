import { describe, expect, it } from 'vitest';
import { RESTOCK_MESSAGES, restockFailureMessage, restockSuccessMessage, validateRestockEmail } from './restock';

describe('restock form (§5, §8)', () => {
  it('has the messages verbatim', () => {
    expect(RESTOCK_MESSAGES).toEqual({
      emailBlank: 'Email cannot be blank',
      emailInvalid: 'Email is invalid',
      unableToSubmit: 'Unable to submit form. Please try again later.',
      signedUp: 'Signed up!',
      siteKeyMissing: 'Enterprise V3 ReCaptcha site key not found',
    });
  });

  it.each([
    ['', { ok: false, error: 'Email cannot be blank' }],
    ['   ', { ok: false, error: 'Email cannot be blank' }],
    [undefined, { ok: false, error: 'Email cannot be blank' }],
    ['ada', { ok: false, error: 'Email is invalid' }],
    [' ada@example.com ', { ok: true, value: 'ada@example.com' }],
  ])('validateRestockEmail(%j)', (value, expected) => {
    expect(validateRestockEmail(value)).toEqual(expected);
  });

  it('uses the configured success text or Signed up!', () => {
    expect(restockSuccessMessage()).toBe('Signed up!');
    expect(restockSuccessMessage('  ')).toBe('Signed up!');
    expect(restockSuccessMessage("We'll email you")).toBe("We'll email you");
  });

  it('uses the server message or the generic failure text', () => {
    expect(restockFailureMessage({ message: 'Already signed up' })).toBe('Already signed up');
    expect(restockFailureMessage({ message: '' })).toBe('Unable to submit form. Please try again later.');
    expect(restockFailureMessage(null)).toBe('Unable to submit form. Please try again later.');
  });
});
