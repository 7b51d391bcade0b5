/**
 * Parts of the buying island (./ProductPurchase.tsx) whose code is kept out of the product page's first script: its
 * JavaScript budget is tight, and these parts are on some products only or do nothing until used.
 *
 * - On the server the island renderer (src/ui/Island.tsx) gives the real components through ServerParts: the page
 *   carries their whole markup, each inside a Suspense boundary.
 * - In the browser each boundary stays as the server rendered it (dehydrated) until its code has loaded; then React
 *   hydrates it. A change that reaches a part before then renders it afresh as soon as its code is there.
 *
 * The pay-later badge (../payLater/PayLaterBadge.tsx, with the rules of src/core/payLater.ts) loads once the browser
 * is idle, or at once when the pointer or focus reaches the buying form; a click on it before then is made again once
 * it has hydrated. A subscription's price and options (./SubscriptionPrice.tsx, with the plan rules) load at once, on
 * a subscription's page only.
 */
import { createContext, lazy, Suspense, useContext, useEffect, type ComponentType } from 'react';
import type { PayLaterBadgeProps } from '../payLater/PayLaterBadge';
import type { SubscriptionPriceProps } from './SubscriptionPrice';
import { whenIdle, whenReached } from './wake';

export interface DeferredParts {
  PayLaterBadge: ComponentType<PayLaterBadgeProps>;
  SubscriptionPrice: ComponentType<SubscriptionPriceProps>;
}

/** The real components, given by the server's island renderer; null in the browser. */
export const ServerParts = createContext<DeferredParts | null>(null);

/**
 * A part whose code `load` fetches. `onHydrated` runs once the part's first copy is hydrated (its handlers attached).
 */
function deferredPart<K extends keyof DeferredParts>(
  name: K,
  load: () => Promise<DeferredParts[K]>,
  onHydrated?: () => void,
) {
  const Lazy = lazy(() =>
    load().then((Component) => {
      const Loaded = Component as ComponentType<object>;
      function HydratedPart(props: object) {
        useEffect(() => onHydrated?.(), []);
        return <Loaded {...props} />;
      }
      return { default: HydratedPart };
    }),
  );
  return function DeferredPart(props: DeferredParts[K] extends ComponentType<infer P> ? P : never) {
    const Part = (useContext(ServerParts)?.[name] as ComponentType<object> | undefined) ?? Lazy;
    return (
      <Suspense fallback={null}>
        <Part {...(props as object)} />
      </Suspense>
    );
  };
}

/**
 * A badge button clicked before its code was there is clicked again once it is: the shopper's click is not lost.
 * Heard on the document in the capture phase, because React stops a click on a part it has not hydrated yet.
 */
let payLaterClickedEarly: HTMLButtonElement | null = null;
const hearEarlyClick = (event: MouseEvent) => {
  const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>('.pay-later button');
  if (button) payLaterClickedEarly = button;
};

const payLaterBadgeWanted = () =>
  new Promise<void>((resolve) => {
    document.addEventListener('click', hearEarlyClick, true);
    whenIdle(resolve);
    for (const badge of document.querySelectorAll<HTMLElement>('.pay-later'))
      whenReached(badge.closest<HTMLElement>('form') ?? badge, () => resolve());
  });

export const DeferredPayLaterBadge = deferredPart(
  'PayLaterBadge',
  () =>
    payLaterBadgeWanted()
      .then(() => import('../payLater/PayLaterBadge'))
      .then((m) => m.PayLaterBadge),
  () => {
    document.removeEventListener('click', hearEarlyClick, true);
    const clicked = payLaterClickedEarly;
    payLaterClickedEarly = null;
    clicked?.click();
  },
);

export const DeferredSubscriptionPrice = deferredPart('SubscriptionPrice', () =>
  import('./SubscriptionPrice').then((m) => m.SubscriptionPrice),
);
