/**
 * What the versions pages and calls take and answer (issue 26, /admin/versions): staff with 'versions.read' look,
 * admins and website managers ('versions.restore') restore.
 */
import { z } from 'zod';
import {
  component,
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

const versionNumber = z.coerce
  .number({ error: 'must be a version number (a whole number from 1)' })
  .int('must be a version number (a whole number from 1)')
  .min(1, 'must be a version number (a whole number from 1)')
  .max(2_147_483_647, 'must be a version number (a whole number from 1)');

export const versionParams = z.object({ number: versionNumber });

export const versionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().describe('Versions a page (default 20).'),
  before: versionNumber.optional().describe('The next page: versions older than this number.'),
});

export const versionsPageQuery = versionsQuery.extend({
  from: versionNumber.optional(),
  to: versionNumber.optional(),
  done: z.string().max(300).optional(),
});

export const compareQuery = z.object({ from: versionNumber, to: versionNumber });

export const restoreFormBody = z.object({ confirm: z.literal('yes').optional() });

const siteVersion = component(
  'SiteVersion',
  z.object({
    number: z.number().int().describe('The site version this save made.'),
    createdAt: z.string(),
    createdBy: z.string().describe("A staff member's e-mail, or the command ('vitrine import')."),
    source: z.enum(['import', 'admin', 'restore']),
    summary: z.string().describe('What changed, in one line.'),
  }),
  'A saved version of the site.',
);

const thingChange = z.object({
  kind: z.enum(['product', 'collection', 'page', 'post', 'form']),
  id: z.string(),
  name: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  fields: z.array(z.string()).describe("What changed, in words ('name', 'price', 'blocks'…)."),
});

const versionDiff = component(
  'SiteVersionDiff',
  z.object({
    settings: z.array(z.string()).describe('The website settings that changed.'),
    reordered: z.array(z.string()).describe('The kinds whose order changed.'),
    things: z.array(thingChange),
  }),
  'What changed from one version to another (live stock is not part of a version).',
);

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: a role without versions.read (versions.restore to restore).'),
};

export const listVersionsRoute = describeRoute({
  operationId: 'listSiteVersions',
  summary: 'The site versions, newest first (paged)',
  tags: ['admin'],
  querystring: versionsQuery,
  response: {
    200: jsonAnswer(
      'A page of versions; `next` is the `before` of the next page (null at the end); `latest` the newest number.',
      z.object({
        versions: z.array(siteVersion),
        next: z.number().int().nullable(),
        latest: z.number().int().nullable(),
      }),
    ),
    400: errorAnswer('invalid-input: a wrong limit or before.'),
    ...refusals,
  },
});

export const compareVersionsRoute = describeRoute({
  operationId: 'compareSiteVersions',
  summary: 'What changed from version `from` to version `to`',
  tags: ['admin'],
  querystring: compareQuery,
  response: {
    200: jsonAnswer(
      'The two versions, the differences, and the differences as lines to read.',
      z.object({ from: siteVersion, to: siteVersion, diff: versionDiff, lines: z.array(z.string()) }),
    ),
    400: errorAnswer('invalid-input: from or to is not a version number.'),
    ...refusals,
    404: errorAnswer('version-not-found: the site has no such version.'),
  },
});

export const restoreVersionRoute = describeRoute({
  operationId: 'restoreSiteVersion',
  summary: 'Save version `number` again as the newest version (live stock stays as sold)',
  tags: ['admin'],
  params: versionParams,
  response: {
    200: jsonAnswer(
      'Restored: the new version it made.',
      z.object({ restored: z.number().int(), version: siteVersion }),
    ),
    400: errorAnswer('invalid-input: not a version number.'),
    ...refusals,
    404: errorAnswer('version-not-found: the site has no such version.'),
    409: errorAnswer('restore-refused: a domain of that version now belongs to another site.'),
  },
});

export const versionsPage = pageRoute('adminVersions', 'The site versions, a comparison of two, restore links', {
  tags: ['admin'],
  querystring: versionsPageQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    400: htmlAnswer('A wrong version number in the query: the page with the message.'),
    403: htmlAnswer('A role without versions.read.'),
    404: htmlAnswer('A version to compare that the site does not have: the page with the message.'),
  },
});

export const restoreConfirmPage = pageRoute(
  'adminRestoreVersionConfirm',
  'Restore a version: what it changes, and the confirmation',
  {
    tags: ['admin'],
    params: versionParams,
    response: {
      200: htmlAnswer('The confirmation.'),
      303: redirectAnswer('Nobody signed in: to the sign-in.'),
      403: htmlAnswer('A role without versions.restore.'),
      404: htmlAnswer('No such version.'),
    },
  },
);

export const restoreFormRoute = pageRoute('adminRestoreVersionForm', 'Restore a version (the form)', {
  tags: ['admin'],
  params: versionParams,
  body: restoreFormBody,
  response: {
    303: redirectAnswer('Restored: back to /admin/versions with a notice.'),
    403: htmlAnswer('A role without versions.restore.'),
    404: htmlAnswer('No such version: the page with the message.'),
    409: htmlAnswer('A domain now belongs to another site: the page with the message.'),
    422: htmlAnswer('Not confirmed: the confirmation again.'),
  },
});
