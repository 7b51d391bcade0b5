/** GET /account: who is signed in, and a sign-out button (303 to the sign-in when nobody is). */
import { CRUMB_FIELD } from '../../../core/crumb';
import { PageType } from '../../../core/enums';
import { roleName } from '../../../core/siteUserRoles';
import { pageRoute, redirectAnswer } from '../../../platform/http/apiDescription';
import type { AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { ANSWERED, visitorPageKind } from '../../../render/visitorPageKind';
import { currentSiteUser } from '../siteUserSession';
import { ACCOUNT_PAGE_HEADERS, ACCOUNT_PATH, SIGN_IN_PATH, SIGN_OUT_PATH } from './signIn';

export const account = (ctx: AppContext) =>
  visitorPageKind<{ email: string; role: number }>({
    name: 'account',
    paths: [ACCOUNT_PATH],
    route: { schema: accountPageRoute },
    headers: ACCOUNT_PAGE_HEADERS,
    load: async ({ request, reply }) => {
      const user = await currentSiteUser(request);
      if (user) return user;
      reply
        .header('cache-control', 'no-store')
        .redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(ACCOUNT_PATH)}`, 303);
      return ANSWERED;
    },
    view: ({ request, reply }, user) => ({
      path: ACCOUNT_PATH,
      pageType: PageType.PAGE,
      title: 'Your account',
      description: 'Your account',
      body: (
        <section className="account" aria-labelledby="account-title">
          <h1 className="page-title" id="account-title">
            Your account
          </h1>
          <p>
            Signed in as <strong>{user.email}</strong> {`(${roleName(user.role)}).`}
          </p>
          <form method="post" action={SIGN_OUT_PATH}>
            <input type="hidden" name={CRUMB_FIELD} value={pageCrumb(request, reply, ctx)} />
            <button type="submit" className="button">
              Sign out
            </button>
          </form>
        </section>
      ),
    }),
  });

const accountPageRoute = pageRoute('accountPage', 'Who is signed in, with a sign-out button', {
  response: { 303: redirectAnswer('Nobody is signed in: to the sign-in.') },
});
