import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_ACTIONS,
  FORM_STATUS_MESSAGES,
  FORM_SUBMISSION_MESSAGES,
  submissionFailure,
  surroundingErrorMessages,
} from './submission';

describe('form submission messages (§8)', () => {
  it('are verbatim', () => {
    expect(Object.values(FORM_SUBMISSION_MESSAGES)).toEqual([
      'Submitting…',
      'Error processing form submission. Please reload and try again.',
      'Unknown error, please try again later.',
      'Complete CAPTCHA before submitting.',
      'Could not get a form submission key, please try again later.',
      'Could not parse the form fields, please check your entries.',
      'One or more fields is invalid, please check your entries.',
      'Your form has encountered a problem. Please scroll down to review.',
      'Your form has encountered a problem. Please scroll up to review.',
    ]);
    expect(FORM_STATUS_MESSAGES).toEqual({
      401: 'Unable to submit form. Please try again later.',
      404: 'This form has not been configured yet.',
      429: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
      500: 'Unable to send form. Please try again later.',
    });
  });

  it.each([
    [401, { error: 'ignored' }, 'Unable to submit form. Please try again later.'],
    [404, null, 'This form has not been configured yet.'],
    [429, {}, 'Unable to submit form. Submission rate limit exceeded. Please try again later.'],
    [500, { error: 'stack' }, 'Unable to send form. Please try again later.'],
    [403, { error: 'Forbidden here' }, 'Forbidden here'],
    [400, { error: 'Bad key' }, 'Bad key'],
    [400, { errors: {}, error: 'Bad key' }, 'Bad key'],
    [400, { errors: 'oops' }, 'Unknown error, please try again later.'],
    [502, '<html>', 'Unknown error, please try again later.'],
    [0, undefined, 'Unknown error, please try again later.'],
    [503, { error: '  ' }, 'Unknown error, please try again later.'],
  ])('status %s with %j → %s', (status, data, message) => {
    expect(submissionFailure(status, data)).toEqual({ kind: 'form', message });
  });

  it('marks fields on a 400 with data.errors', () => {
    expect(submissionFailure(400, { errors: { email: 'Taken', name: '', age: 3 } })).toEqual({
      kind: 'fields',
      message: 'One or more fields is invalid, please check your entries.',
      fieldErrors: { email: 'Taken' },
    });
  });

  it('shows surrounding errors except for newsletter forms', () => {
    expect(surroundingErrorMessages(false)).toEqual({
      above: 'Your form has encountered a problem. Please scroll down to review.',
      below: 'Your form has encountered a problem. Please scroll up to review.',
    });
    expect(surroundingErrorMessages(true)).toBeNull();
  });

  it('has the CAPTCHA action names of §7', () => {
    expect(Object.values(CAPTCHA_ACTIONS)).toEqual([
      'FORM_BLOCK_SUBMISSION',
      'NEWSLETTER_BLOCK_SUBMISSION',
      'PRODUCT_WAITLIST_SUBMISSION',
      'PROMO_POPUP_SUBMISSION',
    ]);
  });
});
