/**
 * The bootstrap configuration of spec §7 (`GET /api/context/config`): what a page's scripts may need to know about
 * the site. Built field by field from the site file's `website` object (src/modules/site/schema.ts), never by copying it:
 * a setting added to the schema later is not published until it is named here. Deliberately left out:
 * `domains` and `default` (how this server routes hosts), and the whole of `store.checkout` — the shop's e-mail
 * address, coupon codes (secret until a shopper types one), tax rates, shipping options and the payment provider's
 * settings, which the checkout page and its calls use on the server.
 */
import { DEFAULT_LABELS, filledText, resolveSiteLabels, type SiteLabels } from '../../core/labels';
import type { Website } from './schema';
import type { Site } from './sites';

/** §9: the default display time zone. */
const DEFAULT_TIME_ZONE = 'America/New_York';

export interface ContextConfig {
  /** Spec §3 website context. `templateVersion` is the site version (bumped by every import). */
  website: {
    id: string;
    title: string;
    locale: string;
    timeZone: string;
    currency: string;
    templateVersion: number;
    /** The CAPTCHA of form blocks and the restock form: provider and its public site key (null: none). */
    captchaSettings: { provider: 'none' | 'altcha' | 'recaptcha-enterprise' | 'turnstile'; siteKey: string | null };
    commentSettings: { commentsEnabled: boolean; simpleLikingEnabled: boolean };
    cookieConsent: 'not-required' | 'required';
  };
  /** The site's labels, blank ones already replaced by the §9 defaults. */
  labels: SiteLabels & { quickView: string };
  /** Spec §3 store settings (money in minor units of `currency`). */
  storeSettings: {
    currency: string;
    multipleQuantityAllowedForServices: boolean;
    expressCheckout: { enabled: boolean };
    minimumSubtotal: number;
    payLater: { enabled: boolean; min: number; max: number; accountCountry: string };
  };
}

/**
 * Settings are read defensively: a site stored before a setting existed holds no value for it (the stored `website`
 * object is not parsed again), and then the schema's default is published.
 */
export function contextConfigOf(site: Site): ContextConfig {
  const w: Partial<Website> = site.settings ?? {};
  const store: Partial<Website['store']> = w.store ?? {};
  const payLater: Partial<Website['store']['payLater']> = store.payLater ?? {};
  return {
    website: {
      id: site.id,
      title: site.title,
      locale: w.locale ?? 'en-US',
      timeZone: w.timeZone ?? DEFAULT_TIME_ZONE,
      currency: site.currency,
      templateVersion: site.version,
      captchaSettings: { provider: w.captcha?.provider ?? 'altcha', siteKey: filledText(w.captcha?.siteKey) },
      commentSettings: {
        commentsEnabled: w.comments?.commentsEnabled ?? true,
        simpleLikingEnabled: w.comments?.simpleLikingEnabled ?? false,
      },
      cookieConsent: w.analytics?.cookieConsent ?? 'not-required',
    },
    labels: {
      ...resolveSiteLabels(w.labels ?? {}),
      quickView: filledText(w.labels?.quickView) ?? DEFAULT_LABELS.quickView,
    },
    storeSettings: {
      currency: site.currency,
      multipleQuantityAllowedForServices: store.multipleQuantityAllowedForServices ?? true,
      expressCheckout: { enabled: store.expressCheckout?.enabled ?? false },
      minimumSubtotal: store.minimumSubtotal ?? 0,
      payLater: {
        enabled: payLater.enabled ?? false,
        min: payLater.min ?? 100,
        max: payLater.max ?? 200_000,
        accountCountry: payLater.accountCountry ?? 'US',
      },
    },
  };
}
