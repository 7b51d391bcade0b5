/** What the owner's area's own calls take and answer (the shell: home, audit log). */
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

export const auditQuery = z.object({
  cursor: z.string().max(200, 'must be a cursor from the page before').optional(),
});

const auditRecord = component(
  'AuditRecord',
  z.object({
    id: z.string(),
    at: z.string().describe('ISO-8601 UTC.'),
    actor: z.string().describe("The staff member's e-mail, or 'vitrine command'."),
    actorId: z.string().nullable(),
    action: z.string().describe("e.g. 'order.fulfilled'."),
    subject: z.object({ type: z.string(), id: z.string() }),
    summary: z.string(),
    before: z.unknown(),
    after: z.unknown(),
  }),
  'One change made in the owner’s area or by a `vitrine` command.',
);

const staffRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: the role lacks the permission (src/core/staffAccess.ts).'),
};

export const adminHomePage = pageRoute('adminHome', 'The owner’s area: its home', {
  tags: ['admin'],
  response: {
    200: htmlAnswer('The page (a staff member).'),
    303: redirectAnswer('Nobody signed in: to /account/sign-in?next=/admin.'),
    403: htmlAnswer('A role that does not enter /admin.'),
  },
});

export const adminAuditPage = pageRoute('adminAuditLog', 'The audit log, newest first (admins)', {
  tags: ['admin'],
  querystring: auditQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without audit.read.'),
  },
});

export const adminAuditRoute = describeRoute({
  operationId: 'listAuditLog',
  summary: 'The audit log, newest first, 50 a page (admins)',
  tags: ['admin'],
  querystring: auditQuery,
  response: {
    200: jsonAnswer(
      'A page of the log and the cursor of the next (older) one.',
      z.object({ records: z.array(auditRecord), next: z.string().nullable() }),
    ),
    ...staffRefusals,
  },
});
