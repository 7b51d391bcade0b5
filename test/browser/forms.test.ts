/**
 * Form blocks in a real browser, on SQLite and PostgreSQL, on the demo site: the contact form ('Required' above each
 * field; the ALTCHA widget solving itself for real once the visitor starts on the form, its progress shown and waited
 * for by a press; a refused solution resetting it and solved again; 'Submitting…' then the success text; sent on the
 * first try without a tick, also at the very moment the solution arrives; the checkbox as the fallback when the work
 * cannot be done, with 'Complete CAPTCHA before submitting.'; the shop's e-mail read from a real SMTP server), the
 * newsletter's double
 * opt-in e-mail and its link, a success redirect (with a hidden field read from the query by its name), and a form
 * sent without JavaScript. axe-core with the errors shown. A form's submission HTML full of script (handlers, an image,
 * SVG, a javascript: link, a split <script>, a frame, MathML) shows only its safe part: after a submission in the
 * browser, and in the server's page after a post without JavaScript, which the island then hydrates unchanged.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listSubscribers } from '../../src/modules/forms/newsletter';
import { listSubmissions } from '../../src/modules/forms/submissions';
import { drainOutbox } from '../../src/platform/mail/outbox';
import { smtpTransport } from '../../src/platform/mail/transport';
import { CRUMB_COOKIE, CRUMB_FIELD } from '../../src/core/crumb';
import { describeEachEngine } from '../support/engines';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer';
import { axeViolationsOf, crumbHeader, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const SHOP_EMAIL = 'orders@vitrine-demo.example';
const CONTACT_SUCCESS = 'Thank you! We answer within two working days.';
const NEWSLETTER_SUCCESS = 'Almost there: check your inbox and confirm your address to join the list.';
/** Light proof of work: the widget still solves it in its worker, only in a fraction of a second. */
const EASY_ALTCHA = { cost: 10, minCounter: 50, maxCounter: 200 };

/** A submission HTML that tries every way to run script; each sets `window.xss` (the page's CSP would stop most). */
const RICH_SUBMISSION_HTML =
  '<h2 onclick="window.xss=1">Thanks!</h2>' +
  '<p>Read <a href="/journal" onmouseover="window.xss=2">our journal</a> or <a href="mailto:hello@example.com">write</a>.</p>' +
  '<img src="/nothing.png" onerror="window.xss=3"><svg onload="window.xss=4"><script>window.xss=5</script></svg>' +
  '<a href="jav&#x09;ascript:window.xss=6" id="js-link">not a link</a><scr<script>ipt>window.xss=7</script>' +
  '<iframe srcdoc="&lt;script&gt;parent.xss=8&lt;/script&gt;"></iframe><!-- <script>window.xss=9</script> -->' +
  '<p style="background:url(/nothing.png)" class="x">&lt;b&gt;not bold&lt;/b&gt;</p>' +
  '<math><mtext><table><mglyph><style><img src=x onerror="window.xss=10">';
/** What the page shows of it (as the browser writes it back). */
const RICH_SHOWN =
  '<h2>Thanks!</h2><p>Read <a href="/journal">our journal</a> or <a href="mailto:hello@example.com">write</a>.</p>' +
  '<a>not a link</a>ipt&gt;window.xss=7<p>&lt;b&gt;not bold&lt;/b&gt;</p>';

/**
 * The demo with three forms without CAPTCHA: one with a success redirect, one to send without JavaScript, one whose
 * submission HTML carries script.
 */
