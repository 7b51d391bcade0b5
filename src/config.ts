/**
 * Settings from the environment, checked once at start. Every bad value is named in one error.
 *   PORT          port to listen on (default 3000; 0 picks a free port)
 *   HOST          address to listen on (default 0.0.0.0)
 *   DATABASE_URL  SQLite file path or sqlite: URL, or postgres:// URL (default ./data/vitrine.db; the folder is created)
 *   REDIS_URL     redis:// or rediss:// URL, optional: shared rate limits and site change notices across processes
 *   TRUST_PROXY   which X-Forwarded-* to believe (default false): a number of proxy hops (1: one reverse proxy), or the
 *                 proxies' addresses and CIDR ranges (10.0.0.0/8,127.0.0.1; also loopback, linklocal, uniquelocal);
 *                 true trusts every hop, which is only safe behind a proxy that replaces X-Forwarded-For
 *   REQUEST_TIMEOUT_MS     a request (headers and body) must arrive within this (default 30000)
 *   KEEP_ALIVE_TIMEOUT_MS  an idle keep-alive connection is closed after this (default 72000; above the proxy's own)
 *   MAX_CONNECTIONS        connections held at once (default 4096); see src/platform/http/httpLimits.ts for the others
 *   SHUTDOWN_TIMEOUT_MS    on SIGTERM, the time given to the requests under way before their connections are cut
 *                          (default 10000; src/platform/http/gracefulClose.ts)
 *   SMTP_URL      smtp:// or smtps:// URL of the mail server, optional: without it e-mail stays in the outbox
 *   PUBLIC_URL    the shop's address, http(s)://host[:port] (optional): the origin of every link in its e-mails, for the
 *                 site it names (one of its domains) or a site without domains; never the request's Host
 *   MAIL_FROM     the sender of every e-mail (default Vitrine <no-reply@localhost>)
 *   STRIPE_SECRET_KEY       Stripe secret key (sk_… or a restricted rk_…), needed by sites whose payment provider is stripe
 *   STRIPE_PUBLISHABLE_KEY  Stripe publishable key (pk_…), for Stripe.js on the checkout page
 *   STRIPE_WEBHOOK_SECRET   signing secret of the Stripe webhook endpoint (whsec_…); without it the webhook answers 404
 *   STRIPE_API_URL          base URL of Stripe's API, http(s)://host[:port], optional (tests, a proxy; default https://api.stripe.com)
 *   RECAPTCHA_ENTERPRISE_API_KEY  Google Cloud API key that may create reCAPTCHA Enterprise assessments, needed by sites
 *                                 whose captcha provider is recaptcha-enterprise
 *   RECAPTCHA_ENTERPRISE_API_URL  base URL of that API, http(s)://host[:port], optional (tests, a proxy; default
 *                                 https://recaptchaenterprise.googleapis.com)
 *   TURNSTILE_SECRET_KEY          Cloudflare Turnstile secret key, needed by sites whose captcha provider is turnstile
 *   TURNSTILE_API_URL             base URL of Turnstile's siteverify, optional (tests, a proxy; default https://challenges.cloudflare.com)
 */
import { isIP } from 'node:net';
import { parseDatabaseUrl } from './platform/db/connect';
import type { HttpLimits } from './platform/http/httpLimits';
import { redacted } from './platform/redactedUrl';

export { redacted };

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl?: string;
  trustProxy: TrustProxy;
  /** The limits set in the environment (the rest are DEFAULT_HTTP_LIMITS); present when any is. */
  httpLimits?: Partial<HttpLimits>;
  /** SHUTDOWN_TIMEOUT_MS: on SIGTERM, how long the requests under way may take before their connections are cut. */
  shutdownTimeoutMs: number;
  smtpUrl?: string;
  mailFrom: string;
  /** PUBLIC_URL: the origin of e-mail links (src/core/linkOrigin.ts), e.g. https://shop.example.com. */
  publicUrl?: string;
  /** Present when any STRIPE_* setting is. */
  stripe?: StripeConfig;
  /** Present when any RECAPTCHA_ENTERPRISE_* or TURNSTILE_* setting is. */
  captcha?: CaptchaConfig;
}

