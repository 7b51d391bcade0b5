/**
 * Signed-in site users for tests: `signInAs(app, db, host, role)` adds a fresh user of that role to the host's site
 * and signs in through the real form (POST /account/sign-in), returning the Cookie header value to send (the session
 * cookie and the crumb). Works with an app wrapped by sendCrumbs or not.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { CRUMB_COOKIE, CRUMB_FIELD } from '../../src/core/crumb';
import type { ContributorRole } from '../../src/core/enums';
import type { Database } from '../../src/platform/db/tables';
import { SITE_USER_COOKIE } from '../../src/modules/siteUsers/siteUserSession';
import { createSiteUser, type SiteUser } from '../../src/modules/siteUsers/users';
import { findSiteByHost } from '../../src/modules/site/sites';
import { TEST_CRUMB } from './crumb';

export const TEST_PASSWORD = 'correct horse battery staple';

export async function addSiteUser(
  db: Kysely<Database>,
  host: string,
  role: ContributorRole,
  email = `user-${randomBytes(4).toString('hex')}@example.com`,
): Promise<SiteUser> {
  const site = await findSiteByHost(db, host);
  if (!site) throw new Error(`addSiteUser: no site at ${host}`);
  return createSiteUser(db, { siteId: site.id, email, password: TEST_PASSWORD, role });
}

/** Signs `email` in with TEST_PASSWORD; the Cookie header value of the session (with the crumb). */
export async function signIn(app: FastifyInstance, host: string, email: string): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/account/sign-in',
    headers: { host, 'content-type': 'application/x-www-form-urlencoded', cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}` },
    payload: new URLSearchParams({ email, password: TEST_PASSWORD, [CRUMB_FIELD]: TEST_CRUMB }).toString(),
  });
  const session = answer.cookies.find((c) => c.name === SITE_USER_COOKIE);
  if (answer.statusCode !== 303 || !session)
    throw new Error(
      `signIn: expected a 303 with a session cookie, got ${answer.statusCode}: ${answer.body.slice(0, 300)}`,
    );
  return `${SITE_USER_COOKIE}=${session.value}; ${CRUMB_COOKIE}=${TEST_CRUMB}`;
}

export async function signInAs(
  app: FastifyInstance,
  db: Kysely<Database>,
  host: string,
  role: ContributorRole,
): Promise<string> {
  const user = await addSiteUser(db, host, role);
  return signIn(app, host, user.email);
}
