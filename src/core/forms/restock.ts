/** Restock (back in stock) sign-up form texts of spec §5 and §8. */
import { isEmail } from '../email';
import { err, ok, type Result } from '../result';

export const RESTOCK_MESSAGES = {
  emailBlank: 'Email cannot be blank',
  emailInvalid: 'Email is invalid',
  unableToSubmit: 'Unable to submit form. Please try again later.',
  signedUp: 'Signed up!',
  siteKeyMissing: 'Enterprise V3 ReCaptcha site key not found',
} as const;

export type RestockEmailError = typeof RESTOCK_MESSAGES.emailBlank | typeof RESTOCK_MESSAGES.emailInvalid;

/** The restock e-mail is always required; the ok value is the trimmed address. Same rule as e-mail fields (§5). */
export const validateRestockEmail = (value: unknown): Result<string, RestockEmailError> => {
  const email = typeof value === 'string' ? value.trim() : '';
  if (email === '') return err(RESTOCK_MESSAGES.emailBlank);
  return isEmail(email) ? ok(email) : err(RESTOCK_MESSAGES.emailInvalid);
};

/** Success text: the site's configured text, else 'Signed up!'. */
export const restockSuccessMessage = (configured?: string | null): string =>
  configured?.trim() ? configured : RESTOCK_MESSAGES.signedUp;

/** Failure text: the server's data.message, else the generic text. */
export const restockFailureMessage = (data: unknown): string => {
  const message = typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message.trim() !== '' ? message : RESTOCK_MESSAGES.unableToSubmit;
};
