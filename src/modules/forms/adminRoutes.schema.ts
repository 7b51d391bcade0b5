/** Form submissions and newsletter addresses at /admin/gathered and /api/admin/gathered, described (docs/openapi.json). */
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const formParams = z.object({ formId: z.string().min(1).max(200) });
export const pageQuery = z.object({ offset: z.coerce.number().int().min(0).max(1_000_000).default(0) });
export const newsletterQuery = pageQuery.extend({
  status: z.enum(['pending', 'confirmed'], { message: "must be 'pending' or 'confirmed'" }).optional(),
});

const readRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks gatherings.read.'),
};
const pageAnswers = {
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer('A role without gatherings.read.'),
};
const csvAnswer = (description: string) => ({
  description,
  content: {
    'text/csv': { schema: z.string().describe('RFC 4180, CRLF lines, formula-safe cells (src/core/csv.ts).') },
  },
});

const formSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string().describe("form, newsletter, waitlist; 'removed' for a form no longer in the site file."),
  submissions: z.number().int(),
  lastAt: z.string().nullable(),
  inSite: z.boolean(),
});
const submission = z.object({
  id: z.string(),
  createdAt: z.string(),
  pagePath: z.string().nullable(),
  answers: z.array(z.object({ title: z.string(), lines: z.array(z.string()) })),
});
const subscriber = z.object({
  email: z.string(),
  status: z.enum(['pending', 'confirmed']),
  sourceFormId: z.string().nullable(),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
});

export const gatheredHomePage = pageRoute(
  'adminGatheredPage',
  'What the storefront gathers: the forms (gatherings.read)',
  {
    tags: ['admin'],
    response: { ...pageAnswers },
  },
);
export const formsPage = pageRoute('adminFormsPage', "The site's forms and their submission counts (gatherings.read)", {
  tags: ['admin'],
  response: { ...pageAnswers },
});
export const formSubmissionsPage = pageRoute(
  'adminFormSubmissionsPage',
  "One form's submissions, newest first (gatherings.read)",
  {
    tags: ['admin'],
    params: formParams,
    querystring: pageQuery,
    response: { ...pageAnswers, 404: htmlAnswer('No such form.') },
  },
);
export const formSubmissionsCsvPage = pageRoute(
  'adminFormSubmissionsCsv',
  "One form's submissions as CSV, oldest first: the columns of `vitrine submissions --format csv` (gatherings.read)",
  { tags: ['admin'], params: formParams, response: { 200: csvAnswer('The CSV file.'), ...pageAnswers } },
);
export const newsletterPage = pageRoute('adminNewsletterPage', 'Newsletter addresses, newest first (gatherings.read)', {
  tags: ['admin'],
  querystring: newsletterQuery,
  response: { ...pageAnswers },
});
export const newsletterCsvPage = pageRoute(
  'adminNewsletterCsv',
  'Newsletter addresses as CSV: the columns of `vitrine subscribers --format csv` (gatherings.read)',
  { tags: ['admin'], querystring: newsletterQuery, response: { 200: csvAnswer('The CSV file.'), ...pageAnswers } },
);

export const listFormsRoute = describeRoute({
  operationId: 'adminListForms',
  summary: "The site's forms with their submission counts (gatherings.read)",
  tags: ['admin'],
  response: { 200: jsonAnswer('The forms.', z.object({ forms: z.array(formSummary) })), ...readRefusals },
});
export const listSubmissionsRoute = describeRoute({
  operationId: 'adminListFormSubmissions',
  summary: "One form's submissions, newest first, 50 a page (gatherings.read)",
  tags: ['admin'],
  params: formParams,
  querystring: pageQuery,
  response: {
    200: jsonAnswer(
      'A page.',
      z.object({ submissions: z.array(submission), offset: z.number().int(), hasNextPage: z.boolean() }),
    ),
    ...readRefusals,
    404: errorAnswer('form-not-found: no such form, and no submissions of it.'),
  },
});
export const submissionsCsvRoute = describeRoute({
  operationId: 'adminFormSubmissionsCsvApi',
  summary: "One form's submissions as CSV (gatherings.read)",
  tags: ['admin'],
  params: formParams,
  response: { 200: csvAnswer('The CSV file.'), ...readRefusals, 404: errorAnswer('form-not-found.') },
});
export const listNewsletterRoute = describeRoute({
  operationId: 'adminListNewsletter',
  summary: 'Newsletter addresses, newest first, 50 a page (gatherings.read)',
  tags: ['admin'],
  querystring: newsletterQuery,
  response: {
    200: jsonAnswer(
      'A page.',
      z.object({
        subscribers: z.array(subscriber),
        offset: z.number().int(),
        hasNextPage: z.boolean(),
      }),
    ),
    ...readRefusals,
  },
});
export const newsletterCsvRoute = describeRoute({
  operationId: 'adminNewsletterCsvApi',
  summary: 'Newsletter addresses as CSV (gatherings.read)',
  tags: ['admin'],
  querystring: newsletterQuery,
  response: { 200: csvAnswer('The CSV file.'), ...readRefusals },
});
