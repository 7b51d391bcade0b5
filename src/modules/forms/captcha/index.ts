/**
 * The CAPTCHA of a site's forms, chosen by its `captcha.provider` setting: 'altcha' (self-hosted, the default),
 * 'none', or a third-party adapter verified server-side: 'recaptcha-enterprise' (./recaptchaEnterprise.ts) or
 * 'turnstile' (./turnstile.ts), whose secrets come from the environment (CaptchaEnv, `captchaEnvOf(config)`) and
 * whose site keys come from the site file. A third-party site this process cannot verify for (a secret or the site
 * key missing) answers 'unavailable', and says why in the log: a form is never let through unchecked. A token the
 * provider accepted is spent here too (./spentTokens.ts): a second submission with it is 'replayed', even one sent at
 * the same moment to another process.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../../config';
import type { CaptchaAction } from '../../../core/forms/submission';
import type { Database } from '../../../platform/db/tables';
import type { Site } from '../../site';
import { verifyAltcha } from './altcha';
import { RECAPTCHA_TOKEN_LIFETIME_MS, verifyRecaptchaEnterprise } from './recaptchaEnterprise';
import { spendToken, spentTokenId } from './spentTokens';
import { TURNSTILE_TOKEN_LIFETIME_MS, verifyTurnstile } from './turnstile';
import type { CaptchaCheck, CaptchaVerdict, CaptchaVisitor } from './types';

export type { CaptchaCheck, CaptchaVisitor } from './types';

export interface CaptchaVerifier {
  (
    db: Kysely<Database>,
    site: Site,
    token: string,
    action: CaptchaAction,
    visitor?: CaptchaVisitor,
  ): Promise<CaptchaCheck>;
}

/** The third-party providers' secrets and API addresses (RECAPTCHA_ENTERPRISE_*, TURNSTILE_*). */
export interface CaptchaEnv {
  recaptchaEnterpriseApiKey?: string | undefined;
  /** Default https://recaptchaenterprise.googleapis.com (tests: a local server). */
  recaptchaEnterpriseApiUrl?: string | undefined;
  turnstileSecretKey?: string | undefined;
  /** Default https://challenges.cloudflare.com (tests: a local server). */
  turnstileApiUrl?: string | undefined;
  /** Per call to a provider (default 5 s). */
  timeoutMs?: number | undefined;
}

/** The CaptchaEnv of the loaded settings (`loadConfig`). */
export const captchaEnvOf = (config: Pick<Config, 'captcha'>): CaptchaEnv => ({
  recaptchaEnterpriseApiKey: config.captcha?.recaptchaEnterpriseApiKey,
  recaptchaEnterpriseApiUrl: config.captcha?.recaptchaEnterpriseApiUrl,
  turnstileSecretKey: config.captcha?.turnstileSecretKey,
  turnstileApiUrl: config.captcha?.turnstileApiUrl,
});

/** Whether the site asks for a CAPTCHA on forms that want one. */
export const captchaProviderOf = (site: Site) => site.settings.captcha?.provider ?? 'altcha';

/**
 * The host names a token may have been made on: the site's domains (without port). A site without domains (the
 * default site of a fresh install) takes the host the form was sent to. The Host header alone is not trusted when
 * the site names its domains: any host reaches the default site.
 */
export function expectedHostnames(site: Pick<Site, 'domains'>, visitor: CaptchaVisitor): string[] {
  const domains = site.domains.map((domain) => domain.replace(/:\d+$/, '').toLowerCase()).filter((d) => d !== '');
  if (domains.length > 0) return [...new Set(domains)];
  return visitor.hostname ? [visitor.hostname.toLowerCase()] : [];
}

const unavailable = (reason: string): CaptchaVerdict => ({ check: 'unavailable', reason });

export interface CaptchaLog {
  warn(message: string): void;
}

/** A verifier for this process's settings; `log` hears why a provider was 'unavailable' (the visitor is not told). */
export function captchaVerifier(env: CaptchaEnv = {}, log?: CaptchaLog): CaptchaVerifier {
  return async (db, site, token, action, visitor = {}) => {
    const settings = site.settings.captcha;
    const provider = captchaProviderOf(site);
    let result: CaptchaVerdict;
    switch (provider) {
      case 'none':
        return 'ok';
      case 'altcha':
        return verifyAltcha(db, site.id, token);
      case 'recaptcha-enterprise': {
        const apiKey = env.recaptchaEnterpriseApiKey?.trim();
        if (!apiKey) result = unavailable('RECAPTCHA_ENTERPRISE_API_KEY is not set');
        else if (!settings?.siteKey) result = unavailable("the site's captcha.siteKey is not set");
        else if (!settings.projectId) result = unavailable("the site's captcha.projectId is not set");
        else {
          result = await verifyRecaptchaEnterprise(
            {
              apiKey,
              projectId: settings.projectId,
              siteKey: settings.siteKey,
              apiUrl: env.recaptchaEnterpriseApiUrl,
              scoreThreshold: settings.scoreThreshold,
              timeoutMs: env.timeoutMs,
            },
            token,
            { action, hostnames: expectedHostnames(site, visitor) },
            visitor,
          );
        }
        break;
      }
      case 'turnstile': {
        const secretKey = env.turnstileSecretKey?.trim();
        if (!secretKey) result = unavailable('TURNSTILE_SECRET_KEY is not set');
        else {
          result = await verifyTurnstile(
            { secretKey, apiUrl: env.turnstileApiUrl, timeoutMs: env.timeoutMs },
            token,
            { action, hostnames: expectedHostnames(site, visitor) },
            visitor,
          );
        }
        break;
      }
      default:
        result = unavailable(`unknown captcha provider '${String(provider)}'`);
    }
    if (result.check === 'unavailable')
      log?.warn(`CAPTCHA (${provider}) of site ${site.id} could not be checked: ${result.reason}`);
    if (result.check === 'ok') {
      // Kept a little past the token's own lifetime (the providers' clocks); after that it is refused as expired.
      const lifetime =
        (provider === 'turnstile' ? TURNSTILE_TOKEN_LIFETIME_MS : RECAPTCHA_TOKEN_LIFETIME_MS) + 2 * 60_000;
      if (!(await spendToken(db, site.id, spentTokenId(provider, token), new Date(Date.now() + lifetime))))
        return 'replayed';
    }
    return result.check;
  };
}

/** ALTCHA and none work without settings; the third-party providers need a verifier made with their CaptchaEnv. */
export const verifyCaptcha: CaptchaVerifier = captchaVerifier();

declare module '../../../platform/http/appContext' {
  interface AppContext {
    /** Checks a form's CAPTCHA answer with the site's provider (secrets from the environment: this folder). */
    verifyCaptcha?: CaptchaVerifier;
  }
}
