/** document.cookie for the census cookies (§4, §9): set with a lifetime, read, delete. */
import { readCookie } from '../../core/crumb';

export const VISIT_COOKIE = 'ss_cvr';
export const SESSION_COOKIE = 'ss_cvt';
/** The visitor's answer to the consent banner: 'yes' or 'no'. */
export const CONSENT_COOKIE = 'vitrine_consent';

export const getCookie = (name: string): string | null => {
  const value = readCookie(document.cookie, name);
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
};

export function setCookie(name: string, value: string, maxAgeMs: number): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${Math.floor(maxAgeMs / 1000)}; Path=/; SameSite=Lax${secure}`;
}

export const deleteCookie = (name: string): void => {
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax`;
};
