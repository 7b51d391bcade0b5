/**
 * The crumb header for the page's state-changing calls (src/core/crumb.ts): every POST, PUT and DELETE a script
 * sends carries `crumbHeaders()`. The cookie is read at send time, so a crumb renewed by another tab is used.
 */
import { CRUMB_COOKIE, CRUMB_HEADER, isCrumb, readCookie } from '../core/crumb';

export function crumbHeaders(
  cookieString: string = typeof document === 'undefined' ? '' : document.cookie,
): Record<string, string> {
  const crumb = readCookie(cookieString, CRUMB_COOKIE);
  return isCrumb(crumb) ? { [CRUMB_HEADER]: crumb } : {};
}

/** §8's "first check": whether the browser keeps cookies at all (a crumb failure then asks to enable them). */
export const cookiesEnabled = (): boolean => typeof navigator === 'undefined' || navigator.cookieEnabled !== false;
