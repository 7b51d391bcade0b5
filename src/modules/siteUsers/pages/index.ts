/**
 * The site users' pages, made for one visitor (per-visitor page kinds: src/render/visitorPageKind.ts; never stored,
 * `Cache-Control: no-store`), with their form actions (./actions.ts):
 *   GET  /account/sign-in[?next=/path]   ./signIn.tsx: the sign-in form (works without JavaScript)
 *   POST /account/sign-in                the form again with what was wrong, or 303 to `next` signed in
 *   GET  /account                        ./account.tsx: who is signed in, a sign-out button (303 to the sign-in)
 *   POST /account/sign-out               303 to /
 *   GET  /account/invite/{token}         ./invite.tsx: a staff invitation's link sets the password
 *   POST /account/invite/{token}         the form again with the reason, or 303 to /admin signed in
 */
import fastifyFormbody from '@fastify/formbody';
import type { AppContext } from '../../../platform/http/appContext';
import type { VisitorPageModule } from '../../../render/visitorPageKind';
import { account } from './account';
import { accountActions, type AccountRouteOptions } from './actions';
import { invite } from './invite';
import { signIn } from './signIn';

export { ACCOUNT_TRIES, ACCOUNT_WINDOW_MS, type AccountRouteOptions } from './actions';
export { ACCOUNT_PATH, SIGN_IN_MESSAGES, SIGN_IN_PATH, SIGN_OUT_PATH } from './signIn';

export function accountPages(ctx: AppContext, options: AccountRouteOptions = {}): VisitorPageModule {
  const kinds = { signIn: signIn(ctx), account: account(ctx), invite: invite(ctx) };
  return {
    name: 'account',
    kinds: [kinds.signIn, kinds.account, kinds.invite],
    scope: async (scope) => {
      await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });
    },
    actions: accountActions(ctx, options, kinds),
  };
}
