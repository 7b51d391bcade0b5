import { describe, expect, it } from 'vitest';
import { isCartClaim } from './cartClaim';

describe('the cart claim (docs/api.md)', () => {
  it('is 128 random bits in base64url (22 characters); anything else is no claim', () => {
    expect(isCartClaim('0123456789abcdefABCD-_')).toBe(true);
    expect(isCartClaim('0123456789abcdefABCD-')).toBe(false);
    expect(isCartClaim('0123456789abcdefABCD-__')).toBe(false);
    expect(isCartClaim('0123456789abcdefABCD+/')).toBe(false);
    expect(isCartClaim('0123456789abcdefABCD-\n')).toBe(false);
    expect(isCartClaim('')).toBe(false);
    expect(isCartClaim(null)).toBe(false);
    expect(isCartClaim(1234567890)).toBe(false);
  });
});