function addForms(site: Record<string, unknown>): void {
  const forms = site.forms as unknown[];
  const pages = site.pages as unknown[];
  forms.push(
    {
      id: 'ask',
      name: 'Ask a question',
      submitLabel: 'Ask',
      successRedirect: '/question-received',
      fields: [
        { id: 'question', kind: 'text', title: 'Your question', required: true },
        { id: 'source', kind: 'hidden', title: 'Came from', value: 'ask-page' },
      ],
    },
    {
      id: 'workshop',
      name: 'Workshop sign-up',
      submitLabel: 'Sign me up',
      submissionMessage: 'See you at the wheel!',
      fields: [
        { id: 'who', kind: 'name', title: 'Name', required: true },
        { id: 'email', kind: 'email', title: 'Email', required: true },
        { id: 'level', kind: 'radio', title: 'Experience', options: ['None yet', 'Some'], required: true },
        { id: 'note', kind: 'textarea', title: 'Anything we should know?' },
      ],
    },
    {
      id: 'rich',
      name: 'Rich thanks',
      submitLabel: 'Send it',
      submissionHtml: RICH_SUBMISSION_HTML,
      fields: [{ id: 'word', kind: 'text', title: 'A word', required: true }],
    },
  );
  pages.push(
    { id: 'ask', path: '/ask', title: 'Ask', blocks: [{ type: 'form', formId: 'ask' }] },
    {
      id: 'question-received',
      path: '/question-received',
      title: 'Question received',
      blocks: [{ type: 'text', text: 'We will answer soon.' }],
    },
    { id: 'workshop', path: '/workshop', title: 'Workshop', blocks: [{ type: 'form', formId: 'workshop' }] },
    { id: 'rich', path: '/rich', title: 'Rich', blocks: [{ type: 'form', formId: 'rich' }] },
  );
}

let browser: Browser;
let smtp: TestSmtpServer;

beforeAll(async () => {
  browser = await launchChromium();
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await browser?.close();
  await smtp?.close();
});

