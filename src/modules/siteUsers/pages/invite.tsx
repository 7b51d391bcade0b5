/**
 * The page an invitation's link opens (issue 25, staff): the invited person sets their password and is signed in.
 * GET /account/invite/:token shows the form (password twice), or what is wrong with the link: used (410), expired
 * (410), unknown (404); the form's post (./actions.ts) shows it again with the reason (422) or the link's state.
 */
import { z } from 'zod';
import { CRUMB_FIELD } from '../../../core/crumb';
import { PageType } from '../../../core/enums';
import { roleName } from '../../../core/siteUserRoles';
import { htmlAnswer, pageRoute } from '../../../platform/http/apiDescription';
import type { AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { visitorPageKind } from '../../../render/visitorPageKind';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords';
import { INVITE_MESSAGES, INVITE_PATH, inviteState } from '../staff';
import { ACCOUNT_PAGE_HEADERS } from './signIn';

const TITLE = 'Set your password';
const LINK_STATUS = { used: 410, expired: 410, unknown: 404 } as const;

/** What the invitation page shows: its form (again, with what was wrong), or what is wrong with the link. */
export type InvitePage =
  | { shown: 'form'; path: string; invite: { email: string; role: number }; error: string | null; status: number }
  | { shown: 'link'; path: string; message: string; signIn: boolean; status: number };

/** The invitation page's address for this token. */
export const invitePath = (token: string): string => `${INVITE_PATH}/${encodeURIComponent(token)}`;

/** The link is not (or no longer) an open invitation: says why, with the way to sign in when it was used. */
export const linkProblem = (path: string, state: 'used' | 'expired' | 'unknown'): InvitePage => ({
  shown: 'link',
  path,
  message: INVITE_MESSAGES[state],
  signIn: state === 'used',
  status: LINK_STATUS[state],
});

export const invite = (ctx: AppContext) =>
  visitorPageKind<InvitePage>({
    name: 'invite',
    paths: [`${INVITE_PATH}/:token`],
    route: { schema: invitePageRoute },
    headers: ACCOUNT_PAGE_HEADERS,
    load: async ({ request, site }) => {
      const { token } = request.params as { token: string };
      const path = invitePath(token);
      const state = await inviteState(ctx.db, site.id, token);
      if (state.state !== 'open') return linkProblem(path, state.state);
      return { shown: 'form', path, invite: state, error: null, status: 200 };
    },
    view: ({ request, reply }, page) => ({
      path: page.path,
      pageType: PageType.PAGE,
      title: page.shown === 'form' ? TITLE : 'Invitation link',
      description: page.shown === 'form' ? TITLE : 'Invitation link',
      status: page.status,
      body:
        page.shown === 'form' ? (
          <InviteForm {...page} crumb={pageCrumb(request, reply, ctx)} />
        ) : (
          <section className="account-invite" aria-labelledby="invite-title">
            <h1 className="page-title" id="invite-title">
              Invitation link
            </h1>
            <p role="alert">{page.message}</p>
            {page.signIn ? (
              <p>
                <a href="/account/sign-in?next=%2Fadmin">Sign in</a>
              </p>
            ) : null}
          </section>
        ),
    }),
  });

function InviteForm({ path, invite, error, crumb }: Extract<InvitePage, { shown: 'form' }> & { crumb: string }) {
  return (
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
        <input type="hidden" name={CRUMB_FIELD} value={crumb} />
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
}

export const tokenParams = z.object({ token: z.string().describe('The token of the e-mailed link.') });

const invitePageRoute = pageRoute('staffInvitePage', 'An invitation link: the form that sets the password', {
  params: tokenParams,
  response: {
    200: htmlAnswer('The form.'),
    404: htmlAnswer(`'${INVITE_MESSAGES.unknown}'`),
    410: htmlAnswer(`'${INVITE_MESSAGES.used}' or '${INVITE_MESSAGES.expired}'`),
  },
});
