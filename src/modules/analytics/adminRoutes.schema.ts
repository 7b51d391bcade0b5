/** The owner's report (/admin/report and GET /api/admin/report) described (docs/openapi.json). */
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

/** The periods the page offers, in days. */
export const REPORT_PERIODS = ['7', '30', '90'] as const;
export const DEFAULT_REPORT_DAYS = 30;

export const adminReportQuery = z.object({
  days: z.enum(REPORT_PERIODS, { message: 'must be 7, 30 or 90' }).optional(),
});

export const adminReportApiQuery = z.object({
  days: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number from 1 to 3650')
    .refine((d) => Number(d) >= 1 && Number(d) <= 3650, 'must be a whole number from 1 to 3650')
    .optional(),
});

export const adminReportPage = pageRoute('adminReportPage', 'The report: sales, visits, funnel, speed, errors', {
  tags: ['admin'],
  querystring: adminReportQuery,
  response: {
    200: htmlAnswer('The page (report.read), charts each with its table.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    400: errorAnswer('invalid-input: days is not 7, 30 or 90.'),
    403: htmlAnswer('A role without report.read.'),
  },
});

export const adminReportRoute = describeRoute({
  operationId: 'adminReport',
  summary: 'The report over the last `days` UTC days (default 30), as JSON (report.read)',
  description:
    'The same object as `vitrine report --format json`: sales from the orders (minor units), visits, top pages, the funnel by visitors, p75 web vitals per page and client errors. Private pages are never listed.',
  tags: ['admin'],
  querystring: adminReportApiQuery,
  response: {
    200: jsonAnswer('The report.', z.record(z.string(), z.unknown())),
    400: errorAnswer('invalid-input: days.'),
    401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
    403: errorAnswer('role-not-allowed: the role lacks report.read.'),
  },
});
