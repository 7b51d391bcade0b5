/**
 * The unsubscribe link of restock e-mails: GET /restock/unsubscribe?token= says what the link is for and shows a
 * button (a mail scanner that opens links removes nothing); the button's post (./index.ts) shows the sign-up removed,
 * or that the link is not valid (404).
 */
import { z } from 'zod';
import { CRUMB_FIELD } from '../../../core/crumb';
import { PageType } from '../../../core/enums';
import { pageRoute } from '../../../platform/http/apiDescription';
import type { AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { visitorPageKind } from '../../../render/visitorPageKind';
import { RESTOCK_UNSUBSCRIBE_PATH } from '../send';
import { findRestockSubscription, type RestockSubscription } from '../unsubscribe';

/** What the page shows: the button for this sign-up, the sign-up removed, or that the link names none. */
export type UnsubscribePage =
  | { shown: 'ask'; subscription: RestockSubscription; token: string }
  | { shown: 'removed'; removed: RestockSubscription }
  | { shown: 'notValid' };

const TITLES = {
  ask: 'Remove your restock sign-up',
  removed: 'Sign-up removed',
  notValid: 'Link not valid',
} as const;

export const restockUnsubscribe = (ctx: AppContext) =>
  visitorPageKind<UnsubscribePage>({
    name: 'restockUnsubscribe',
    paths: [RESTOCK_UNSUBSCRIBE_PATH],
    route: { schema: restockUnsubscribePageRoute },
    // Not 'no-referrer': a form posted from such a page says Origin: null, which the crumb check refuses as another
    // website's. The page loads nothing from elsewhere, so the token in its address goes to no other host.
    headers: { 'cache-control': 'no-store' },
    load: async ({ request, site }) => {
      const query = request.query as { token?: unknown };
      const token = typeof query.token === 'string' ? query.token : '';
      const subscription = await findRestockSubscription(ctx.db, site.id, token);
      return subscription ? { shown: 'ask', subscription, token } : { shown: 'notValid' };
    },
    view: ({ request, reply, site }, page) => ({
      path: RESTOCK_UNSUBSCRIBE_PATH,
      pageType: PageType.PAGE,
      title: TITLES[page.shown],
      description: TITLES[page.shown],
      ...(page.shown === 'notValid' ? { status: 404 } : {}),
      body:
        page.shown === 'ask' ? (
          <Ask {...page} siteTitle={site.title} crumb={pageCrumb(request, reply, ctx)} />
        ) : page.shown === 'removed' ? (
          <Removed {...page} />
        ) : (
          <section>
            <h1 className="page-title">This link is not valid</h1>
            <p>The sign-up it was for is already removed.</p>
          </section>
        ),
    }),
  });

function Ask({
  subscription,
  token,
  siteTitle,
  crumb,
}: {
  subscription: RestockSubscription;
  token: string;
  siteTitle: string;
  crumb: string;
}) {
  return (
    <section className="restock-unsubscribe">
      <h1 className="page-title">Remove your restock sign-up</h1>
      <p>
        {subscription.email} is signed up to hear when {subscription.itemName} is back in stock at {siteTitle}.
      </p>
      <form method="post" action={RESTOCK_UNSUBSCRIBE_PATH}>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name={CRUMB_FIELD} value={crumb} />
        <button type="submit" className="button button--primary">
          Remove my sign-up
        </button>
      </form>
    </section>
  );
}

function Removed({ removed }: { removed: RestockSubscription }) {
  return (
    <section role="status">
      <h1 className="page-title">Sign-up removed</h1>
      <p>
        {removed.email} is no longer signed up for {removed.itemName}. (A mailing list you joined is separate: its
        e-mails have their own link.)
      </p>
    </section>
  );
}

const restockUnsubscribePageRoute = pageRoute(
  'restockUnsubscribePage',
  'A restock e-mail’s unsubscribe link: a button',
  {
    querystring: z.object({ token: z.string().optional() }),
  },
);
