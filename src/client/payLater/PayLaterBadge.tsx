import { lazy, Suspense, useState } from 'react';
import { isPayLaterContext, payLaterBadge, payLaterBadgeText } from '../../core/payLater';
import type { Money } from '../../core/money';

const PayLaterInfoDialog = lazy(() => import('./PayLaterInfoDialog'));

/** An unreadable context is reported through the error reporter (§8: a caught error), never thrown at the shopper. */
const reported = new WeakSet<object>();
function reportUnreadable(context: unknown): void {
  if (typeof context === 'object' && context !== null) {
    if (reported.has(context)) return;
    reported.add(context);
  }
  if (typeof globalThis.reportError === 'function') globalThis.reportError(new Error('Unreadable pay-later context'));
}

/**
 * The pay-later badge under the price (§2, §4, §5, §9): the instalment wording for a price in the store's range, the
 * range text otherwise; the badge and its info button open the information popup. Nothing for a product or price
 * that does not qualify.
 */
export interface PayLaterBadgeProps {
  product: { productType: number; isSubscribable: boolean };
  price: Money | null;
  context: unknown;
}

export function PayLaterBadge({ product, price, context }: PayLaterBadgeProps) {
  const [open, setOpen] = useState(false);
  if (!isPayLaterContext(context)) {
    reportUnreadable(context);
    return null;
  }
  const badge = price ? payLaterBadge(product, price, context) : null;
  if (!badge) return null;
  return (
    <p className="pay-later">
      <button type="button" className="pay-later__badge" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {payLaterBadgeText(badge)}
      </button>{' '}
      <button
        type="button"
        className="pay-later__info"
        aria-haspopup="dialog"
        aria-label={`About ${badge.brand}`}
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="M12 10.5v6M12 7.2v.1" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <PayLaterInfoDialog
            brand={badge.brand}
            shopperLanguage={context.shopperLanguage}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </p>
  );
}
