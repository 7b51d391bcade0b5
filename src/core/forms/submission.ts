/** Form submission messages of spec §8 and the mapping of a failed SaveFormSubmission answer to what the shopper sees. */

export const FORM_SUBMISSION_MESSAGES = {
  submitting: 'Submitting…',
  processingError: 'Error processing form submission. Please reload and try again.',
  unknownError: 'Unknown error, please try again later.',
  captchaIncomplete: 'Complete CAPTCHA before submitting.',
  noSubmissionKey: 'Could not get a form submission key, please try again later.',
  unparsableFields: 'Could not parse the form fields, please check your entries.',
  invalidFields: 'One or more fields is invalid, please check your entries.',
  /** Shown above the form. */
  problemAbove: 'Your form has encountered a problem. Please scroll down to review.',
  /** Shown below the form. */
  problemBelow: 'Your form has encountered a problem. Please scroll up to review.',
} as const;

export const FORM_STATUS_MESSAGES = {
  401: 'Unable to submit form. Please try again later.',
  404: 'This form has not been configured yet.',
  429: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
  500: 'Unable to send form. Please try again later.',
} as const satisfies Record<number, string>;

export type SubmissionFailure =
  { kind: 'fields'; message: string; fieldErrors: Record<string, string> } | { kind: 'form'; message: string };

const readFieldErrors = (errors: unknown): Record<string, string> | null => {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return null;
  const fieldErrors: Record<string, string> = {};
  for (const [id, message] of Object.entries(errors)) {
    if (typeof message === 'string' && message !== '') fieldErrors[id] = message;
  }
  return Object.keys(fieldErrors).length > 0 ? fieldErrors : null;
};

/**
 * What a failed submission shows, from the HTTP status and the answer body. 401, 404, 429 and
 * 500 have fixed texts. A 400 with data.errors marks each field (with the 'fields invalid' text
 * as the general message); anything else shows data.error, or the unknown-error text when the
 * server sent none (a proxy's HTML error page, a network failure with status 0).
 */
export const submissionFailure = (status: number, data: unknown): SubmissionFailure => {
  if (Object.hasOwn(FORM_STATUS_MESSAGES, status)) {
    return { kind: 'form', message: FORM_STATUS_MESSAGES[status as keyof typeof FORM_STATUS_MESSAGES] };
  }
  const body = typeof data === 'object' && data !== null ? (data as { errors?: unknown; error?: unknown }) : {};
  if (status === 400) {
    const fieldErrors = readFieldErrors(body.errors);
    if (fieldErrors) return { kind: 'fields', message: FORM_SUBMISSION_MESSAGES.invalidFields, fieldErrors };
  }
  const message =
    typeof body.error === 'string' && body.error.trim() !== '' ? body.error : FORM_SUBMISSION_MESSAGES.unknownError;
  return { kind: 'form', message };
};

/** The texts around a failed form (above and below it); newsletter forms show none (§8). */
export const surroundingErrorMessages = (isNewsletter: boolean): { above: string; below: string } | null =>
  isNewsletter ? null : { above: FORM_SUBMISSION_MESSAGES.problemAbove, below: FORM_SUBMISSION_MESSAGES.problemBelow };

/** Enterprise CAPTCHA action names of §7, one per kind of form block. */
export const CAPTCHA_ACTIONS = {
  formBlock: 'FORM_BLOCK_SUBMISSION',
  newsletterBlock: 'NEWSLETTER_BLOCK_SUBMISSION',
  productWaitlist: 'PRODUCT_WAITLIST_SUBMISSION',
  promoPopup: 'PROMO_POPUP_SUBMISSION',
} as const;
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[keyof typeof CAPTCHA_ACTIONS];