/** The settings of this process's environment (a ConfigError names every wrong one). */
export const loadSettings = (): Config => loadConfig(process.env);

/** The third-party CAPTCHA providers' secrets and API addresses (src/modules/forms/captcha). */
export interface CaptchaConfig {
  recaptchaEnterpriseApiKey?: string;
  recaptchaEnterpriseApiUrl?: string;
  turnstileSecretKey?: string;
  turnstileApiUrl?: string;
}

export interface StripeConfig {
  secretKey?: string;
  publishableKey?: string;
  webhookSecret?: string;
  apiUrl?: string;
}

export const DEFAULT_DATABASE_URL = './data/vitrine.db';
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
export const DEFAULT_MAIL_FROM = 'Vitrine <no-reply@localhost>';

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? `invalid setting: ${problems[0]}`
        : `invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };

  let port = 3000;
  const rawPort = value('PORT');
  if (rawPort !== undefined) {
    port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
    if (!(port >= 0 && port <= 65535)) problems.push(`PORT must be a whole number from 0 to 65535, not '${rawPort}'`);
  }

  const host = value('HOST') ?? '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) problems.push(`HOST must be a host name or IP address, not '${host}'`);

  const databaseUrl = value('DATABASE_URL') ?? DEFAULT_DATABASE_URL;
  try {
    parseDatabaseUrl(databaseUrl);
  } catch (error) {
    problems.push(`DATABASE_URL: ${(error as Error).message}`);
  }

  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined && !isUrl(redisUrl, ['redis:', 'rediss:'])) {
    problems.push(`REDIS_URL must be a redis:// or rediss:// URL, not '${redacted(redisUrl)}'`);
  }

  const trustProxy = trustProxyConfig(value('TRUST_PROXY'), problems);
  const httpLimits = httpLimitsConfig(value, problems);
  let shutdownTimeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const rawShutdown = value('SHUTDOWN_TIMEOUT_MS');
  if (rawShutdown !== undefined) {
    shutdownTimeoutMs = /^\d{1,9}$/.test(rawShutdown) ? Number(rawShutdown) : NaN;
    if (!(shutdownTimeoutMs >= 0 && shutdownTimeoutMs <= 600_000))
      problems.push(
        `SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 0 to 600000, not '${rawShutdown}'`,
      );
  }

  const smtpUrl = value('SMTP_URL');
  if (smtpUrl !== undefined && !isSmtpUrl(smtpUrl)) {
    problems.push(
      `SMTP_URL must be an smtp:// or smtps:// URL with a host (smtp://user:password@mail.example.com:587), not '${redacted(smtpUrl)}'`,
    );
  }

  const mailFrom = value('MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  if (!isMailbox(mailFrom)) {
    problems.push(
      `MAIL_FROM must be an e-mail address, as shop@example.com or Shop <shop@example.com>, not '${mailFrom.replace(/\p{Cc}/gu, '?')}'`,
    );
  }

  const rawPublicUrl = value('PUBLIC_URL');
  const publicUrl = rawPublicUrl !== undefined && isBaseUrl(rawPublicUrl) ? new URL(rawPublicUrl).origin : undefined;
  if (rawPublicUrl !== undefined && publicUrl === undefined) {
    problems.push(
      `PUBLIC_URL must be an http:// or https:// URL with a host and no path (https://shop.example.com), not '${redacted(rawPublicUrl)}'`,
    );
  }

  const stripe = stripeConfig(value, problems);
  const captcha = captchaConfig(value, problems);

  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    host,
    databaseUrl,
    ...(redisUrl !== undefined ? { redisUrl } : {}),
    trustProxy,
    ...(httpLimits ? { httpLimits } : {}),
    shutdownTimeoutMs,
    ...(smtpUrl !== undefined ? { smtpUrl } : {}),
    mailFrom,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(stripe ? { stripe } : {}),
    ...(captcha ? { captcha } : {}),
  };
}

