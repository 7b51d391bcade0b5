/**
 * Issue 12 items 6 and 7 in a real browser (Debian's Chromium, the real server, both engines):
 * - every page of the demo site, reached by following its links, loads under its Content-Security-Policy with no
 *   violation, and the policy stops what an injected script would try (an inline handler, an inline script);
 * - the crumb: a page's islands send it back on their writes; when it is gone the shopper sees the §8 text, and a
 *   reload brings a new one; a form another website posts to the checkout is refused with a page that says why.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';
import { describeEachEngine } from '../support/engines';

const SESSION_EXPIRED = 'Your session has expired. Please reload the page and try again.';

declare global {
  interface Window {
    __violations?: string[];
    __ran?: string[];
  }
}

describeEachEngine(
  (engine) => `security in Chromium on ${engine}`,
  (engine) => {
    let server: RunningServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      server = await startServer({ engine, cartRateLimitPerMinute: 100_000 });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    async function freshPage(): Promise<Page> {
      await context?.close();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      // Before any page script: collect what the policy blocks (init scripts come from the test, not the page).
      await context.addInitScript(() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__violations!.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`),
        );
      });
      page = await context.newPage();
      return page;
    }

    const violations = () => page.evaluate(() => window.__violations ?? []);

    it('loads every demo page, found by following links, with no CSP violation; islands still hydrate and add', async () => {
      await freshPage();
      const base = new URL(server.url);
      const seen = new Set<string>();
      const queue = ['/'];
      const report: Record<string, string[]> = {};
      while (queue.length > 0 && seen.size < 80) {
        const path = queue.shift()!;
        if (seen.has(path)) continue;
        seen.add(path);
        const response = await page.goto(server.url + path, { waitUntil: 'load' });
        const policy = (await response!.allHeaders())['content-security-policy'] ?? '';
        expect(policy, path).toContain("script-src 'self'");
        expect(policy, path).not.toContain('unsafe-inline');
        const found = await violations();
        if (found.length > 0) report[path] = found;
        const links = await page.$$eval('a[href]', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
        for (const href of links) {
          const url = new URL(href);
          if (url.host === base.host && !url.pathname.startsWith('/assets/') && !seen.has(url.pathname))
            queue.push(url.pathname);
        }
      }
      expect(report).toEqual({});
      // The demo's pages, products and posts were all reached.
      expect(seen.size).toBeGreaterThan(20);
      for (const path of ['/', '/shop', '/shop/p/speckled-mug', '/blog', '/about', '/contact', '/cart'])
        expect(seen, path).toContain(path);

      // Islands work under the policy: an add from the product page, then the cart and checkout pages.
      await page.goto(`${server.url}/shop/p/speckled-mug`);
      await page.getByLabel('Select Color').selectOption('Oatmeal');
      await page.locator('form.purchase button[type=submit]').click();
      await page.locator('a.cart-pill').waitFor();
      for (const path of ['/cart', '/checkout']) {
        await page.goto(server.url + path, { waitUntil: 'load' });
        await page.waitForLoadState('networkidle');
        expect(await violations(), path).toEqual([]);
      }
      expect(await page.locator('#checkout-summary').count()).toBe(1);
    });

    it('blocks what an injected script would run: an inline event handler, an inline script element', async () => {
      await freshPage();
      await page.goto(`${server.url}/shop/p/speckled-mug`, { waitUntil: 'load' });
      await page.evaluate(() => {
        window.__ran = [];
        document.body.insertAdjacentHTML(
          'beforeend',
          '<img src="/no-such-image.png" alt="" onerror="window.__ran.push(\'handler\')">',
        );
        const script = document.createElement('script');
        script.textContent = "window.__ran.push('script')";
        document.body.append(script);
      });
      await page.waitForFunction(() => (window.__violations ?? []).length >= 2);
      expect(await page.evaluate(() => window.__ran)).toEqual([]);
      const blocked = await violations();
      expect(blocked.some((v) => v.startsWith('script-src-attr inline'))).toBe(true);
      expect(blocked.some((v) => v.startsWith('script-src-elem inline'))).toBe(true);
    });

    it('shows the §8 crumb failure when the crumb is gone, and adds again after a reload', async () => {
      await freshPage();
      await page.goto(`${server.url}/shop/p/speckled-mug`, { waitUntil: 'load' });
      expect((await context.cookies()).some((c) => c.name === 'crumb')).toBe(true);
      await context.clearCookies({ name: 'crumb' });
      await page.getByLabel('Select Color').selectOption('Oatmeal');
      await page.locator('form.purchase button[type=submit]').click();
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(SESSION_EXPIRED);
      expect(await page.locator('a.cart-pill').isVisible()).toBe(false);

      await page.reload({ waitUntil: 'load' });
      await page.getByLabel('Select Color').selectOption('Oatmeal');
      await page.locator('form.purchase button[type=submit]').click();
      await page.locator('a.cart-pill').waitFor();
    });

    it('refuses a checkout form another website posts, saying why, and places no order', async () => {
      await freshPage();
      await page.goto(`${server.url}/shop/p/speckled-mug`, { waitUntil: 'load' });
      await page.getByLabel('Select Color').selectOption('Oatmeal');
      await page.locator('form.purchase button[type=submit]').click();
      await page.locator('a.cart-pill').waitFor();
      // Another website's page (served by the test, as evil.test would serve it) posts a form to the shop's checkout.
      const fields = { intent: 'place', idempotencyKey: 'forged-order-000000000001', email: 'ada@example.com' };
      const inputs = Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('');
      await page.route('http://evil.test/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>Win a prize</title><form method="post" action="${server.url}/checkout">${inputs}</form>`,
        }),
      );
      await page.goto('http://evil.test/prize', { waitUntil: 'load' });
      await page.evaluate(() => document.querySelector('form')!.submit());
      await page.waitForURL(`${server.url}/checkout`);
      expect(await page.locator('main').textContent()).toContain(
        'This request came from another website, so it was refused.',
      );
      expect(await server.db!.selectFrom('orders').select('id').execute()).toEqual([]);
    });
  },
);
