/** What the staff pages and calls take and answer (issue 25, /admin/staff: admins only, 'staff.manage'). */
import { z } from 'zod';
import { parseRole, roleName } from '../../core/siteUserRoles';
import {
  component,
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';
import { STAFF_ROLES } from './staff';

const ROLE_CHOICES = STAFF_ROLES.map(roleName) as [string, ...string[]];

/** A staff role by name ('store-manager') or number; any other is refused with the roles to choose from. */
export const staffRole = z
  .union([z.string().max(40), z.number().int()])
  .describe(`One of ${ROLE_CHOICES.join(', ')} (or its number, spec §3).`)
  .transform((value, context) => {
    const role = parseRole(String(value));
    if (role === undefined || !(STAFF_ROLES as readonly number[]).includes(role)) {
      context.addIssue({ code: 'custom', message: `must be one of ${ROLE_CHOICES.join(', ')}` });
      return z.NEVER;
    }
    return role;
  });

export const inviteBody = z.object({
  email: z.string().trim().min(1, 'is required').max(256, 'must be at most 256 characters'),
  role: staffRole,
});

export const roleBody = z.object({ role: staffRole });

export const userParams = z.object({ id: z.string().min(1).max(64) });
export const sessionParams = z.object({ id: z.string().min(1).max(64), session: z.string().min(1).max(64) });

export const staffQuery = z.object({ done: z.string().max(300).optional() });

const staffMember = component(
  'StaffMember',
  z.object({
    id: z.string(),
    email: z.string(),
    role: z.number().int().describe('Contributor role (spec §3).'),
    roleName: z.string(),
    createdAt: z.string(),
  }),
  'A site user whose role enters /admin.',
);

const pendingInvite = component(
  'StaffInvite',
  z.object({
    email: z.string(),
    role: z.number().int(),
    roleName: z.string(),
    invitedBy: z.string(),
    createdAt: z.string(),
    expiresAt: z.string(),
    expired: z.boolean(),
  }),
  'An invitation not used yet (its link is only in the e-mail).',
);

const staffSession = component(
  'StaffSession',
  z.object({
    id: z.string().describe('Names the session (not its token).'),
    userId: z.string(),
    email: z.string(),
    startedAt: z.string(),
    lastSeenAt: z.string().nullable(),
    userAgent: z.string().nullable(),
    expiresAt: z.string(),
  }),
  'A signed-in browser of a staff member.',
);

const staffRefusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: only admins manage the staff (staff.manage).'),
};

const pageAnswers = {
  200: htmlAnswer('The page.'),
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer('A role without staff.manage.'),
};

const formAnswers = {
  303: redirectAnswer('Done: back to /admin/staff with a notice.'),
  403: htmlAnswer('A role without staff.manage.'),
  404: htmlAnswer('No such staff member or session: the page again with the message.'),
  409: htmlAnswer('Refused (the last admin, an existing account): the page again with the message.'),
  422: htmlAnswer('A wrong e-mail or role: the page again with the message.'),
};

export const staffPage = pageRoute('adminStaff', 'The staff: roles, invitations, sessions (admins)', {
  tags: ['admin'],
  querystring: staffQuery,
  response: pageAnswers,
});

export const inviteFormRoute = pageRoute('adminInviteStaffForm', 'Invite a staff member (the form)', {
  tags: ['admin'],
  body: inviteBody,
  response: formAnswers,
});

export const roleFormRoute = pageRoute('adminChangeStaffRoleForm', 'Change a staff member’s role (the form)', {
  tags: ['admin'],
  params: userParams,
  body: roleBody,
  response: formAnswers,
});

export const removeFormRoute = pageRoute('adminRemoveStaffForm', 'Remove a staff member (the form)', {
  tags: ['admin'],
  params: userParams,
  response: formAnswers,
});

export const revokeFormRoute = pageRoute('adminRevokeSessionForm', 'End a session (the form)', {
  tags: ['admin'],
  params: sessionParams,
  response: formAnswers,
});

export const listStaffRoute = describeRoute({
  operationId: 'listStaff',
  summary: 'The staff and their roles, the invitations not used yet, and the sessions (admins)',
  tags: ['admin'],
  response: {
    200: jsonAnswer(
      'The staff, by e-mail; invitations and sessions newest first.',
      z.object({
        staff: z.array(staffMember),
        invites: z.array(pendingInvite),
        sessions: z.array(staffSession),
        roles: z
          .array(
            z.object({
              role: z.number().int().describe('Contributor role (spec §3).'),
              name: z.string(),
              description: z.string().describe('What the role may do at /admin, in words.'),
            }),
          )
          .describe('The roles a staff member may be given, in the order the page offers them.'),
      }),
    ),
    ...staffRefusals,
  },
});

export const inviteRoute = describeRoute({
  operationId: 'inviteStaff',
  summary: 'Invite a staff member: an e-mail with a link that sets their password (once, within 72 hours)',
  tags: ['admin'],
  body: inviteBody,
  response: {
    200: jsonAnswer(
      'Invited (a new invitation replaces one not used yet).',
      z.object({ email: z.string(), role: z.number().int(), expiresAt: z.string() }),
    ),
    400: errorAnswer('invalid-input: a wrong e-mail or role.'),
    ...staffRefusals,
    409: errorAnswer('staff-change-refused: the e-mail already has an account on this site.'),
  },
});

export const roleRoute = describeRoute({
  operationId: 'changeStaffRole',
  summary: 'Change a staff member’s role',
  tags: ['admin'],
  params: userParams,
  body: roleBody,
  response: {
    200: jsonAnswer(
      'The role before and after.',
      z.object({ email: z.string(), before: z.number().int(), after: z.number().int() }),
    ),
    400: errorAnswer('invalid-input: not a staff role.'),
    ...staffRefusals,
    404: errorAnswer('entry-not-found: no such staff member.'),
    409: errorAnswer('staff-change-refused: the site’s last admin.'),
  },
});

export const removeRoute = describeRoute({
  operationId: 'removeStaff',
  summary: 'Remove a staff member and end their sessions',
  tags: ['admin'],
  params: userParams,
  response: {
    200: jsonAnswer('Removed.', z.object({ email: z.string(), role: z.number().int(), sessions: z.number().int() })),
    ...staffRefusals,
    404: errorAnswer('entry-not-found: no such staff member.'),
    409: errorAnswer('staff-change-refused: the site’s last admin.'),
  },
});

export const revokeRoute = describeRoute({
  operationId: 'revokeStaffSession',
  summary: 'End one session of a staff member (that browser is signed out)',
  tags: ['admin'],
  params: sessionParams,
  response: {
    200: jsonAnswer('Ended.', z.object({ email: z.string(), ended: z.number().int() })),
    ...staffRefusals,
    404: errorAnswer('entry-not-found: no such staff member or session.'),
  },
});

export const revokeAllRoute = describeRoute({
  operationId: 'revokeStaffSessions',
  summary: 'End every session of a staff member',
  tags: ['admin'],
  params: userParams,
  response: {
    200: jsonAnswer('Ended.', z.object({ email: z.string(), ended: z.number().int() })),
    ...staffRefusals,
    404: errorAnswer('entry-not-found: no such staff member.'),
  },
});