/** Fastify's trustProxy: none, every hop, a number of hops, or the proxies' addresses and CIDR ranges. */
export type TrustProxy = boolean | number | string[];

/** Names proxy-addr knows for ranges of addresses. */
const ADDRESS_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxyConfig(raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined || /^(false|0)$/i.test(raw)) return false;
  if (/^true$/i.test(raw)) return true;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.some(isAddressOrRange)) {
    const bad = entries.find((entry) => !isAddressOrRange(entry));
    if (bad === undefined) return entries;
    problems.push(`TRUST_PROXY lists '${bad}', which is not an IP address or CIDR range (10.0.0.0/8, 127.0.0.1, ::1)`);
    return false;
  }
  problems.push(
    `TRUST_PROXY must be false, true (every hop), a number of proxy hops (1) or a comma-separated list of proxy addresses and CIDR ranges (10.0.0.0/8,127.0.0.1), not '${raw}'`,
  );
  return false;
}

function isAddressOrRange(entry: string): boolean {
  if (ADDRESS_RANGE_NAMES.includes(entry.toLowerCase())) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS and MAX_CONNECTIONS, or undefined when none is set. */
function httpLimitsConfig(
  value: (name: string) => string | undefined,
  problems: string[],
): Partial<HttpLimits> | undefined {
  const limits: Partial<HttpLimits> = {};
  const read = (name: string, key: keyof HttpLimits, min: number, max: number, unit: string) => {
    const raw = value(name);
    if (raw === undefined) return;
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (n >= min && n <= max) limits[key] = n;
    else problems.push(`${name} must be a whole number${unit} from ${min} to ${max}, not '${raw}'`);
  };
  read('REQUEST_TIMEOUT_MS', 'requestTimeoutMs', 1000, 3_600_000, ' of milliseconds');
  read('KEEP_ALIVE_TIMEOUT_MS', 'keepAliveTimeoutMs', 1000, 3_600_000, ' of milliseconds');
  read('MAX_CONNECTIONS', 'maxConnections', 1, 1_000_000, '');
  return Object.keys(limits).length > 0 ? limits : undefined;
}

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

// 'addr@domain' or 'Name <addr@domain>' (the name plain or in double quotes): one address, on one line.
const ADDRESS = /[^\s\p{Cc}@<>()[\]\\",;:]+@[^\s\p{Cc}@<>()[\]\\",;:]+/u.source;
const DISPLAY_NAME = /(?:"[^"\\\p{Cc}]*"|[^"<>@,;:()\\\p{Cc}]*?)\s*/u.source;
const MAILBOX = new RegExp(`^(?:${ADDRESS}|${DISPLAY_NAME}<${ADDRESS}>)$`, 'u');
const isMailbox = (value: string): boolean => MAILBOX.test(value);