describeEachEngine(
  (engine) => engine,
  (engine) => {
    let shop: RunningServer;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      shop = await startServer({
        engine,
        editSite: (site) => addForms(site as unknown as Record<string, unknown>),
        formRoutes: {
          submissionsPerMinute: 100_000,
          submissionsPerFormPerMinute: 100_000,
          altchaDifficulty: EASY_ALTCHA,
        },
      });
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
    });
    afterAll(async () => {
      await context?.close();
      await shop?.close();
    });

    const open = async (path: string) => {
      await page.goto(shop.url + path, { waitUntil: 'load' });
      await page.waitForFunction(() => document.readyState === 'complete');
      // Hydrated (React has attached its props to the form): the island handles the submit, not the browser.
      await page.waitForFunction(() => {
        const form = document.querySelector('form.form-block');
        return form !== null && Object.keys(form).some((key) => key.startsWith('__reactProps'));
      });
    };
    const drainToSmtp = async () => {
      const drained = await drainOutbox(shop.db!, smtpTransport(smtp.url, 'Vitrine Demo <shop@vitrine-demo.example>'));
      expect(drained.failed).toBe(0);
    };
    /** Holds the page's ALTCHA challenge requests until `release()` (a slow solve, without timing). */
    const holdChallenges = async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const url = '**/api/form/altcha/challenge';
      await page.route(url, async (route) => {
        await held;
        await route.continue().catch(() => {});
      });
      return async () => {
        release();
        await page.unroute(url);
      };
    };
    /** Fills the contact form in (the first field's focus starts the CAPTCHA's work). */
    const fillContact = async () => {
      await page.getByLabel('First Name').fill('Ada');
      await page.getByLabel('Last Name').fill('Lovelace');
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Topic').selectOption('Workshops');
      await page.getByLabel('Message').fill('Is there a <b>Saturday</b> class?');
    };
    /** The element's top is above the top of the field's first input. */
    const isAbove = async (errorSelector: string, inputSelector: string) => {
      const error = await page.locator(errorSelector).boundingBox();
      const input = await page.locator(inputSelector).first().boundingBox();
      return error !== null && input !== null && error.y + error.height <= input.y;
    };

    it('contact form: Required per field, a slow CAPTCHA waited for, a refused one solved again, then sent and e-mailed to the shop', async () => {
      // Its challenge held back until said (the first touch of the form starts the work).
      const releaseFirst = await holdChallenges();
      await open('/contact');
      const form = page.locator('form.form-block[data-form-id="contact"]');
      const send = form.locator('button[type=submit]');
      expect(await send.textContent()).toBe('Send');

      // Empty: 'Required' above each required field, and the lines around the form.
      await send.click();
      for (const id of ['name', 'email', 'message']) {
        await expect.poll(() => page.locator(`#form-contact-${id}-error`).textContent()).toBe('Required');
      }
      expect(await page.locator('#form-contact-topic-error').count()).toBe(0);
      expect(await isAbove('#form-contact-email-error', '#form-contact-email')).toBe(true);
      expect(await isAbove('#form-contact-message-error', '#form-contact-message')).toBe(true);
      expect(await isAbove('#form-contact-name-error', '#form-contact-name-first')).toBe(true);
      // The name's inputs are marked like the others; the form's own messages read as errors (the fields' colour).
      expect(await page.locator('#form-contact-name-first').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#form-contact-name-last').getAttribute('aria-invalid')).toBe('true');
      const colourOf = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e) => getComputedStyle(e).color);
      expect(await colourOf('.form-block__problem')).toBe(await colourOf('#form-contact-email-error'));
      expect(await colourOf('[data-form-id="contact"] .form-block__error')).toBe(
        await colourOf('#form-contact-email-error'),
      );
      expect(await form.getByRole('alert').textContent()).toBe(
        'One or more fields is invalid, please check your entries.',
      );
      expect(await page.locator('.form-block__problem').allTextContents()).toEqual([
        'Your form has encountered a problem. Please scroll down to review.',
        'Your form has encountered a problem. Please scroll up to review.',
      ]);
      expect(await axeViolationsOf(page)).toEqual([]);

      // Filled in, nothing ticked: the proof of work starts by itself. A slow one (its challenge held back here) shows
      // its progress, and a press waits for it ('Submitting…', locked) instead of failing. The solution it sends is
      // spent elsewhere first (by another client): the server refuses it, the form shows why, and the CAPTCHA is
      // reset and solved again by itself — the button waits for that.
      await fillContact();
      await form.locator('altcha-widget [data-state="verifying"]').waitFor();
      expect(await form.locator('altcha-widget').textContent()).toContain('Verifying...');
      const headers = await crumbHeader(context, shop.url);
      let spentStatus = 0;
      let markFirstReleased!: () => void;
      const firstReleased = new Promise<void>((resolve) => (markFirstReleased = resolve));
      let releaseSecond: (() => Promise<void>) | null = null;
      await page.route(
        '**/api/form/SaveFormSubmission',
        async (route) => {
          // The solve that follows the refusal is held too, so the button is seen waiting for it.
          await firstReleased;
          releaseSecond = await holdChallenges();
          const sent = route.request().postDataJSON() as { captchaKey: string };
          const keyAnswer = await context.request.post(`${shop.url}/api/form/FormSubmissionKey`, { headers });
          const spent = await context.request.post(`${shop.url}/api/form/SaveFormSubmission`, {
            headers,
            data: {
              key: ((await keyAnswer.json()) as { key: string }).key,
              formId: 'contact',
              form: JSON.stringify({ name: ['Eve', 'Spy'], email: 'eve@example.com', message: 'first!' }),
              captchaKey: sent.captchaKey,
            },
          });
          spentStatus = spent.status();
          await route.continue();
        },
        { times: 1 },
      );
      await send.click();
      await expect.poll(() => send.textContent()).toBe('Submitting…');
      expect(await form.locator('altcha-widget [data-state="verifying"]').count()).toBe(1);
      expect(await form.getByRole('alert').count()).toBe(0);
      await releaseFirst();
      markFirstReleased();
      await expect.poll(() => form.getByRole('alert').textContent()).toBe('Complete CAPTCHA before submitting.');
      expect(spentStatus).toBe(200);
      await form.locator('altcha-widget [data-state="verifying"]').waitFor();
      expect(await send.isDisabled()).toBe(true);
      expect(await send.textContent()).toBe('Send');
      expect(await page.locator('.field__error').count()).toBe(0);
      expect(await axeViolationsOf(page)).toEqual([]);
      await releaseSecond!();
      await form.locator('altcha-widget [data-state="verified"]').waitFor();
      await expect.poll(() => send.isDisabled()).toBe(false);

      // Solved again and sent: 'Submitting…' (the answer held back a moment; a second click is ignored), then the
      // success text in place of the form.
      let saves = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/form/SaveFormSubmission')) saves++;
      });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/form/SaveFormSubmission', async (route) => {
        await held;
        await route.continue();
      });
      const success = page.locator('.form-block__success');
      try {
        await send.click();
        await expect.poll(() => send.textContent()).toBe('Submitting…');
        await send.click({ force: true });
      } finally {
        release();
      }
      await success.waitFor();
      await page.unroute('**/api/form/SaveFormSubmission');
      expect(await success.textContent()).toBe(CONTACT_SUCCESS);
      expect(await page.locator('form.form-block[data-form-id="contact"]').count()).toBe(0);
      expect(saves).toBe(1);

      // The shop's e-mail, through a real SMTP server: the answers, escaped.
      await drainToSmtp();
      const mail = smtp.received.find((m) => m.envelopeTo.includes(SHOP_EMAIL) && m.text.includes('Ada Lovelace'));
      expect(mail, 'the shop got the submission').toBeDefined();
      expect(mail!.text).toContain('Workshops');
      expect(mail!.text).toContain('contact-page');
      expect(mail!.html).toContain('Is there a &lt;b&gt;Saturday&lt;/b&gt; class?');
      expect(mail!.html).not.toContain('<b>Saturday</b>');
      expect(await listSubmissions(shop.db!, { formId: 'contact' })).toHaveLength(2);
      expect(pageErrors).toEqual([]);
    });

    it('contact form: sent on the first try without ticking, also when pressed the moment the solution arrives', async () => {
      // Filled in and sent at once: whatever the proof of work's progress, the press goes through.
      await open('/contact');
      const form = page.locator('form.form-block[data-form-id="contact"]');
      await fillContact();
      await form.locator('button[type=submit]').click();
      await page.locator('.form-block__success').waitFor();
      expect(await page.locator('.form-block__success').textContent()).toBe(CONTACT_SUCCESS);

      // Sent from the widget's own 'verified' event, before the page could draw anything: the solution is used, not
      // refused as missing.
      const release = await holdChallenges();
      await open('/contact');
      await fillContact();
      await page.evaluate(() => {
        const widget = document.querySelector('form.form-block[data-form-id="contact"] altcha-widget')!;
        widget.addEventListener('statechange', (event) => {
          if ((event as CustomEvent<{ state: string }>).detail.state === 'verified')
            widget.closest('form')!.requestSubmit();
        });
      });
      await release();
      await page.locator('.form-block__success').waitFor();
      expect(await page.locator('form.form-block[data-form-id="contact"] [role=alert]').count()).toBe(0);
      expect(await page.locator('.form-block__success').textContent()).toBe(CONTACT_SUCCESS);
      expect(pageErrors).toEqual([]);
    });

    it('contact form: when the work cannot be done, the text asks for the CAPTCHA and its checkbox is the fallback', async () => {
      const url = '**/api/form/altcha/challenge';
      await page.route(url, (route) => route.abort());
      await open('/contact');
      const form = page.locator('form.form-block[data-form-id="contact"]');
      const send = form.locator('button[type=submit]');
      await fillContact();
      await form.locator('altcha-widget [data-state="error"]').waitFor();
      // A press tries once more, then says what is missing; nothing is sent.
      await send.click();
      await expect
        .poll(() => form.locator('.form-block__error').textContent())
        .toBe('Complete CAPTCHA before submitting.');
      expect(await send.textContent()).toBe('Send');
      expect(await axeViolationsOf(page)).toEqual([]);
      // The challenge can be fetched again: ticking the box does the work; then the form goes through.
      await page.unroute(url);
      await form.locator('altcha-widget input[type=checkbox]').click();
      await form.locator('altcha-widget [data-state="verified"]').waitFor();
      await send.click();
      await page.locator('.form-block__success').waitFor();
      expect(await page.locator('.form-block__success').textContent()).toBe(CONTACT_SUCCESS);
      expect(pageErrors).toEqual([]);
    });

    it('newsletter: sign-up, the double opt-in e-mail, its link confirms the address', async () => {
      const email = `fan-${engine}@example.com`;
      await open('/');
      const form = page.locator('form.form-block[data-form-id="newsletter"]');
      await form.getByLabel('Email').fill('not-an-address');
      await form.getByRole('button', { name: 'Sign up' }).click();
      await expect
        .poll(() => page.locator('#form-newsletter-email-error').textContent())
        .toBe('Email is not valid. Email addresses should follow the format email@example.com.');
      // Newsletter forms show no lines around the form.
      expect(await page.locator('.form-block__problem').count()).toBe(0);

      // Sent without a tick (the CAPTCHA solved itself in the background).
      await form.getByLabel('Email').fill(email);
      await form.getByRole('button', { name: 'Sign up' }).click();
      await page.locator('.form-block__success').waitFor();
      expect(await page.locator('.form-block__success').textContent()).toBe(NEWSLETTER_SUCCESS);
      expect((await listSubscribers(shop.db!, { siteId: 'demo' })).find((s) => s.email === email)?.status).toBe(
        'pending',
      );

      await drainToSmtp();
      const mail = smtp.received.find((m) => m.envelopeTo.includes(email));
      expect(mail, 'the confirmation e-mail arrived').toBeDefined();
      const link = /https?:\/\/\S+\/newsletter\/confirm\?token=[A-Za-z0-9_-]+/.exec(mail!.text)?.[0];
      expect(link, mail!.text).toBeDefined();

      // Opening the link confirms nothing by itself; the button does.
      await page.goto(link!, { waitUntil: 'load' });
      expect(await page.locator('h1').textContent()).toBe('Confirm your subscription');
      expect((await listSubscribers(shop.db!, { siteId: 'demo' })).find((s) => s.email === email)?.status).toBe(
        'pending',
      );
      await Promise.all([
        page.waitForURL(/\/newsletter\/confirm$/),
        page.getByRole('button', { name: 'Confirm my subscription' }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toBe('Subscription confirmed');
      expect(await page.textContent('main')).toContain(`${email} is on the mailing list`);
      expect((await listSubscribers(shop.db!, { siteId: 'demo' })).find((s) => s.email === email)?.status).toBe(
        'confirmed',
      );
      expect(pageErrors).toEqual([]);
    });

    it('success redirect: lands on the site path; the hidden field took the query value by its name', async () => {
      await open('/ask?source=flyer');
      await page.getByLabel('Your question').fill('Do you ship to Canada?');
      await Promise.all([
        page.waitForURL(`${shop.url}/question-received`),
        page.getByRole('button', { name: 'Ask' }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toBe('Question received');
      const [stored] = await listSubmissions(shop.db!, { formId: 'ask' });
      expect(stored!.answers).toEqual([
        { title: 'Your question', lines: ['Do you ship to Canada?'] },
        { title: 'Came from', lines: ['flyer'] },
      ]);
      expect(pageErrors).toEqual([]);
    });

    it('without JavaScript: the page comes back with the errors and the answers, then with the success text', async () => {
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      try {
        const plain = await noScript.newPage();
        await plain.goto(`${shop.url}/workshop`, { waitUntil: 'load' });
        const submit = plain.getByRole('button', { name: 'Sign me up' });
        await Promise.all([plain.waitForNavigation(), submit.click()]);
        expect(await plain.locator('#form-workshop-who-error').textContent()).toBe('Required');
        expect(await plain.locator('#form-workshop-email-error').textContent()).toBe('Required');
        expect(await plain.locator('#form-workshop-level-error').textContent()).toBe('Required');
        expect(await plain.locator('.form-block__error').textContent()).toBe(
          'One or more fields is invalid, please check your entries.',
        );
        expect(await plain.locator('.form-block__problem').first().textContent()).toBe(
          'Your form has encountered a problem. Please scroll down to review.',
        );

        // A bad address: that error only, and what was typed is still there.
        await plain.getByLabel('First Name').fill('Grace');
        await plain.getByLabel('Last Name').fill('Hopper');
        await plain.getByLabel('Email').fill('grace@');
        await plain.getByLabel('Some').check();
        await plain.getByLabel('Anything we should know?').fill('Left-handed <3');
        await Promise.all([plain.waitForNavigation(), submit.click()]);
        expect(await plain.locator('.field__error').allTextContents()).toEqual([
          'Email is not valid. Email addresses should follow the format email@example.com.',
        ]);
        expect(await plain.getByLabel('First Name').inputValue()).toBe('Grace');
        expect(await plain.getByLabel('Last Name').inputValue()).toBe('Hopper');
        expect(await plain.getByLabel('Email').inputValue()).toBe('grace@');
        expect(await plain.getByLabel('Some').isChecked()).toBe(true);
        expect(await plain.getByLabel('Anything we should know?').inputValue()).toBe('Left-handed <3');

        await plain.getByLabel('Email').fill('grace@example.com');
        await Promise.all([plain.waitForNavigation(), submit.click()]);
        expect(await plain.locator('.form-block__success').textContent()).toBe('See you at the wheel!');
        expect(await plain.locator('form.form-block').count()).toBe(0);
        const [stored] = await listSubmissions(shop.db!, { formId: 'workshop' });
        expect(stored!.answers).toContainEqual({ title: 'Anything we should know?', lines: ['Left-handed <3'] });
      } finally {
        await noScript.close();
      }
    });

    it("submission HTML: only its safe part is shown, after a submission in the browser and in the server's page after a post without JavaScript, hydrated unchanged", async () => {
      const rich = await browser.newContext();
      try {
        const tab = await rich.newPage();
        const errors: string[] = [];
        tab.on('pageerror', (e) => errors.push(e.message));
        tab.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
        // Content-Security-Policy violations (an inline handler or script the policy refused) count as failures too.
        await tab.addInitScript(() => {
          const seen: string[] = [];
          (window as unknown as { violations: string[] }).violations = seen;
          document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
        });
        const noScriptRan = async () => {
          expect(await tab.evaluate(() => (window as unknown as { xss?: number }).xss)).toBeUndefined();
          expect(await tab.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
        };
        const successHtml = () => tab.locator('.form-block__success > div').evaluate((e) => e.innerHTML);
        /** The form's island in a page as the server sent it (the rest of the page has icons of its own). */
        const islandOf = (html: string) =>
          html.slice(html.indexOf('data-island="FormBlockForm"'), html.indexOf('</main>'));
        const islandProps = async () =>
          JSON.parse((await tab.locator('[data-island="FormBlockForm"]').getAttribute('data-props'))!) as {
            form: { submissionHtml: string };
          };

        // The page as served: the island's props carry the sanitized HTML, nothing of the rest.
        const served = await tab.goto(`${shop.url}/rich`, { waitUntil: 'load' });
        expect(islandOf(await served!.text())).not.toMatch(/xss=(?!7)|onerror|onload|svg|math|srcdoc|iframe|img/);
        expect((await islandProps()).form.submissionHtml).toBe(RICH_SHOWN);
        await tab.waitForFunction(() => {
          const form = document.querySelector('form.form-block');
          return form !== null && Object.keys(form).some((key) => key.startsWith('__reactProps'));
        });

        // Sent with JavaScript: the island shows the HTML it was given; its link without a safe href does nothing.
        await tab.getByLabel('A word').fill('clay');
        await tab.getByRole('button', { name: 'Send it' }).click();
        await tab.locator('.form-block__success').waitFor();
        expect(await successHtml()).toBe(RICH_SHOWN);
        await tab.locator('.form-block__success a:not([href])').click();
        await tab.locator('.form-block__success a[href="/journal"]').hover();
        await tab.locator('.form-block__success h2').click();
        await noScriptRan();

        // Posted without JavaScript (the page loaded again by a POST of the form, with the visitor's crumb): the server
        // renders the success with the HTML, and the island hydrates it from the same props and keeps it.
        const crumb = (await rich.cookies(shop.url)).find((c) => c.name === CRUMB_COOKIE)!.value;
        await tab.route(`${shop.url}/rich`, async (route) =>
          route.continue({
            method: 'POST',
            headers: { ...(await route.request().allHeaders()), 'content-type': 'application/x-www-form-urlencoded' },
            postData: new URLSearchParams({ formId: 'rich', [CRUMB_FIELD]: crumb, word: 'clay' }).toString(),
          }),
        );
        const posted = await tab.goto(`${shop.url}/rich`, { waitUntil: 'load' });
        await tab.unroute(`${shop.url}/rich`);
        expect(posted!.status(), await posted!.text()).toBe(200);
        const postedIsland = islandOf(await posted!.text());
        expect(postedIsland).toContain(`<div class="form-block__success"`);
        expect(postedIsland).toContain(RICH_SHOWN);
        expect(postedIsland).not.toMatch(/xss=(?!7)|onerror|onload|svg|math|srcdoc|iframe|img/);
        expect(await successHtml()).toBe(RICH_SHOWN);
        expect((await islandProps()).form.submissionHtml).toBe(RICH_SHOWN);
        await tab.waitForFunction(() => {
          const success = document.querySelector('.form-block__success');
          return success !== null && Object.keys(success).some((key) => key.startsWith('__reactFiber'));
        });
        expect(await successHtml()).toBe(RICH_SHOWN);
        await noScriptRan();
        expect(errors).toEqual([]);
      } finally {
        await rich.close();
      }
    });
  },
);
