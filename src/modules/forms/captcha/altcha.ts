/**
 * ALTCHA, the self-hosted proof-of-work CAPTCHA (the default; no key, no outside host). A challenge is signed (HMAC)
 * with the site's secret, made on first use and kept in `captcha_secrets`, so every process signs and checks alike;
 * it expires after CHALLENGE_LIFETIME_MS. A solution is accepted once: its challenge's nonce is inserted into
 * `captcha_solutions`, whose primary key (site, nonce) refuses the second insert, whatever process it reaches.
 */
import { randomBytes } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/tables';

type Db = Kysely<Database>;

/** A challenge must be solved and sent within this time. */
export const CHALLENGE_LIFETIME_MS = 10 * 60_000;
export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';

/** The work asked: PBKDF2 iterations per try, and the range of tries the answer lies in (about a second in a browser). */
export interface AltchaDifficulty {
  cost: number;
  minCounter: number;
  maxCounter: number;
}
export const DEFAULT_ALTCHA_DIFFICULTY: AltchaDifficulty = { cost: 200, minCounter: 1000, maxCounter: 5000 };

export type AltchaCheck = 'ok' | 'invalid' | 'expired' | 'replayed';

/** The site's HMAC secret; made (once, whatever process asks first) when missing. */
export async function captchaSecret(db: Db, siteId: string): Promise<string> {
  const found = await db
    .selectFrom('captcha_secrets')
    .select('secret')
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (found) return found.secret;
  await db
    .insertInto('captcha_secrets')
    .values({ site_id: siteId, secret: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('site_id').doNothing())
    .execute();
  const made = await db
    .selectFrom('captcha_secrets')
    .select('secret')
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return made.secret;
}

const keySecret = (secret: string) => `${secret}:key`;

export async function createAltchaChallenge(
  db: Db,
  siteId: string,
  difficulty: AltchaDifficulty = DEFAULT_ALTCHA_DIFFICULTY,
  now: Date = new Date(),
): Promise<Challenge> {
  const secret = await captchaSecret(db, siteId);
  return createChallenge({
    algorithm: ALTCHA_ALGORITHM,
    cost: difficulty.cost,
    counter: randomInt(difficulty.minCounter, difficulty.maxCounter),
    deriveKey,
    expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS),
    hmacSignatureSecret: secret,
    hmacKeySignatureSecret: keySecret(secret),
  });
}

/** The widget's value: base64 of the JSON { challenge, solution }; anything else reads as null. */
export function parseAltchaPayload(text: string): Payload | null {
  if (text.length > 10_000) return null;
  try {
    const payload = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Payload;
    const parameters = payload?.challenge?.parameters;
    if (typeof parameters?.nonce !== 'string' || typeof payload.solution?.counter !== 'number') return null;
    return payload;
  } catch {
    return null;
  }
}

/** Checks a solved challenge and spends it: 'ok' once, 'replayed' after. */
export async function verifyAltcha(db: Db, siteId: string, text: string, now: Date = new Date()): Promise<AltchaCheck> {
  const payload = parseAltchaPayload(text);
  if (!payload) return 'invalid';
  const secret = await captchaSecret(db, siteId);
  let verified: boolean;
  try {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: keySecret(secret),
    });
    if (result.expired) return 'expired';
    verified = result.verified === true;
  } catch {
    return 'invalid';
  }
  if (!verified) return 'invalid';
  // Drop spent challenges that can no longer be replayed (expired anyway), then spend this one.
  await db.deleteFrom('captcha_solutions').where('expires_at', '<', now.toISOString()).execute();
  const expiresAt = new Date(
    (payload.challenge.parameters.expiresAt ?? 0) * 1000 || now.getTime() + CHALLENGE_LIFETIME_MS,
  ).toISOString();
  const inserted = await db
    .insertInto('captcha_solutions')
    .values({ site_id: siteId, challenge_id: payload.challenge.parameters.nonce, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['site_id', 'challenge_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? 'ok' : 'replayed';
}
