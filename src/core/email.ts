/** E-mail address check of spec §5, shared by form fields, the restock form and the server. */
import { err, ok, type Result } from './result';

export const EMAIL_MIN_LENGTH = 3;
export const EMAIL_MAX_LENGTH = 256;

/**
 * The spec leaves {email} open; a reserved example domain (RFC 2606) shows the shape
 * without pointing at anyone's real mailbox.
 */
export const EMAIL_FORMAT_EXAMPLE = 'email@example.com';

export const EMAIL_INVALID_TEMPLATE = 'Email is not valid. Email addresses should follow the format {email}.';

export const emailInvalidMessage = (example: string = EMAIL_FORMAT_EXAMPLE): string =>
  EMAIL_INVALID_TEMPLATE.replace('{email}', example);

/** 'Email is not valid. Email addresses should follow the format email@example.com.' */
export const EMAIL_INVALID_MESSAGE = emailInvalidMessage();

// Deliberately simple (§5): something, one @, a dotted domain, no spaces. Real deliverability is
// the mail server's job; a stricter pattern rejects valid addresses shoppers actually use.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** True for a trimmed value of 3–256 characters that matches the simple pattern. Never throws. */
export const isEmail = (value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  const email = value.trim();
  // Length first: it also keeps the pattern's work bounded.
  if (email.length < EMAIL_MIN_LENGTH || email.length > EMAIL_MAX_LENGTH) return false;
  return EMAIL_PATTERN.test(email);
};

export type EmailCheck = Result<string, typeof EMAIL_INVALID_MESSAGE>;

/**
 * Checks an optional e-mail field: empty (after trimming) is accepted as '' — whether the field
 * is required is the form's rule, not this one. The ok value is the trimmed address.
 */
export const validateEmail = (value: unknown): EmailCheck => {
  if (value === undefined || value === null) return ok('');
  if (typeof value !== 'string') return err(EMAIL_INVALID_MESSAGE);
  const email = value.trim();
  if (email === '') return ok('');
  return isEmail(email) ? ok(email) : err(EMAIL_INVALID_MESSAGE);
};
