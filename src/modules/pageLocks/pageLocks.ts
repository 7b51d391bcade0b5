/**
 * Password-protected pages (spec §2, lock screen 103 / protected content 105): checking a typed password against the
 * site file's, and the cookie that opens a page afterwards. The cookie's signature is an HMAC-SHA256, under the
 * site's secret (`page_lock_secrets`, made on first use, shared by every process), of the site, the page, its stored
 * password and the expiry: it opens that page only, until that time, and only while the password is unchanged.
 * The cookie's format and names are in src/core/pageLock.ts.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  formatUnlockToken,
  isPasswordHash,
  isUnexpired,
  parseUnlockToken,
  PAGE_PASSWORD_MAX_LENGTH,
  PAGE_UNLOCK_SECONDS,
} from '../../core/pageLock';
import type { Database } from '../../platform/db/tables';
import type { Page } from '../site';
import { verifyPassword } from '../siteUsers';
import type { Site } from '../site';

type Db = Kysely<Database>;

/** A site-file page that asks for a password. */
export type LockedPage = Pick<Page, 'id' | 'path' | 'title'> & { password: string };

export const isLocked = (page: Pick<Page, 'password'>): page is Pick<Page, 'password'> & { password: string } =>
  page.password !== undefined;

/** The site's HMAC secret; made (once, whatever process asks first) when missing. */
async function lockSecret(db: Db, siteId: string): Promise<string> {
  const found = await db
    .selectFrom('page_lock_secrets')
    .select('secret')
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (found) return found.secret;
  await db
    .insertInto('page_lock_secrets')
    .values({ site_id: siteId, secret: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('site_id').doNothing())
    .execute();
  const made = await db
    .selectFrom('page_lock_secrets')
    .select('secret')
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return made.secret;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

const signature = (secret: string, site: Site, page: LockedPage, expiresAt: number): string =>
  createHmac('sha256', secret)
    .update(
      ['page-lock', site.id, page.id, page.path, sha256(page.password).toString('base64url'), String(expiresAt)].join(
        '\n',
      ),
    )
    .digest('base64url');

/** Whether `typed` is the page's password (a hash is checked by scrypt; a password as written, in constant time). */
export async function checkPagePassword(page: LockedPage, typed: string): Promise<boolean> {
  if (typed === '' || typed.length > PAGE_PASSWORD_MAX_LENGTH) return false;
  if (isPasswordHash(page.password)) return verifyPassword(typed, page.password);
  return timingSafeEqual(sha256(typed.normalize('NFKC')), sha256(page.password.normalize('NFKC')));
}

/** The cookie value that opens `page` for PAGE_UNLOCK_SECONDS from `now` (ms). */
export async function unlockToken(db: Db, site: Site, page: LockedPage, now: number = Date.now()): Promise<string> {
  const expiresAt = Math.floor(now / 1000) + PAGE_UNLOCK_SECONDS;
  return formatUnlockToken({ expiresAt, signature: signature(await lockSecret(db, site.id), site, page, expiresAt) });
}

/** Whether the visitor's cookie value opens `page` now: signed for it by this site, unexpired, password unchanged. */
export async function opensPage(
  db: Db,
  site: Site,
  page: LockedPage,
  cookie: unknown,
  now: number = Date.now(),
): Promise<boolean> {
  const token = parseUnlockToken(cookie);
  if (!token || !isUnexpired(token, now)) return false;
  const expected = Buffer.from(signature(await lockSecret(db, site.id), site, page, token.expiresAt));
  const given = Buffer.from(token.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
