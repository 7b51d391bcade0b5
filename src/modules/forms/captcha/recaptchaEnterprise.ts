/**
 * reCAPTCHA Enterprise (score-based, v3): the browser gets a token with `grecaptcha.enterprise.execute(siteKey,
 * { action })`; the server asks Google for an assessment of it (projects.assessments.create, authenticated by an API
 * key from the environment) and accepts it only when Google says the token is valid, it was made for the expected §7
 * action, on one of the site's host names, less than two minutes ago, and its score reaches the site's threshold.
 * Anything Google could not answer (a network error, a timeout, a 5xx, a refusal of the key, an answer that is not
 * an assessment) is 'unavailable': never a pass. Google refuses a token assessed twice (DUPE): 'replayed'.
 */
import { isObject, NOT_JSON, postToProvider } from './providerCall';
import {
  DEFAULT_CAPTCHA_TIMEOUT_MS,
  MAX_CAPTCHA_TOKEN_LENGTH,
  type CaptchaExpectation,
  type CaptchaVerdict,
  type CaptchaVisitor,
} from './types';

export const RECAPTCHA_ENTERPRISE_API_URL = 'https://recaptchaenterprise.googleapis.com';
/** Scores run from 0.0 (very likely a bot) to 1.0 (very likely a person); Google suggests 0.5 to start with. */
export const DEFAULT_RECAPTCHA_SCORE_THRESHOLD = 0.5;
/** A reCAPTCHA token is good for two minutes after it was made. */
export const RECAPTCHA_TOKEN_LIFETIME_MS = 2 * 60_000;
/** Leeway for the clocks of Google and this machine. */
const CLOCK_SKEW_MS = 30_000;

export interface RecaptchaEnterpriseOptions {
  /** RECAPTCHA_ENTERPRISE_API_KEY. */
  apiKey: string;
  /** The site's `captcha.projectId`. */
  projectId: string;
  /** The site's `captcha.siteKey`. */
  siteKey: string;
  /** Default RECAPTCHA_ENTERPRISE_API_URL (tests: a local server). */
  apiUrl?: string | undefined;
  /** Default DEFAULT_RECAPTCHA_SCORE_THRESHOLD. */
  scoreThreshold?: number | undefined;
  timeoutMs?: number | undefined;
}

const verdict = (check: CaptchaVerdict['check'], reason: string): CaptchaVerdict => ({ check, reason });

/** The assessment's request: the token, the key it was made with, the action expected and what helps Google judge. */
export function assessmentRequest(
  options: Pick<RecaptchaEnterpriseOptions, 'siteKey'>,
  token: string,
  action: string,
  visitor: CaptchaVisitor,
) {
  return {
    event: {
      token,
      siteKey: options.siteKey,
      expectedAction: action,
      ...(visitor.ip ? { userIpAddress: visitor.ip } : {}),
      ...(visitor.userAgent ? { userAgent: visitor.userAgent.slice(0, 512) } : {}),
    },
  };
}

export async function verifyRecaptchaEnterprise(
  options: RecaptchaEnterpriseOptions,
  token: string,
  expected: CaptchaExpectation,
  visitor: CaptchaVisitor = {},
  now: Date = new Date(),
): Promise<CaptchaVerdict> {
  if (token === '' || token.length > MAX_CAPTCHA_TOKEN_LENGTH)
    return verdict('invalid', 'the token is empty or too long');
  const base = (options.apiUrl ?? RECAPTCHA_ENTERPRISE_API_URL).replace(/\/+$/, '');
  const url = `${base}/v1/projects/${encodeURIComponent(options.projectId)}/assessments`;
  const answer = await postToProvider(url, assessmentRequest(options, token, expected.action, visitor), {
    timeoutMs: options.timeoutMs ?? DEFAULT_CAPTCHA_TIMEOUT_MS,
    // The key in a header, not in the URL: URLs end up in proxies' logs.
    headers: { 'x-goog-api-key': options.apiKey },
  });
  if (answer.kind === 'unreachable')
    return verdict('unavailable', `reCAPTCHA Enterprise unreachable: ${answer.reason}`);
  if (answer.status !== 200) {
    const message =
      isObject(answer.json) && isObject(answer.json.error) && typeof answer.json.error.message === 'string'
        ? `: ${answer.json.error.message.slice(0, 200)}`
        : '';
    const hint =
      answer.status === 400 || answer.status === 403 || answer.status === 404
        ? " (check RECAPTCHA_ENTERPRISE_API_KEY and the site's captcha.projectId)"
        : '';
    return verdict('unavailable', `reCAPTCHA Enterprise answered ${answer.status}${message}${hint}`);
  }
  if (answer.json === NOT_JSON || !isObject(answer.json) || !isObject(answer.json.tokenProperties)) {
    return verdict('unavailable', 'reCAPTCHA Enterprise answered something that is not an assessment');
  }
  const properties = answer.json.tokenProperties;
  if (properties.valid !== true) {
    const why = typeof properties.invalidReason === 'string' ? properties.invalidReason : 'no reason given';
    if (why === 'EXPIRED') return verdict('expired', 'the token expired');
    if (why === 'DUPE') return verdict('replayed', 'the token was already assessed');
    return verdict('invalid', `the token is not valid: ${why}`);
  }
  if (properties.action !== expected.action)
    return verdict('invalid', `the token was made for action ${String(properties.action)}, not ${expected.action}`);
  const hostname = typeof properties.hostname === 'string' ? properties.hostname.toLowerCase() : '';
  if (expected.hostnames.length > 0 && !expected.hostnames.includes(hostname)) {
    return verdict(
      'invalid',
      `the token was made on ${hostname || 'no host'}, not on ${expected.hostnames.join(', ')}`,
    );
  }
  const created = typeof properties.createTime === 'string' ? Date.parse(properties.createTime) : NaN;
  if (Number.isNaN(created)) return verdict('unavailable', 'the assessment has no creation time');
  if (now.getTime() - created > RECAPTCHA_TOKEN_LIFETIME_MS + CLOCK_SKEW_MS)
    return verdict('expired', 'the token is older than two minutes');
  const risk = answer.json.riskAnalysis;
  const score = isObject(risk) && typeof risk.score === 'number' && Number.isFinite(risk.score) ? risk.score : null;
  if (score === null) return verdict('unavailable', 'the assessment has no score');
  const threshold = options.scoreThreshold ?? DEFAULT_RECAPTCHA_SCORE_THRESHOLD;
  if (score < threshold) return verdict('invalid', `score ${score} is below the threshold ${threshold}`);
  return verdict('ok', `score ${score}`);
}
