/**
 * The CAPTCHA of forms (spec §4, §5, §7, §8), shared by the server (which page gets which provider, its
 * Content-Security-Policy) and the browser (which script, which action, the badge): the providers, their scripts and
 * hosts, the action name of each kind of form, and the badge rule of §4.
 */
import { CAPTCHA_ACTIONS, type CaptchaAction } from './submission';
import { RESTOCK_MESSAGES } from './restock';

export const CAPTCHA_PROVIDERS = ['none', 'altcha', 'recaptcha-enterprise', 'turnstile'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];
/** The providers whose script and verification live on another host. */
export type ThirdPartyCaptchaProvider = 'recaptcha-enterprise' | 'turnstile';

export const CAPTCHA_MESSAGES = {
  /** §8: a site on reCAPTCHA Enterprise without its site key. */
  recaptchaSiteKeyMissing: RESTOCK_MESSAGES.siteKeyMissing,
  /** The same for Turnstile (no spec text: ours). */
  turnstileSiteKeyMissing: 'Turnstile site key not found',
} as const;

/** The providers' own scripts (reCAPTCHA Enterprise v3 gets `?render={siteKey}`, Turnstile `?render=explicit`). */
export const CAPTCHA_SCRIPT_URLS: Record<ThirdPartyCaptchaProvider, string> = {
  'recaptcha-enterprise': 'https://www.google.com/recaptcha/enterprise.js',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
};

/** Sources a page of a site on this provider adds to its Content-Security-Policy, per directive. */
export interface PolicySources {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
}

/**
 * The provider's hosts: its script (which loads more script from the same places), the iframes it draws (the
 * reCAPTCHA badge, the Turnstile box) and the calls they make. A path ending in / allows everything below it.
 */
export const CAPTCHA_POLICY_SOURCES: Record<ThirdPartyCaptchaProvider, PolicySources> = {
  'recaptcha-enterprise': {
    script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frame: ['https://www.google.com/recaptcha/'],
    connect: ['https://www.google.com/recaptcha/'],
  },
  turnstile: {
    script: ['https://challenges.cloudflare.com'],
    frame: ['https://challenges.cloudflare.com'],
    connect: ['https://challenges.cloudflare.com'],
  },
};

export const NO_POLICY_SOURCES: PolicySources = { script: [], frame: [], connect: [] };

export const isThirdPartyCaptcha = (provider: CaptchaProvider): provider is ThirdPartyCaptchaProvider =>
  provider === 'recaptcha-enterprise' || provider === 'turnstile';

/** Script URLs in place of the providers' (tests: a local server playing the provider). */
export type CaptchaScriptUrls = Partial<Record<ThirdPartyCaptchaProvider, string>>;

/**
 * What a page of a site on `provider` must allow: nothing for ALTCHA and none (all 'self'); the provider's hosts for
 * the others, or, when its script is served from elsewhere (`scriptUrls`, tests only), that script's origin.
 */
export function captchaPolicySources(provider: CaptchaProvider, scriptUrls: CaptchaScriptUrls = {}): PolicySources {
  if (!isThirdPartyCaptcha(provider)) return NO_POLICY_SOURCES;
  const replaced = scriptUrls[provider];
  if (replaced === undefined) return CAPTCHA_POLICY_SOURCES[provider];
  const origin = new URL(replaced).origin;
  return { script: [origin], frame: [origin], connect: [origin] };
}

/** What the browser needs to show a form's CAPTCHA (an island's props): null when the form asks for none. */
export type CaptchaClientSettings =
  | { provider: 'altcha'; action: CaptchaAction }
  | { provider: ThirdPartyCaptchaProvider; action: CaptchaAction; siteKey: string | null; scriptUrl: string };

/** The §7 action name of a kind of form: newsletter blocks, product waitlists and promo popups have their own. */
export function captchaActionFor(kind: string): CaptchaAction {
  switch (kind) {
    case 'newsletter':
      return CAPTCHA_ACTIONS.newsletterBlock;
    case 'productWaitlist':
    case 'restock':
      return CAPTCHA_ACTIONS.productWaitlist;
    case 'promoPopup':
      return CAPTCHA_ACTIONS.promoPopup;
    default:
      return CAPTCHA_ACTIONS.formBlock;
  }
}

/** A site's CAPTCHA for a form of `kind`, as the browser gets it; null when the site's provider is 'none'. */
export function captchaClientSettings(
  settings: { provider?: CaptchaProvider | undefined; siteKey?: string | undefined } | undefined,
  kind: string,
  scriptUrls: CaptchaScriptUrls = {},
): CaptchaClientSettings | null {
  const provider = settings?.provider ?? 'altcha';
  const action = captchaActionFor(kind);
  if (provider === 'none') return null;
  if (provider === 'altcha') return { provider, action };
  const siteKey = settings?.siteKey?.trim() || null;
  return { provider, action, siteKey, scriptUrl: scriptUrls[provider] ?? CAPTCHA_SCRIPT_URLS[provider] };
}

/** The script to load for a third-party CAPTCHA: reCAPTCHA Enterprise v3 names its site key, Turnstile renders on call. */
export function captchaScriptSrc(settings: {
  provider: ThirdPartyCaptchaProvider;
  siteKey: string;
  scriptUrl: string;
}): string {
  const url = new URL(settings.scriptUrl);
  if (settings.provider === 'recaptcha-enterprise') url.searchParams.set('render', settings.siteKey);
  else url.searchParams.set('render', 'explicit');
  return url.toString();
}

/** The message shown when a third-party provider has no site key (§8 for reCAPTCHA Enterprise). */
export const siteKeyMissingMessage = (provider: ThirdPartyCaptchaProvider): string =>
  provider === 'recaptcha-enterprise'
    ? CAPTCHA_MESSAGES.recaptchaSiteKeyMissing
    : CAPTCHA_MESSAGES.turnstileSiteKeyMissing;

// ---------------------------------------------------------------- the badge (§4)

/** On the document while the badge is shown (reCAPTCHA's `.grecaptcha-badge`, ALTCHA's attribution). */
export const CAPTCHA_BADGE_SHOWN_CLASS = 'captcha-badge-shown';
/** On the document while the badge is shown for a form in a lightbox (dialog): the badge sits above it. */
export const CAPTCHA_BADGE_RAISED_CLASS = 'captcha-badge-raised';

export interface CaptchaBadgeState {
  shown: boolean;
  raised: boolean;
}

/**
 * §4: "The CAPTCHA badge is hidden by default and shown while a form field has focus (higher layer in a lightbox)."
 * `focusInForm`: a field of a form with a CAPTCHA has focus; `inLightbox`: that form is inside a lightbox or dialog.
 */
export const captchaBadgeState = (focusInForm: boolean, inLightbox: boolean): CaptchaBadgeState => ({
  shown: focusInForm,
  raised: focusInForm && inLightbox,
});

/** The classes the document carries for a badge state. */
export const captchaBadgeClasses = (state: CaptchaBadgeState): string[] => [
  ...(state.shown ? [CAPTCHA_BADGE_SHOWN_CLASS] : []),
  ...(state.raised ? [CAPTCHA_BADGE_RAISED_CLASS] : []),
];
