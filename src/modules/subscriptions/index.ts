/**
 * Subscriptions: plans, checkout, billing runs, the cancel pages, `vitrine subscriptions`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { productSubscription, subscriptionFormId } from './plans';
export { subscriptionPages } from './pages';
export { subscriptionOfOrder, type Subscription } from './store';
export { createSubscriptionCart } from './subscriptionCart';
export { subscriptionBillingJob } from './jobs';
