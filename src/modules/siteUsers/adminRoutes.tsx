/**
 * The staff at /admin (issue 25): admins only ('staff.manage'), through the admin module's helpers.
 *
 * - GET /admin/staff[?done] → the staff and their roles (a form per row: change the role, remove), the invitations not
 *   used yet, the invite form, the sessions (each with a sign-out); GET /api/admin/staff → the same as JSON
 * - POST /admin/staff/invite (form: email, role), /admin/staff/:id/role (role), /admin/staff/:id/remove,
 *   /admin/staff/:id/sessions/:session/revoke → 303 back with a notice, or the page again with the refusal
 * - POST /api/admin/staff/invites {email, role}; POST /api/admin/staff/:id/role {role}; DELETE /api/admin/staff/:id;
 *   DELETE /api/admin/staff/:id/sessions/:session; DELETE /api/admin/staff/:id/sessions (all of them)
 *
 * Each change is one transaction with its audit entry (./staff.ts); the site's last admin is never demoted nor removed.
 */
import fastifyFormbody from '@fastify/formbody';
import type { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { roleName } from '../../core/siteUserRoles';
import { staffRoleDescription } from '../../core/staffAccess';
import type { Result } from '../../core/result';
import { mailLinkOrigin, type AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { InviteForm, InviteTable, SessionTable, StaffTable } from '../../ui/admin/Staff';
import { currentStaff, requireStaff, type AdminPages, type AdminVisit, type Staff } from '../admin';
import { siteOf } from '../site';
import {
  inviteBody,
  inviteFormRoute,
  inviteRoute,
  listStaffRoute,
  removeFormRoute,
  removeRoute,
  revokeAllRoute,
  revokeFormRoute,
  revokeRoute,
  roleBody,
  roleFormRoute,
  roleRoute,
  sessionParams,
  staffPage,
  staffQuery,
  userParams,
} from './adminRoutes.schema';
import { listSessions, sessionIdOf } from './sessions';
import { SITE_USER_COOKIE } from './siteUserSession';
import {
  changeStaffRole,
  inviteStaff,
  listInvites,
  listStaff,
  removeStaff,
  revokeStaffSessions,
  STAFF_ROLES,
  type StaffFailure,
} from './staff';

export const STAFF_PATH = '/admin/staff';

const ROLE_CHOICES = STAFF_ROLES.map((role) => ({
  role,
  name: roleName(role),
  description: staffRoleDescription(role),
}));
const access = { section: STAFF_PATH, permission: 'staff.manage' } as const;

const withDone = (done: string): string => `${STAFF_PATH}?done=${encodeURIComponent(done)}`;

const statusOf = (failure: StaffFailure): number =>
  failure.type === 'UNKNOWN_USER' || failure.type === 'UNKNOWN_SESSION'
    ? 404
    : failure.type === 'INVALID_EMAIL' || failure.type === 'NOT_A_STAFF_ROLE'
      ? 422
      : 409;

/** A refused change as the JSON API's error. */
function apiFailure(failure: StaffFailure): ApiError {
  if (failure.type === 'UNKNOWN_USER' || failure.type === 'UNKNOWN_SESSION')
    return new ApiError('entry-not-found', failure.message);
  if (failure.type === 'INVALID_EMAIL' || failure.type === 'NOT_A_STAFF_ROLE')
    return new ApiError('invalid-input', failure.message);
  return new ApiError('staff-change-refused', failure.message);
}

export function registerStaffAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const staffView = async (
    request: FastifyRequest,
    visit: AdminVisit,
    notice?: { kind: 'done' | 'error'; text: string },
    status = 200,
    typedEmail?: string,
  ) => {
    const siteId = visit.site.id;
    const [staff, invites, sessions] = await Promise.all([
      listStaff(ctx.db, siteId),
      listInvites(ctx.db, siteId),
      listSessions(ctx.db, siteId, { roles: STAFF_ROLES }),
    ]);
    const form = { crumb: visit.crumb, crumbField: visit.crumbField };
    return {
      title: 'Staff',
      status,
      body: (
        <>
          <AdminTitle title="Staff" />
          {notice ? <AdminNotice kind={notice.kind}>{notice.text}</AdminNotice> : null}
          <StaffTable {...form} rows={staff} roles={ROLE_CHOICES} me={visit.staff.id} />
          <InviteForm {...form} roles={ROLE_CHOICES} {...(typedEmail !== undefined ? { email: typedEmail } : {})} />
          <h2>Invitations</h2>
          <InviteTable rows={invites} />
          <h2>Sessions</h2>
          <SessionTable {...form} rows={sessions} current={sessionIdOf(request.cookies[SITE_USER_COOKIE])} />
        </>
      ),
    };
  };

  app.get(STAFF_PATH, { schema: staffPage }, (request, reply) =>
    pages.answer(request, reply, access, (visit) => {
      const { done } = parseInput(staffQuery, request.query, 'query');
      return staffView(request, visit, done ? { kind: 'done', text: done } : undefined);
    }),
  );

  app.get('/api/admin/staff', { schema: listStaffRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'staff.manage');
    const site = await siteOf(request);
    const [staff, invites, sessions] = await Promise.all([
      listStaff(ctx.db, site.id),
      listInvites(ctx.db, site.id),
      listSessions(ctx.db, site.id, { roles: STAFF_ROLES }),
    ]);
    return { staff, invites, sessions, roles: ROLE_CHOICES };
  });

  /**
   * A form post: nobody or a role without staff.manage gets the admin's own answers (the sign-in, the 403 page) and
   * nothing changes; else `change` runs, and its outcome is a 303 with a notice or the page again with the refusal.
   */
  const formPost = async <T,>(
    request: FastifyRequest,
    reply: FastifyReply,
    change: (staff: Staff, siteId: string) => Promise<Result<T, StaffFailure> | { invalid: string }>,
    notice: (value: T) => string,
    typedEmail?: string,
  ) => {
    const staff = await currentStaff(request);
    if (!staff || !staff.can('staff.manage'))
      return pages.answer(request, reply, access, () => ({ title: '', body: null }));
    const site = await siteOf(request);
    const outcome = await change(staff, site.id);
    if ('invalid' in outcome)
      return pages.answer(request, reply, access, (visit) =>
        staffView(request, visit, { kind: 'error', text: outcome.invalid }, 422, typedEmail),
      );
    if (!outcome.ok)
      return pages.answer(request, reply, access, (visit) =>
        staffView(request, visit, { kind: 'error', text: outcome.error.message }, statusOf(outcome.error), typedEmail),
      );
    return reply.header('cache-control', 'no-store').redirect(withDone(notice(outcome.value)), 303);
  };

  /** The form's body checked by `schema`, or the reason it is refused (in words for the page). */
  const formBody = <S extends z.ZodType>(schema: S, body: unknown): { data: z.output<S> } | { invalid: string } => {
    const parsed = schema.safeParse(body ?? {});
    if (parsed.success) return { data: parsed.data };
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] === 'email' ? 'The e-mail' : issue?.path[0] === 'role' ? 'The role' : 'The form';
    return { invalid: `${field} ${issue?.message ?? 'is not valid'}.` };
  };

  app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });

    scope.post(`${STAFF_PATH}/invite`, { schema: inviteFormRoute }, async (request, reply) => {
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const typed = typeof raw.email === 'string' ? raw.email.slice(0, 256) : '';
      return formPost(
        request,
        reply,
        async (staff) => {
          const body = formBody(inviteBody, raw);
          if ('invalid' in body) return { invalid: body.invalid };
          const site = await siteOf(request);
          return inviteStaff(ctx.db, {
            site,
            email: body.data.email,
            role: body.data.role,
            actor: staff.actor,
            origin: mailLinkOrigin(ctx, site, request),
          });
        },
        (v) => `Invited ${v.email} as ${roleName(v.role)}. The e-mail with their link is on its way.`,
        typed,
      );
    });

    scope.post(`${STAFF_PATH}/:id/role`, { schema: roleFormRoute }, async (request, reply) =>
      formPost(
        request,
        reply,
        async (staff, siteId) => {
          const { id } = parseInput(userParams, request.params, 'params');
          const body = formBody(roleBody, request.body);
          if ('invalid' in body) return { invalid: body.invalid };
          return changeStaffRole(ctx.db, { siteId, user: { id }, role: body.data.role, actor: staff.actor });
        },
        (v) =>
          v.before === v.after
            ? `${v.email} is already ${roleName(v.after)}.`
            : `${v.email} is now ${roleName(v.after)} (was ${roleName(v.before)}).`,
      ),
    );

    scope.post(`${STAFF_PATH}/:id/remove`, { schema: removeFormRoute }, async (request, reply) =>
      formPost(
        request,
        reply,
        async (staff, siteId) => {
          const { id } = parseInput(userParams, request.params, 'params');
          return removeStaff(ctx.db, { siteId, user: { id }, actor: staff.actor });
        },
        (v) => `Removed ${v.email} from the staff; they are signed out.`,
      ),
    );

    scope.post(`${STAFF_PATH}/:id/sessions/:session/revoke`, { schema: revokeFormRoute }, async (request, reply) =>
      formPost(
        request,
        reply,
        async (staff, siteId) => {
          const { id, session } = parseInput(sessionParams, request.params, 'params');
          return revokeStaffSessions(ctx.db, { siteId, user: { id }, sessionId: session, actor: staff.actor });
        },
        (v) => `Ended the session of ${v.email}: that browser is signed out.`,
      ),
    );

    scope.post('/api/admin/staff/invites', { schema: inviteRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'staff.manage');
      const site = await siteOf(request);
      const body = parseInput(inviteBody, request.body, 'body');
      const done = await inviteStaff(ctx.db, {
        site,
        email: body.email,
        role: body.role,
        actor: staff.actor,
        origin: mailLinkOrigin(ctx, site, request),
      });
      if (!done.ok) throw apiFailure(done.error);
      return done.value;
    });

    scope.post('/api/admin/staff/:id/role', { schema: roleRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'staff.manage');
      const site = await siteOf(request);
      const { id } = parseInput(userParams, request.params, 'params');
      const body = parseInput(roleBody, request.body, 'body');
      const done = await changeStaffRole(ctx.db, {
        siteId: site.id,
        user: { id },
        role: body.role,
        actor: staff.actor,
      });
      if (!done.ok) throw apiFailure(done.error);
      return done.value;
    });

    scope.delete('/api/admin/staff/:id', { schema: removeRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'staff.manage');
      const site = await siteOf(request);
      const { id } = parseInput(userParams, request.params, 'params');
      const done = await removeStaff(ctx.db, { siteId: site.id, user: { id }, actor: staff.actor });
      if (!done.ok) throw apiFailure(done.error);
      return done.value;
    });

    scope.delete('/api/admin/staff/:id/sessions/:session', { schema: revokeRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'staff.manage');
      const site = await siteOf(request);
      const { id, session } = parseInput(sessionParams, request.params, 'params');
      const done = await revokeStaffSessions(ctx.db, {
        siteId: site.id,
        user: { id },
        sessionId: session,
        actor: staff.actor,
      });
      if (!done.ok) throw apiFailure(done.error);
      return done.value;
    });

    scope.delete('/api/admin/staff/:id/sessions', { schema: revokeAllRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'staff.manage');
      const site = await siteOf(request);
      const { id } = parseInput(userParams, request.params, 'params');
      const done = await revokeStaffSessions(ctx.db, {
        siteId: site.id,
        user: { id },
        sessionId: null,
        actor: staff.actor,
      });
      if (!done.ok) throw apiFailure(done.error);
      return done.value;
    });
  });
}
