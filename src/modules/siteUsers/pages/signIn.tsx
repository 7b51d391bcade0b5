/**
 * The site users' sign-in form (the account area's door; spec §6): a plain HTML form that works without JavaScript.
 * GET /account/sign-in[?next=/path] shows it; its post (./actions.ts) shows it again with what was wrong.
 */
import { z } from 'zod';
import { CRUMB_FIELD } from '../../../core/crumb';
import { PageType } from '../../../core/enums';
import { pageRoute } from '../../../platform/http/apiDescription';
import type { AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { visitorPageKind } from '../../../render/visitorPageKind';

export const SIGN_IN_PATH = '/account/sign-in';
export const ACCOUNT_PATH = '/account';
export const SIGN_OUT_PATH = '/account/sign-out';

export const SIGN_IN_MESSAGES = {
  wrong: 'The e-mail or password is not right. Please try again.',
  missing: 'Please enter your e-mail and password.',
  tooMany: 'Too many sign-in attempts. Please try again in a few minutes.',
} as const;

/** The headers of every account page: never stored. */
export const ACCOUNT_PAGE_HEADERS = { 'cache-control': 'no-store' } as const;

/** A path of this site to return to after signing in; anything else (another host, `//x`, `/\x`) → /account. */
export const safeNext = (value: unknown): string =>
  typeof value === 'string' && value.length <= 500 && /^\/(?![/\\])[^\s]*$/.test(value) ? value : ACCOUNT_PATH;

export interface SignInForm {
  /** Where to go once signed in (a path of this site). */
  next: string;
  /** What was wrong with the last try. */
  error: string | null;
  /** The e-mail typed, shown again. */
  email: string;
  status: number;
}

export const signIn = (ctx: AppContext) =>
  visitorPageKind<SignInForm>({
    name: 'signIn',
    paths: [SIGN_IN_PATH],
    route: { schema: signInPageRoute },
    headers: ACCOUNT_PAGE_HEADERS,
    load: async ({ request }) => ({
      next: safeNext((request.query as { next?: unknown } | undefined)?.next),
      error: null,
      email: '',
      status: 200,
    }),
    view: ({ request, reply }, form) => ({
      path: SIGN_IN_PATH,
      pageType: PageType.PAGE,
      title: 'Sign in',
      description: 'Sign in',
      status: form.status,
      body: <SignInSection crumb={pageCrumb(request, reply, ctx)} {...form} />,
    }),
  });

function SignInSection({ crumb, next, error, email }: SignInForm & { crumb: string }) {
  return (
    <section className="account-sign-in" aria-labelledby="sign-in-title">
      <h1 className="page-title" id="sign-in-title">
        Sign in
      </h1>
      {error !== null ? (
        <p className="form-error" role="alert" id="sign-in-error">
          {error}
        </p>
      ) : null}
      <form
        method="post"
        action={SIGN_IN_PATH}
        className="account-form"
        {...(error !== null ? { 'aria-describedby': 'sign-in-error' } : {})}
      >
        <input type="hidden" name={CRUMB_FIELD} value={crumb} />
        <input type="hidden" name="next" value={next} />
        <div className="form-field">
          <label htmlFor="sign-in-email">E-mail</label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={256}
            defaultValue={email}
          />
        </div>
        <div className="form-field">
          <label htmlFor="sign-in-password">Password</label>
          <input
            id="sign-in-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={256}
          />
        </div>
        <button type="submit" className="button button--primary">
          Sign in
        </button>
      </form>
    </section>
  );
}

const signInPageRoute = pageRoute('signInPage', 'The site users’ sign-in form', {
  querystring: z.object({ next: z.string().optional().describe('A path of this site to go to after.') }),
});
