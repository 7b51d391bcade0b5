/** The cancel link's pages (/subscriptions/cancel/{token}): confirm (a form that posts, no JavaScript), then done. */
import { SUBSCRIPTION_STATUS_TEXT } from '../../core/subscriptionSchedule';
import type { Subscription } from '../../modules/subscriptions';

export function CancelConfirmPage({
  subscription,
  action,
  crumb,
  nextBilling,
}: {
  subscription: Subscription;
  action: string;
  crumb: string;
  nextBilling: string | null;
}) {
  const open =
    subscription.status === 'active' || subscription.status === 'past_due' || subscription.status === 'paused';
  return (
    <div className="checkout-page subscription-cancel">
      <h1>Cancel your subscription</h1>
      <p>
        {subscription.line.title}: <strong>{subscription.planText}</strong>
      </p>
      <p>
        Status: <strong>{SUBSCRIPTION_STATUS_TEXT[subscription.status]}</strong>
        {open && nextBilling ? <> · Next billing date: {nextBilling}</> : null}
      </p>
      {open ? (
        <form method="post" action={action}>
          <input type="hidden" name="crumb" value={crumb} />
          <p>Nothing more will be charged or sent once you cancel. Orders already placed are not changed.</p>
          <button type="submit" className="button button--primary">
            Cancel subscription
          </button>
        </form>
      ) : (
        <p>This subscription has ended: there is nothing to cancel.</p>
      )}
    </div>
  );
}

export function CancelDonePage({ subscription, shopPath }: { subscription: Subscription; shopPath: string }) {
  return (
    <div className="checkout-page subscription-cancel">
      <h1 role="status">Your subscription is cancelled</h1>
      <p>
        {subscription.line.title} ({subscription.planText}) will not be charged or sent again.
      </p>
      <p>
        <a className="button" href={shopPath}>
          Continue shopping
        </a>
      </p>
    </div>
  );
}
