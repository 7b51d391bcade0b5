/**
 * Restock notices: sign-ups per variant, the send when stock returns, unsubscribe, `vitrine restock`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { recordRestocks, type Restocked } from './restocks';
export { registerRestockRoutes, type RestockRouteOptions } from './routes';
export { restockJob } from './jobs';
