/**
 * The form blocks' calls and posts described (docs/openapi.json). Their answers are the form island's own shape,
 * `{ error, errors? }` (spec §7), not the API's error body; the handlers check the input by hand.
 */
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  redirectAnswer,
} from '../../platform/http/apiDescription';

const TAGS = ['forms'];
const formError = z.object({
  error: z.string().describe('The §8 text the form shows.'),
  errors: z.record(z.string(), z.string()).optional().describe('Field id → its §5 message.'),
});
const formAnswer = (description: string) => jsonAnswer(description, formError);

export const formKeyRoute = describeRoute({
  operationId: 'getFormSubmissionKey',
  summary: 'A single-use submission key (valid 1 hour)',
  tags: TAGS,
  response: { 200: jsonAnswer('A key.', z.object({ key: z.string() })) },
});

export const saveFormRoute = describeRoute({
  operationId: 'saveFormSubmission',
  summary: 'Submit a form block’s answers',
  tags: TAGS,
  body: z.object({
    key: z.string().describe('From getFormSubmissionKey.'),
    formId: z.string(),
    form: z.string().describe('JSON text: field id → value (§3 shapes).'),
    captchaKey: z.string().optional().describe("The CAPTCHA's answer (ALTCHA's payload, Turnstile's token)."),
    recaptchaEnterpriseV3Token: z.string().optional().describe('reCAPTCHA Enterprise’s token (§7).'),
    pagePath: z.string().optional(),
    placement: z.literal('promoPopup').optional(),
    productId: z.string().optional().describe('A waitlist form’s product.'),
  }),
  response: {
    200: jsonAnswer('Stored (and e-mailed / signed up, by the form’s kind).', z.object({ ok: z.literal(true) })),
    400: formAnswer(
      "'One or more fields is invalid, please check your entries.' (errors); 'Could not parse the form fields, please check your entries.'; 'Complete CAPTCHA before submitting.'",
    ),
    401: formAnswer('The key is missing, spent or expired.'),
    404: formAnswer('An unknown form.'),
    429: formAnswer(
      "'Unable to submit form. Submission rate limit exceeded. Please try again later.' (per client and form), Retry-After.",
    ),
    503: formAnswer("'Unable to send form. Please try again later.': the CAPTCHA provider could not be asked."),
  },
});

export const validateFormRoute = describeRoute({
  operationId: 'validateFormAnswers',
  summary: 'Check a form’s answers with the server’s rules',
  tags: TAGS,
  params: z.object({ formId: z.string() }),
  body: z.record(z.string(), z.unknown()).describe('Field id → value.'),
  response: {
    200: jsonAnswer('Valid.', z.object({ errors: z.object({}) })),
    400: formAnswer('Field id → its §5 message (errors), or the body is not an object (error).'),
    404: formAnswer('An unknown form.'),
  },
});

export const templateSchemaRoute = describeRoute({
  operationId: 'getTemplateSchema',
  summary: 'The custom-form template (type 9)',
  tags: TAGS,
  querystring: z.object({
    type: z
      .string()
      .regex(/^\d{1,4}$/)
      .describe('9: the custom form.'),
  }),
  response: {
    200: jsonAnswer(
      'Field kinds, their parts, the likert scale and labels, the §5 messages, the CAPTCHA action names.',
      z.object({
        type: z.literal(9),
        fieldKinds: z.array(z.string()),
        parts: z.record(z.string(), z.unknown()),
        likert: z.object({ scale: z.array(z.unknown()), labels: z.unknown() }),
        messages: z.record(z.string(), z.unknown()),
        captchaActions: z.record(z.string(), z.string()),
      }),
    ),
    400: errorAnswer('invalid-input: type is not a number.'),
    404: errorAnswer('route-not-found: another type.'),
  },
});

export const altchaChallengeRoute = describeRoute({
  operationId: 'getAltchaChallenge',
  summary: 'An ALTCHA challenge (10 minutes; a solution is accepted once)',
  tags: TAGS,
  response: {
    200: jsonAnswer(
      'The challenge, HMAC-signed with the site’s secret.',
      z.record(z.string(), z.unknown()).describe('ALTCHA’s challenge object.'),
    ),
  },
});

export const newsletterConfirmPageRoute = describeRoute({
  operationId: 'newsletterConfirmPage',
  summary: 'The newsletter confirmation link: a button (page)',
  tags: ['pages'],
  querystring: z.object({ token: z.string().optional() }),
  response: { 200: htmlAnswer('The confirm button.') },
});

export const newsletterConfirmRoute = describeRoute({
  operationId: 'confirmNewsletter',
  summary: 'Confirm a newsletter sign-up (form post)',
  tags: TAGS,
  body: formBody(z.object({ token: z.string(), crumb: z.string() })),
  response: {
    200: htmlAnswer("'Subscription confirmed'."),
    404: htmlAnswer('A spent or unknown link.'),
  },
});

export const formPostRoute = describeRoute({
  operationId: 'postFormBlock',
  summary: 'A form block posted without JavaScript, to its own page',
  description:
    'Form-encoded, with `formId`, the hidden `crumb` and the answers by field id; the page comes back with the errors or the success text. A post that names no form block of that page falls through to the 404 page.',
  tags: TAGS,
  params: z.object({ path: z.string().describe('The page’s path (any query kept).') }),
  body: formBody(z.looseObject({ formId: z.string(), crumb: z.string() })),
  response: {
    200: htmlAnswer('The page with the success text.'),
    303: redirectAnswer('To the form’s success redirect.'),
    400: htmlAnswer('The page with the errors.'),
    404: htmlAnswer('No such form block on that page.'),
    429: htmlAnswer('Over the per-form budget.'),
    503: htmlAnswer('The CAPTCHA provider could not be asked.'),
  },
});
