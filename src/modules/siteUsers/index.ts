/**
 * The site's staff and members: accounts, passwords, sessions, roles (spec §3/§6), `vitrine users`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { hashPassword, verifyPassword } from './passwords';
export { currentSiteUser, registerSiteUserSession, requireSiteUser } from './siteUserSession';
export { sessionExpiryJob } from './jobs';
export { shopNoticeRecipients } from './users';
