/**
 * The page an invitation's link opens (issue 25, staff): the invited person sets their password and is signed in.
 *
 * - GET /account/invite/:token → the form (password twice), or what is wrong with the link: used (410), expired
 *   (410), unknown (404)
 * - POST /account/invite/:token {password, confirm, crumb} → the account made and the link used (one transaction),
 *   the session cookie, 303 to /admin; the form again with the reason (422) or the link's state
 *
 * Registered by registerAccountRoutes (./routes.tsx) in its scope (form bodies, the storefront's frame).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { CRUMB_FIELD } from '../../core/crumb';
import { roleName } from '../../core/siteUserRoles';
import { describeRoute, formBody, htmlAnswer, pageRoute, redirectAnswer } from '../../platform/http/apiDescription';
import type { AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { siteOf, type Site } from '../site';
import { endSession, startSession } from './sessions';
import { setSiteUserCookie, SITE_USER_COOKIE } from './siteUserSession';
import { acceptInvite, INVITE_MESSAGES, INVITE_PATH, inviteState } from './staff';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords';

type SendPage = (
  reply: FastifyReply,
  site: Site,
  path: string,
  title: string,
  body: ReactNode,
  status?: number,
) => Promise<FastifyReply>;

const STATUS = { used: 410, expired: 410, unknown: 404 } as const;
const TITLE = 'Set your password';

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;

export function registerInviteRoutes(scope: FastifyInstance, ctx: AppContext, sendPage: SendPage): void {
  const linkProblem = (reply: FastifyReply, site: Site, path: string, state: 'used' | 'expired' | 'unknown') =>
    sendPage(
      reply,
      site,
      path,
      'Invitation link',
      <section className="account-invite" aria-labelledby="invite-title">
        <h1 className="page-title" id="invite-title">
          Invitation link
        </h1>
        <p role="alert">{INVITE_MESSAGES[state]}</p>
        {state === 'used' ? (
          <p>
            <a href="/account/sign-in?next=%2Fadmin">Sign in</a>
          </p>
        ) : null}
      </section>,
      STATUS[state],
    );

  const form = (
    request: FastifyRequest,
    reply: FastifyReply,
    invite: { email: string; role: number },
    path: string,
    error: string | null,
  ) => (
    <section className="account-sign-in" aria-labelledby="invite-title">
      <h1 className="page-title" id="invite-title">
        {TITLE}
      </h1>
      <p>{`You are invited to the staff of this site as ${roleName(invite.role)}. You will sign in with ${invite.email}.`}</p>
      {error !== null ? (
        <p className="form-error" role="alert" id="invite-error">
          {error}
        </p>
      ) : null}
      <form
        method="post"
        action={path}
        className="account-form"
        {...(error !== null ? { 'aria-describedby': 'invite-error' } : {})}
      >
        <input type="hidden" name={CRUMB_FIELD} value={pageCrumb(request, reply, ctx)} />
        <input type="hidden" name="email" autoComplete="username" value={invite.email} />
        <div className="form-field">
          <label htmlFor="invite-password">{`New password (at least ${PASSWORD_MIN_LENGTH} characters)`}</label>
          <input
            id="invite-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
          />
        </div>
        <div className="form-field">
          <label htmlFor="invite-confirm">Type it again</label>
          <input
            id="invite-confirm"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
          />
        </div>
        <button type="submit" className="button button--primary">
          Set password and sign in
        </button>
      </form>
    </section>
  );

  scope.get<{ Params: { token: string } }>(`${INVITE_PATH}/:token`, { schema: invitePage }, async (request, reply) => {
    const site = await siteOf(request);
    const path = `${INVITE_PATH}/${encodeURIComponent(request.params.token)}`;
    const state = await inviteState(ctx.db, site.id, request.params.token);
    if (state.state !== 'open') return linkProblem(reply, site, path, state.state);
    return sendPage(reply, site, path, TITLE, form(request, reply, state, path, null));
  });

  scope.post<{ Params: { token: string } }>(
    `${INVITE_PATH}/:token`,
    { schema: acceptInviteRoute },
    async (request, reply) => {
      const site = await siteOf(request);
      const token = request.params.token;
      const path = `${INVITE_PATH}/${encodeURIComponent(token)}`;
      const password = field(request.body, 'password');
      const confirm = field(request.body, 'confirm');
      const state = await inviteState(ctx.db, site.id, token);
      if (state.state !== 'open') return linkProblem(reply, site, path, state.state);
      const again = (message: string) =>
        sendPage(reply, site, path, TITLE, form(request, reply, state, path, message), 422);
      if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH) return again(INVITE_MESSAGES.tooShort);
      if (typeof confirm !== 'string' || confirm !== password) return again(INVITE_MESSAGES.mismatch);
      const accepted = await acceptInvite(ctx.db, site.id, token, password);
      if (!accepted.ok) {
        const failure = accepted.error;
        if (failure.type === 'password') return again(failure.message);
        if (failure.type === 'alreadyUser')
          return sendPage(
            reply,
            site,
            path,
            'Invitation link',
            <section className="account-invite" aria-labelledby="invite-title">
              <h1 className="page-title" id="invite-title">
                Invitation link
              </h1>
              <p role="alert">{failure.message}</p>
              <p>
                <a href="/account/sign-in?next=%2Fadmin">Sign in</a>
              </p>
            </section>,
            409,
          );
        return linkProblem(reply, site, path, failure.type);
      }
      await endSession(ctx.db, request.cookies[SITE_USER_COOKIE]);
      const { token: session } = await startSession(ctx.db, accepted.value, new Date(), request.headers['user-agent']);
      setSiteUserCookie(ctx, request, reply, session);
      return reply.header('cache-control', 'no-store').redirect('/admin', 303);
    },
  );
}

const tokenParams = z.object({ token: z.string().describe('The token of the e-mailed link.') });

const invitePage = pageRoute('staffInvitePage', 'An invitation link: the form that sets the password', {
  params: tokenParams,
  response: {
    200: htmlAnswer('The form.'),
    404: htmlAnswer(`'${INVITE_MESSAGES.unknown}'`),
    410: htmlAnswer(`'${INVITE_MESSAGES.used}' or '${INVITE_MESSAGES.expired}'`),
  },
});

const acceptInviteRoute = describeRoute({
  operationId: 'acceptStaffInvite',
  summary: 'Set the password of an invitation and sign in (form post)',
  tags: ['account'],
  params: tokenParams,
  body: formBody(z.object({ password: z.string(), confirm: z.string(), crumb: z.string() })),
  response: {
    303: redirectAnswer('The account is made, the link used, the site_user cookie set: to /admin.'),
    404: htmlAnswer(`'${INVITE_MESSAGES.unknown}'`),
    409: htmlAnswer(`'${INVITE_MESSAGES.alreadyUser}'`),
    410: htmlAnswer('The link was used or has expired (the page says which).'),
    422: htmlAnswer('A password too short or long, or the two not the same: the form again with the reason.'),
  },
});
