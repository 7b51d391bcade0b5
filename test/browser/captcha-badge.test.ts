/**
 * The CAPTCHA badge of §4 in Chromium, on SQLite and PostgreSQL: hidden by default, shown while a form field has
 * focus, hidden again when the focus leaves the form, above the lightbox when the form is in one.
 *
 * - On the demo (ALTCHA, no outside host): ALTCHA's attribution line under its checkbox is the badge.
 * - On the demo switched to reCAPTCHA Enterprise, whose script is served by a local stand-in for Google
 *   (test/support/captchaProviders.ts, allowed by the page's policy through the tests-only `captchaScripts`): the
 *   `.grecaptcha-badge` it puts at the end of the body; and the form sent with a token for FORM_BLOCK_SUBMISSION,
 *   checked by the server against the stand-in's assessments API; Google down → the §8 text and a new token fetched
 *   (the CAPTCHA reset); no site key → 'Enterprise V3 ReCaptcha site key not found'.
 *
 * Every page runs under its real Content-Security-Policy: a violation fails the test.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listSubmissions } from '../../src/modules/forms/submissions';
import { importSite } from '../../src/modules/site/import';
import {
  FAKE_RECAPTCHA_API_KEY,
  startFakeCaptchaProviders,
  type FakeCaptchaProviders,
} from '../support/captchaProviders';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { DEMO_SITE_FILE, startServer, type RunningServer } from './server';

const EASY_ALTCHA = { cost: 10, minCounter: 50, maxCounter: 200 };
const CONTACT_SUCCESS = 'Thank you! We answer within two working days.';
/** A second site in the same database, without its site key (Chromium sends *.localhost to this machine). */
const NO_KEY_HOST = 'nokey.localhost';

let browser: Browser;
let providers: FakeCaptchaProviders;

beforeAll(async () => {
  browser = await launchChromium();
  providers = await startFakeCaptchaProviders();
});
afterAll(async () => {
  await browser?.close();
  await providers?.close();
});

const RECAPTCHA = { provider: 'recaptcha-enterprise', siteKey: '6LcVitrineTestKey', projectId: 'vitrine-test' };

/** A page that records Content-Security-Policy violations and script errors. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  return { page, problems };
}

async function open(page: Page, url: string): Promise<Locator> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => {
    const form = document.querySelector('form.form-block');
    return form !== null && Object.keys(form).some((key) => key.startsWith('__reactProps'));
  });
  return page.locator('form.form-block[data-form-id="contact"]');
}

/** Whether the element is shown: in the layout, visibility visible, not transparent. */
const shown = (locator: Locator) =>
  locator.evaluate((element) => {
    const style = getComputedStyle(element);
    return element.getClientRects().length > 0 && style.visibility === 'visible' && style.opacity !== '0';
  });

/** Moves the focus out of every form (to the page's first link). */
const focusOutside = (page: Page) => page.locator('a').first().focus();