function isUrl(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * The STRIPE_* settings, or undefined when none is set. Keys are only checked for their kind (the usual mistake is one
 * pasted into another's place), and a message shows no more of a key than its kind ('pk_test_…').
 */
function stripeConfig(value: (name: string) => string | undefined, problems: string[]): StripeConfig | undefined {
  const secretKey = value('STRIPE_SECRET_KEY');
  const publishableKey = value('STRIPE_PUBLISHABLE_KEY');
  const webhookSecret = value('STRIPE_WEBHOOK_SECRET');
  const apiUrl = value('STRIPE_API_URL');
  const key = (name: string, v: string | undefined, pattern: RegExp, expected: string) => {
    if (v !== undefined && !pattern.test(v)) problems.push(`${name} must be ${expected}, not ${keyKind(v)}`);
  };
  key(
    'STRIPE_SECRET_KEY',
    secretKey,
    /^(sk|rk)_[A-Za-z0-9_]+$/,
    'a Stripe secret key (sk_live_…, sk_test_… or a restricted rk_…)',
  );
  key(
    'STRIPE_PUBLISHABLE_KEY',
    publishableKey,
    /^pk_[A-Za-z0-9_]+$/,
    'a Stripe publishable key (pk_live_… or pk_test_…)',
  );
  key(
    'STRIPE_WEBHOOK_SECRET',
    webhookSecret,
    /^whsec_[A-Za-z0-9_+/=]+$/,
    "the webhook endpoint's signing secret (whsec_…)",
  );
  const mode = (v: string | undefined) =>
    v === undefined ? undefined : /^[a-z]+_live_/.test(v) ? 'live' : /^[a-z]+_test_/.test(v) ? 'test' : undefined;
  const secretMode = mode(secretKey);
  const publishableMode = mode(publishableKey);
  if (secretMode && publishableMode && secretMode !== publishableMode) {
    problems.push(
      `STRIPE_SECRET_KEY is a ${secretMode} key but STRIPE_PUBLISHABLE_KEY a ${publishableMode} key: use both live or both test keys`,
    );
  }
  if (apiUrl !== undefined && !isBaseUrl(apiUrl)) {
    problems.push(
      `STRIPE_API_URL must be an http:// or https:// URL with a host and no path (https://stripe-proxy.example.com:8443), not '${redacted(apiUrl)}'`,
    );
  }
  if (secretKey === undefined && publishableKey === undefined && webhookSecret === undefined && apiUrl === undefined)
    return undefined;
  return {
    ...(secretKey !== undefined ? { secretKey } : {}),
    ...(publishableKey !== undefined ? { publishableKey } : {}),
    ...(webhookSecret !== undefined ? { webhookSecret } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
  };
}

/** What kind of key a value looks like, without the key itself: 'pk_test_…', or that it is hidden. */
function keyKind(v: string): string {
  const kind = /^[a-z]{2,6}_(?:live_|test_)?/.exec(v)?.[0];
  return kind !== undefined && kind.length < v.length
    ? `'${kind}…'`
    : 'the value given (not shown: it may be a secret)';
}

function isBaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.hostname !== '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === ''
    );
  } catch {
    return false;
  }
}

/**
 * The RECAPTCHA_ENTERPRISE_* and TURNSTILE_* settings, or undefined when none is set. A secret is checked for its
 * shape only (one token, no spaces: a pasted line break or quote is the usual mistake) and never shown in a message.
 */
function captchaConfig(value: (name: string) => string | undefined, problems: string[]): CaptchaConfig | undefined {
  const config: CaptchaConfig = {};
  const secret = (name: string, key: 'recaptchaEnterpriseApiKey' | 'turnstileSecretKey', what: string) => {
    const v = value(name);
    if (v === undefined) return;
    if (/^[A-Za-z0-9._-]{10,300}$/.test(v)) config[key] = v;
    else
      problems.push(
        `${name} must be ${what}: 10 to 300 letters, digits, '.', '-' or '_' (the value given is not shown: it may be a secret)`,
      );
  };
  const baseUrl = (name: string, key: 'recaptchaEnterpriseApiUrl' | 'turnstileApiUrl', example: string) => {
    const v = value(name);
    if (v === undefined) return;
    if (isBaseUrl(v)) config[key] = v;
    else
      problems.push(
        `${name} must be an http:// or https:// URL with a host and no path (${example}), not '${redacted(v)}'`,
      );
  };
  secret('RECAPTCHA_ENTERPRISE_API_KEY', 'recaptchaEnterpriseApiKey', 'a Google Cloud API key (AIza…)');
  baseUrl('RECAPTCHA_ENTERPRISE_API_URL', 'recaptchaEnterpriseApiUrl', 'https://recaptchaenterprise.googleapis.com');
  secret('TURNSTILE_SECRET_KEY', 'turnstileSecretKey', 'a Turnstile secret key (0x…)');
  baseUrl('TURNSTILE_API_URL', 'turnstileApiUrl', 'https://challenges.cloudflare.com');
  return Object.keys(config).length > 0 ? config : undefined;
}
