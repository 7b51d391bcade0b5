/**
 * Cloudflare Turnstile: the browser's widget gives a token; the server sends it to siteverify with the secret key
 * from the environment and accepts it only when Cloudflare says it succeeded, for the expected §7 action, on one of
 * the site's host names, less than five minutes ago. Cloudflare accepts a token once; the call carries an idempotency
 * key, so the one retry made after a network error, a timeout or a 5xx asks about the same verification (and gets its
 * answer) instead of spending the token twice. No answer after the retry, a refusal of the secret, or an answer that
 * is not siteverify's is 'unavailable': never a pass.
 */
import { randomUUID } from 'node:crypto';
import { isObject, NOT_JSON, postToProvider, type ProviderAnswer } from './providerCall';
import { DEFAULT_CAPTCHA_TIMEOUT_MS, type CaptchaExpectation, type CaptchaVerdict, type CaptchaVisitor } from './types';

export const TURNSTILE_API_URL = 'https://challenges.cloudflare.com';
export const TURNSTILE_SITEVERIFY_PATH = '/turnstile/v0/siteverify';
/** Cloudflare's limit on a token's length. */
export const TURNSTILE_MAX_TOKEN_LENGTH = 2048;
/** A token is good for five minutes after its challenge. */
export const TURNSTILE_TOKEN_LIFETIME_MS = 5 * 60_000;
const CLOCK_SKEW_MS = 30_000;

export interface TurnstileOptions {
  /** TURNSTILE_SECRET_KEY. */
  secretKey: string;
  /** Default TURNSTILE_API_URL (tests: a local server). */
  apiUrl?: string | undefined;
  timeoutMs?: number | undefined;
  /** Tries after the first when Cloudflare could not answer (default 1). */
  retries?: number | undefined;
  /** The idempotency key (default a random UUID per verification; tests give theirs). */
  idempotencyKey?: string | undefined;
}

const verdict = (check: CaptchaVerdict['check'], reason: string): CaptchaVerdict => ({ check, reason });

/** Error codes that mean the token is wrong (the visitor's side), as opposed to the call (ours or Cloudflare's). */
const TOKEN_ERRORS = new Set(['missing-input-response', 'invalid-input-response']);

const couldNotAnswer = (answer: ProviderAnswer) => answer.kind === 'unreachable' || answer.status >= 500;

export async function verifyTurnstile(
  options: TurnstileOptions,
  token: string,
  expected: CaptchaExpectation,
  visitor: CaptchaVisitor = {},
  now: Date = new Date(),
): Promise<CaptchaVerdict> {
  if (token === '' || token.length > TURNSTILE_MAX_TOKEN_LENGTH)
    return verdict('invalid', 'the token is empty or too long');
  const url = (options.apiUrl ?? TURNSTILE_API_URL).replace(/\/+$/, '') + TURNSTILE_SITEVERIFY_PATH;
  const body = {
    secret: options.secretKey,
    response: token,
    ...(visitor.ip ? { remoteip: visitor.ip } : {}),
    idempotency_key: options.idempotencyKey ?? randomUUID(),
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_CAPTCHA_TIMEOUT_MS;
  let answer = await postToProvider(url, body, { timeoutMs });
  for (let retry = 0; retry < (options.retries ?? 1) && couldNotAnswer(answer); retry++) {
    answer = await postToProvider(url, body, { timeoutMs });
  }
  if (answer.kind === 'unreachable') return verdict('unavailable', `Turnstile unreachable: ${answer.reason}`);
  if (answer.status !== 200) return verdict('unavailable', `Turnstile answered ${answer.status}`);
  if (answer.json === NOT_JSON || !isObject(answer.json) || typeof answer.json.success !== 'boolean') {
    return verdict('unavailable', 'Turnstile answered something that is not a siteverify answer');
  }
  const result = answer.json;
  const codes = Array.isArray(result['error-codes'])
    ? result['error-codes'].filter((c): c is string => typeof c === 'string')
    : [];
  if (result.success !== true) {
    if (codes.includes('timeout-or-duplicate'))
      return verdict('expired', 'the token expired or was already used (timeout-or-duplicate)');
    if (codes.length > 0 && codes.every((c) => TOKEN_ERRORS.has(c)))
      return verdict('invalid', `the token is not valid: ${codes.join(', ')}`);
    // A wrong or missing secret, a malformed call, Cloudflare's own error: the token was not judged.
    return verdict(
      'unavailable',
      `Turnstile refused the call: ${codes.join(', ') || 'no error code'}${codes.some((c) => c.includes('secret')) ? ' (check TURNSTILE_SECRET_KEY)' : ''}`,
    );
  }
  if (result.action !== expected.action)
    return verdict('invalid', `the token was made for action ${String(result.action)}, not ${expected.action}`);
  const hostname = typeof result.hostname === 'string' ? result.hostname.toLowerCase() : '';
  if (expected.hostnames.length > 0 && !expected.hostnames.includes(hostname)) {
    return verdict(
      'invalid',
      `the token was made on ${hostname || 'no host'}, not on ${expected.hostnames.join(', ')}`,
    );
  }
  const solved = typeof result.challenge_ts === 'string' ? Date.parse(result.challenge_ts) : NaN;
  if (Number.isNaN(solved)) return verdict('unavailable', 'the answer has no challenge time');
  if (now.getTime() - solved > TURNSTILE_TOKEN_LIFETIME_MS + CLOCK_SKEW_MS)
    return verdict('expired', 'the challenge is older than five minutes');
  return verdict('ok', 'verified');
}