describeEachEngine(
  (engine) => engine,
  (engine) => {
    let altchaShop: RunningServer;
    let recaptchaShop: RunningServer;
    let context: BrowserContext;

    beforeAll(async () => {
      altchaShop = await startServer({
        engine,
        formRoutes: {
          submissionsPerMinute: 100_000,
          submissionsPerFormPerMinute: 100_000,
          altchaDifficulty: EASY_ALTCHA,
        },
      });
      recaptchaShop = await startServer({
        engine,
        editSite: (site) => {
          (site.website as Record<string, unknown>).captcha = RECAPTCHA;
        },
        formRoutes: { submissionsPerMinute: 100_000, submissionsPerFormPerMinute: 100_000 },
        captchaEnv: {
          recaptchaEnterpriseApiKey: FAKE_RECAPTCHA_API_KEY,
          recaptchaEnterpriseApiUrl: providers.url,
          timeoutMs: 3000,
        },
        captchaScripts: { 'recaptcha-enterprise': `${providers.url}/recaptcha/enterprise.js` },
      });
      // The same demo, on another host, with reCAPTCHA and no site key.
      const demo = JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as { website: Record<string, unknown> };
      demo.website = {
        ...demo.website,
        id: 'nokey',
        domains: [NO_KEY_HOST],
        default: false,
        captcha: { provider: 'recaptcha-enterprise', projectId: 'vitrine-test' },
      };
      await importSite(recaptchaShop.db!, JSON.stringify(demo), dirname(DEMO_SITE_FILE));
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(15_000);
    });
    afterAll(async () => {
      await context?.close();
      await altchaShop?.close();
      await recaptchaShop?.close();
    });

    it('ALTCHA: its attribution is hidden, shown while a field has focus (also on its checkbox), hidden when the focus leaves', async () => {
      const { page, problems } = await watchedPage(context);
      const form = await open(page, `${altchaShop.url}/contact`);
      expect(await page.evaluate(() => document.documentElement.classList.contains('captcha-badge-shown'))).toBe(false);

      // The first focus loads the widget; its attribution shows while the focus is in the form.
      await page.getByLabel('Email').focus();
      const footer = form.locator('altcha-widget .altcha-footer');
      await footer.waitFor({ state: 'attached' });
      await expect.poll(() => shown(footer)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.classList.contains('captcha-badge-shown'))).toBe(true);
      // Moving between the form's fields, to the CAPTCHA itself, keeps it.
      await page.keyboard.press('Tab');
      await form.locator('altcha-widget input[type=checkbox]').focus();
      expect(await shown(footer)).toBe(true);
      expect(await axeViolationsOf(page)).toEqual([]);

      await focusOutside(page);
      await expect.poll(() => shown(footer)).toBe(false);
      expect(await page.evaluate(() => document.documentElement.classList.contains('captcha-badge-shown'))).toBe(false);
      // The widget itself stays (its box, or its verified mark once it has solved itself: issue 23 item 7).
      expect(await shown(form.locator('altcha-widget'))).toBe(true);
      await page.getByLabel('Message').focus();
      await expect.poll(() => shown(footer)).toBe(true);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await expect.poll(() => shown(footer)).toBe(false);
      expect(problems).toEqual([]);
      await page.close();
    });

    it('reCAPTCHA Enterprise: the badge hidden → shown on focus → hidden on blur; the form sent with a FORM_BLOCK_SUBMISSION token', async () => {
      providers.reset();
      const { page, problems } = await watchedPage(context);
      const form = await open(page, `${recaptchaShop.url}/contact`);
      // Google's notice is in the form (the badge is hidden until then); no badge before the visitor turns to the form.
      expect(await form.locator('.form-block__captcha-notice').textContent()).toBe(
        'This site is protected by reCAPTCHA and the Google Privacy Policy and Terms of Service apply.',
      );
      expect(await page.locator('.grecaptcha-badge').count()).toBe(0);

      await page.getByLabel('First Name').focus();
      const badge = page.locator('.grecaptcha-badge');
      await badge.waitFor({ state: 'attached' });
      await expect.poll(() => shown(badge)).toBe(true);
      await focusOutside(page);
      await expect.poll(() => shown(badge)).toBe(false);
      await page.getByLabel('Last Name').focus();
      await expect.poll(() => shown(badge)).toBe(true);
      expect(await badge.evaluate((element) => getComputedStyle(element).zIndex)).toBe('40');
      // Shown, it is a named region of its own (it sits outside the page's landmarks), and the page passes axe.
      expect(await page.getByRole('complementary', { name: 'reCAPTCHA' }).count()).toBe(1);
      expect(await axeViolationsOf(page)).toEqual([]);

      // Google down: the §8 text; the CAPTCHA is reset (a new token is fetched), then the form goes through.
      await page.getByLabel('First Name').fill('Ada');
      await page.getByLabel('Last Name').fill('Lovelace');
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Message').fill('Do you ship to Norway?');
      providers.mode = 'down';
      const send = form.locator('button[type=submit]');
      await send.click();
      await expect
        .poll(() => form.getByRole('alert').textContent())
        .toBe('Unable to send form. Please try again later.');
      await expect
        .poll(() =>
          page.evaluate(() => (window as unknown as { __fakeRecaptchaCalls: unknown[] }).__fakeRecaptchaCalls.length),
        )
        .toBe(2);
      await expect.poll(() => send.isDisabled()).toBe(false);
      expect(await axeViolationsOf(page)).toEqual([]);

      providers.mode = 'normal';
      await send.click();
      await page.locator('.form-block__success').waitFor();
      expect(await page.locator('.form-block__success').textContent()).toBe(CONTACT_SUCCESS);
      const calls = await page.evaluate(
        () =>
          (window as unknown as { __fakeRecaptchaCalls: { siteKey: string; action: string }[] }).__fakeRecaptchaCalls,
      );
      expect(calls.every((c) => c.siteKey === RECAPTCHA.siteKey && c.action === 'FORM_BLOCK_SUBMISSION')).toBe(true);
      const assessments = providers.calls.filter((c) => c.path === '/v1/projects/vitrine-test/assessments');
      expect(assessments.map((c) => (c.body.event as { expectedAction: string }).expectedAction)).toEqual([
        'FORM_BLOCK_SUBMISSION',
        'FORM_BLOCK_SUBMISSION',
      ]);
      expect(
        (await listSubmissions(recaptchaShop.db!, { formId: 'contact' })).map(
          (s) => s.answers.find((a) => a.title === 'Message')?.lines,
        ),
      ).toEqual([['Do you ship to Norway?']]);
      // The form is gone (success): the focus left it, and the badge is hidden again.
      await expect.poll(() => shown(badge)).toBe(false);
      expect(problems).toEqual([]);
      await page.close();
    });

    it('reCAPTCHA Enterprise: a form in a lightbox raises the badge above it', async () => {
      const { page, problems } = await watchedPage(context);
      await open(page, `${recaptchaShop.url}/contact`);
      // The home page's newsletter form has no lightbox yet; put the contact form's island in a modal dialog.
      await page.evaluate(() => {
        const dialog = document.createElement('dialog');
        dialog.setAttribute('aria-label', 'Contact');
        dialog.className = 'lightbox';
        document.body.append(dialog);
        dialog.append(document.querySelector('form.form-block[data-form-id="contact"]')!.parentElement!);
        dialog.showModal();
      });
      await page.getByLabel('Email').focus();
      const badge = page.locator('.grecaptcha-badge');
      await badge.waitFor({ state: 'attached' });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.className))
        .toContain('captcha-badge-raised');
      expect(await badge.evaluate((element) => getComputedStyle(element).zIndex)).toBe('2147483000');
      await page.keyboard.press('Escape');
      await expect
        .poll(() => page.evaluate(() => document.documentElement.className))
        .not.toContain('captcha-badge-raised');
      expect(problems).toEqual([]);
      await page.close();
    });

    it("reCAPTCHA Enterprise without a site key: 'Enterprise V3 ReCaptcha site key not found', nothing sent", async () => {
      const { page, problems } = await watchedPage(context);
      const port = new URL(recaptchaShop.url).port;
      const form = await open(page, `http://${NO_KEY_HOST}:${port}/contact`);
      let saves = 0;
      page.on('request', (request) => {
        if (request.url().includes('/api/form/')) saves++;
      });
      await page.getByLabel('First Name').fill('Ada');
      await page.getByLabel('Last Name').fill('Lovelace');
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Message').fill('Hello');
      await form.locator('button[type=submit]').click();
      await expect.poll(() => form.getByRole('alert').textContent()).toBe('Enterprise V3 ReCaptcha site key not found');
      expect(saves).toBe(0);
      expect(await page.locator('script[src*="recaptcha"]').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    });
  },
);
