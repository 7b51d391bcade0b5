/**
 * The analytics calls described (docs/openapi.json): they check their input by hand (src/core/analytics.ts), these
 * schemas only say what they take. Every call answers 202 with no body at once.
 */
import { z } from 'zod';
import { describeRoute, emptyAnswer, errorAnswer, formBody, htmlAnswer } from '../../platform/http/apiDescription';

const TAGS = ['analytics'];
const accepted = { 202: emptyAnswer('Accepted (bots and empty user agents too, not counted).') };
const refused = {
  400: errorAnswer('invalid-input: names the field.'),
  413: errorAnswer('payload-too-large: a body over 32 KB.'),
};
const visit = z.string().optional().describe('ss_cvr: the visit cookie.');

export const recordHitRoute = describeRoute({
  operationId: 'recordHit',
  summary: 'A page view (census, §3 payload)',
  tags: TAGS,
  body: formBody(
    z.object({
      event: z.literal('RecordHit').optional(),
      data: z.string().describe('The §3 census payload as JSON text (pagePath a site path).'),
      ss_cvr: visit,
    }),
  ),
  response: { ...accepted, ...refused },
});

export const censusRoute = (call: string) =>
  describeRoute({
    operationId: `census-${call}`,
    summary: `A census event: ${call}`,
    tags: TAGS,
    body: formBody(
      z.object({
        data: z.string().optional().describe("The page's fields as JSON text."),
        ss_cvr: visit,
        formId: z.string().optional(),
        buttonId: z.string().optional(),
      }),
    ),
    response: { ...accepted, ...refused },
  });

export const recordQuickViewRoute = describeRoute({
  operationId: 'recordQuickView',
  summary: 'A quick view of a product (census)',
  tags: TAGS,
  params: z.object({ id: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/) }),
  response: { ...accepted, ...refused },
});

export const recordEventRoute = describeRoute({
  operationId: 'recordCommerceEvent',
  summary: 'A commerce event (§7 CommerceShopping_* names)',
  description:
    'A purchase (CommerceShopping_CheckoutConfirmed) must name an order of the shop; its value is the order’s.',
  tags: TAGS,
  body: formBody(
    z.object({
      event: z.string().describe('One of §7’s CommerceShopping_* names.'),
      crumb: z.string().describe('The crumb (this call needs it).'),
      data: z.string().max(4000).optional().describe('A JSON object as text.'),
    }),
  ),
  response: { ...accepted, ...refused },
});

export const recordJavascriptErrorsRoute = describeRoute({
  operationId: 'recordJavascriptErrors',
  summary: 'Errors of the page’s scripts',
  tags: TAGS,
  body: z
    .array(z.object({ message: z.string().max(1000), stack: z.string().optional(), url: z.string().optional() }))
    .min(1)
    .max(10),
  response: { ...accepted, ...refused },
});

export const performanceRecordsRoute = describeRoute({
  operationId: 'recordPerformance',
  summary: 'Web vitals (sent as text/plain JSON)',
  tags: TAGS,
  body: {
    content: {
      'text/plain': {
        schema: z
          .array(
            z.object({
              name: z.enum(['FCP', 'LCP', 'CLS', 'FID', 'INP', 'TTFB']),
              value: z.number(),
              rating: z.string(),
              path: z.string(),
              element: z.string().optional(),
            }),
          )
          .max(50)
          .describe('JSON text; bad records are skipped, ratings recomputed.'),
      },
    },
  },
  response: { ...accepted, ...refused },
});

export const reportPageRoute = describeRoute({
  operationId: 'analyticsReportPage',
  summary: 'The merchant’s report (page)',
  tags: ['pages'],
  querystring: z.object({
    token: z.string().describe("From 'vitrine report token'."),
    days: z.string().optional().describe('Default 30.'),
  }),
  response: {
    200: htmlAnswer('The report, with a server-drawn chart.'),
    403: errorAnswer('report-token-invalid.'),
  },
});
