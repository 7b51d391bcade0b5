/**
 * The newsletter's confirmation link: GET /newsletter/confirm?token= shows a button (a link checker that follows the
 * e-mail's link confirms nothing); its post (./index.ts) shows the subscription confirmed, or that the link is not
 * valid (404). The token is in the address: no Referer to anyone (`Referrer-Policy: no-referrer`).
 */
import { CRUMB_FIELD } from '../../../core/crumb';
import { PageType } from '../../../core/enums';
import type { AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { visitorPageKind } from '../../../render/visitorPageKind';
import { NEWSLETTER_CONFIRM_PATH } from '../newsletter';
import { newsletterConfirmPageRoute } from '../routes.schema';

/** What the page shows: the button for this link, the address confirmed, or that the link is not valid. */
export type NewsletterConfirmPage =
  { shown: 'ask'; token: string } | { shown: 'confirmed'; email: string } | { shown: 'notValid' };

const TITLES = {
  ask: 'Confirm your subscription',
  confirmed: 'Subscription confirmed',
  notValid: 'Link not valid',
} as const;

export const newsletterConfirm = (ctx: AppContext) =>
  visitorPageKind<NewsletterConfirmPage>({
    name: 'newsletterConfirm',
    paths: [NEWSLETTER_CONFIRM_PATH],
    route: { schema: newsletterConfirmPageRoute },
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    load: async ({ request }) => {
      const { token } = request.query as { token?: unknown };
      return { shown: 'ask', token: typeof token === 'string' ? token : '' };
    },
    view: ({ request, reply, site }, page) => ({
      path: NEWSLETTER_CONFIRM_PATH,
      pageType: PageType.PAGE,
      title: TITLES[page.shown],
      description: TITLES[page.shown],
      ...(page.shown === 'notValid' ? { status: 404 } : {}),
      body:
        page.shown === 'ask' ? (
          <Ask token={page.token} siteTitle={site.title} crumb={pageCrumb(request, reply, ctx)} />
        ) : page.shown === 'confirmed' ? (
          <Confirmed email={page.email} siteTitle={site.title} />
        ) : (
          <section>
            <h1 className="page-title">This link is not valid</h1>
            <p>It was already used, or a newer one was sent. Sign up again to get a new link.</p>
          </section>
        ),
    }),
  });

function Ask({ token, siteTitle, crumb }: { token: string; siteTitle: string; crumb: string }) {
  return (
    <section className="newsletter-confirm">
      <h1 className="page-title">Confirm your subscription</h1>
      <p>Press the button to join the mailing list of {siteTitle}.</p>
      <form method="post" action={NEWSLETTER_CONFIRM_PATH}>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name={CRUMB_FIELD} value={crumb} />
        <button type="submit" className="button button--primary">
          Confirm my subscription
        </button>
      </form>
    </section>
  );
}

function Confirmed({ email, siteTitle }: { email: string; siteTitle: string }) {
  return (
    <section role="status">
      <h1 className="page-title">Subscription confirmed</h1>
      <p>
        {email} is on the mailing list of {siteTitle}. Thank you!
      </p>
    </section>
  );
}
