import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_BADGE_RAISED_CLASS,
  CAPTCHA_BADGE_SHOWN_CLASS,
  CAPTCHA_MESSAGES,
  captchaActionFor,
  captchaBadgeClasses,
  captchaBadgeState,
  captchaClientSettings,
  captchaPolicySources,
  captchaScriptSrc,
  siteKeyMissingMessage,
} from './captcha';

describe('CAPTCHA of forms', () => {
  it('names the §7 action of each kind of form', () => {
    expect(captchaActionFor('form')).toBe('FORM_BLOCK_SUBMISSION');
    expect(captchaActionFor('newsletter')).toBe('NEWSLETTER_BLOCK_SUBMISSION');
    expect(captchaActionFor('productWaitlist')).toBe('PRODUCT_WAITLIST_SUBMISSION');
    expect(captchaActionFor('restock')).toBe('PRODUCT_WAITLIST_SUBMISSION');
    expect(captchaActionFor('promoPopup')).toBe('PROMO_POPUP_SUBMISSION');
    expect(captchaActionFor('anything else')).toBe('FORM_BLOCK_SUBMISSION');
  });

  it('has the §8 text for a missing reCAPTCHA Enterprise site key', () => {
    expect(CAPTCHA_MESSAGES.recaptchaSiteKeyMissing).toBe('Enterprise V3 ReCaptcha site key not found');
    expect(siteKeyMissingMessage('recaptcha-enterprise')).toBe('Enterprise V3 ReCaptcha site key not found');
    expect(siteKeyMissingMessage('turnstile')).toBe('Turnstile site key not found');
  });

  it('gives the browser what it needs: nothing for none, the action for ALTCHA, key and script for the others', () => {
    expect(captchaClientSettings({ provider: 'none' }, 'form')).toBeNull();
    expect(captchaClientSettings(undefined, 'newsletter')).toEqual({
      provider: 'altcha',
      action: 'NEWSLETTER_BLOCK_SUBMISSION',
    });
    expect(captchaClientSettings({ provider: 'recaptcha-enterprise', siteKey: ' 6Lc-key ' }, 'form')).toEqual({
      provider: 'recaptcha-enterprise',
      action: 'FORM_BLOCK_SUBMISSION',
      siteKey: '6Lc-key',
      scriptUrl: 'https://www.google.com/recaptcha/enterprise.js',
    });
    expect(
      captchaClientSettings({ provider: 'turnstile', siteKey: '  ' }, 'form', {
        turnstile: 'http://127.0.0.1:9/ts.js',
      }),
    ).toEqual({
      provider: 'turnstile',
      action: 'FORM_BLOCK_SUBMISSION',
      siteKey: null,
      scriptUrl: 'http://127.0.0.1:9/ts.js',
    });
  });

  it('loads reCAPTCHA Enterprise v3 with its site key and Turnstile rendered on call', () => {
    expect(
      captchaScriptSrc({
        provider: 'recaptcha-enterprise',
        siteKey: 'a b&c',
        scriptUrl: 'https://www.google.com/recaptcha/enterprise.js',
      }),
    ).toBe('https://www.google.com/recaptcha/enterprise.js?render=a+b%26c');
    expect(
      captchaScriptSrc({
        provider: 'turnstile',
        siteKey: 'k',
        scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
      }),
    ).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit');
  });

  it('allows the provider hosts in the page policy only for the third-party providers', () => {
    expect(captchaPolicySources('altcha')).toEqual({ script: [], frame: [], connect: [] });
    expect(captchaPolicySources('none')).toEqual({ script: [], frame: [], connect: [] });
    expect(captchaPolicySources('recaptcha-enterprise')).toEqual({
      script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
      frame: ['https://www.google.com/recaptcha/'],
      connect: ['https://www.google.com/recaptcha/'],
    });
    expect(captchaPolicySources('turnstile').script).toEqual(['https://challenges.cloudflare.com']);
    // A script served from elsewhere (tests): its origin only.
    expect(
      captchaPolicySources('recaptcha-enterprise', {
        'recaptcha-enterprise': 'http://127.0.0.1:4321/recaptcha/enterprise.js',
      }),
    ).toEqual({
      script: ['http://127.0.0.1:4321'],
      frame: ['http://127.0.0.1:4321'],
      connect: ['http://127.0.0.1:4321'],
    });
  });

  it('§4 badge: hidden by default, shown while a form field has focus, raised in a lightbox', () => {
    expect(captchaBadgeState(false, false)).toEqual({ shown: false, raised: false });
    expect(captchaBadgeState(false, true)).toEqual({ shown: false, raised: false });
    expect(captchaBadgeState(true, false)).toEqual({ shown: true, raised: false });
    expect(captchaBadgeState(true, true)).toEqual({ shown: true, raised: true });
    expect(captchaBadgeClasses(captchaBadgeState(false, true))).toEqual([]);
    expect(captchaBadgeClasses(captchaBadgeState(true, false))).toEqual([CAPTCHA_BADGE_SHOWN_CLASS]);
    expect(captchaBadgeClasses(captchaBadgeState(true, true))).toEqual([
      CAPTCHA_BADGE_SHOWN_CLASS,
      CAPTCHA_BADGE_RAISED_CLASS,
    ]);
  });
});
