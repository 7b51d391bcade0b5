/**
 * Password-protected pages: the lock screen, its cookie and attempts.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { isLocked, opensPage, type LockedPage } from './pageLocks';
export { NOT_A_LOCKED_PAGE_MESSAGE, pageLockPages, type PageLockRouteOptions } from './pages';
