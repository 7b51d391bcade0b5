/**
 * Analytics: visits, web vitals and client errors recorded (spec §7), rolled up, reported (page, token link, `vitrine report`).
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { registerAnalyticsRoutes } from './routes';
export { analyticsRollupJob } from './jobs';
export { registerAnalyticsAdminRoutes } from './adminRoutes';
