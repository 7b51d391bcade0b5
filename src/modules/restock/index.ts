/**
 * Restock notices: sign-ups per variant, the send when stock returns, unsubscribe, `vitrine restock`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { recordRestocks, type Restocked } from './restocks';
export { restockJob } from './jobs';
export { countWaitingSignUps } from './waiting';
export { restockPages } from './pages';
export type { RestockRouteOptions } from './signUpRequests';
