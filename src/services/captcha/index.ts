/**
 * The CAPTCHA of a site's forms, chosen by its `captcha.provider` setting: 'altcha' (self-hosted, the default),
 * 'none', or a third-party adapter ('recaptcha-enterprise', 'turnstile') verified server-side.
 */
import type { Kysely } from 'kysely';
import type { CaptchaAction } from '../../core/forms/submission';
import type { Database } from '../../db/tables';
import type { Site } from '../sites';
import { verifyAltcha, type AltchaCheck } from './altcha';

export type CaptchaCheck = AltchaCheck | 'unavailable';

export interface CaptchaVerifier {
  (db: Kysely<Database>, site: Site, token: string, action: CaptchaAction): Promise<CaptchaCheck>;
}

/** Whether the site asks for a CAPTCHA on forms that want one. */
export const captchaProviderOf = (site: Site) => site.settings.captcha?.provider ?? 'altcha';

export const verifyCaptcha: CaptchaVerifier = async (db, site, token) => {
  switch (captchaProviderOf(site)) {
    case 'none':
      return 'ok';
    case 'altcha':
      return verifyAltcha(db, site.id, token);
    default:
      // The third-party adapters (reCAPTCHA Enterprise, Turnstile) are not built yet: refuse rather than let anything pass.
      return 'unavailable';
  }
};
