/**
 * A site's design (website.design, issue 26) in Chromium, on SQLite: a deliberately different design (another
 * background, text, accent and button colours, other fonts, square buttons, a logo, a menu and footer links) is what
 * the browser computes, and axe-core finds no violation with it at a phone's and a laptop's width — nor with the demo's
 * own look. Its fonts are two of those that ship with Vitrine: drawn from the site's own origin, nothing asked of
 * another.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DESIGN } from '../support/design';
import { axeViolationsOf, BROWSER_TEST_TIMEOUT_MS, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

const WIDTHS = [390, 1280] as const;

/** The axe violations of each path at each width, one line each. */
async function violations(page: Page, base: string, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    for (const path of paths) {
      await page.goto(`${base}${path}`, { waitUntil: 'load' });
      await page.waitForLoadState('networkidle').catch(() => {});
      found.push(...(await axeViolationsOf(page)).map((v) => `${width}px ${path}: ${v}`));
    }
  }
  return found;
}

describe('a different design in the browser', () => {
  let designed: RunningServer;
  let demo: RunningServer;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    [designed, demo] = await Promise.all([
      startServer({
        editSite: (site) => void ((site as { website: Record<string, unknown> }).website.design = TEST_DESIGN),
      }),
      startServer(),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 844 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await Promise.all([designed?.close(), demo?.close()]);
  });

  it(
    'is what the browser draws: colours, fonts, square buttons, the logo, the menu and footer links',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${designed.url}/shop`, { waitUntil: 'load' });
      // The design's two shipped fonts are drawn, from the site itself, and no other origin is asked for anything.
      const fonts = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts]
          .filter((f) => f.status === 'loaded')
          .map((f) => `${f.family.replace(/"/g, '')} ${f.weight}`)
          .sort();
      });
      expect(fonts).toEqual(['Inter 400', 'Inter 600', 'Playfair Display 600']);
      const fontRequests = requested.filter((url) => url.endsWith('.woff2'));
      expect(fontRequests.length).toBeGreaterThanOrEqual(2);
      expect(fontRequests.every((url) => url.startsWith(`${designed.url}/fonts/`))).toBe(true);
      expect(requested.filter((url) => !url.startsWith(designed.url) && !url.startsWith('data:'))).toEqual([]);
      const look = await page.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        const logo = document.querySelector<HTMLImageElement>('.site-logo img')!;
        return {
          background: style('body').backgroundColor,
          text: style('body').color,
          bodyFont: style('body').fontFamily,
          headingFont: style('h1').fontFamily,
          footerLink: style('.footer-links a').color,
          logo: { alt: logo.alt, loaded: logo.complete && logo.naturalWidth > 0 },
          menu: [...document.querySelectorAll('.site-nav--wide a')].map((a) => a.textContent),
          footer: [...document.querySelectorAll('.footer-links a')].map((a) => a.textContent),
        };
      });
      expect(look).toEqual({
        background: 'rgb(255, 251, 242)',
        text: 'rgb(27, 27, 58)',
        bodyFont: expect.stringMatching(/^Inter, /),
        headingFont: expect.stringMatching(/^"Playfair Display", /),
        footerLink: 'rgb(106, 27, 154)',
        logo: { alt: 'Vitrine Demo home', loaded: true },
        menu: ['About', 'Shop', 'Home', 'Cart'],
        footer: ['About us', 'Terms'],
      });
      // A product page's add button: the design's button colours and square corners.
      await page.click('.product-card a');
      await page.waitForSelector('.button--primary');
      const button = await page.evaluate(() => {
        const style = getComputedStyle(document.querySelector('.button--primary')!);
        return { background: style.backgroundColor, color: style.color, radius: style.borderTopLeftRadius };
      });
      expect(button).toEqual({ background: 'rgb(27, 27, 58)', color: 'rgb(255, 255, 255)', radius: '0px' });
    },
  );

  it('is axe-clean at 390 and 1280 px, and so is the demo’s own look', { timeout: 300_000 }, async () => {
    await page.goto(`${designed.url}/shop`, { waitUntil: 'load' });
    const product = await page.evaluate(
      () => new URL(document.querySelector<HTMLAnchorElement>('.product-card a')!.href).pathname,
    );
    const paths = ['/', '/shop', product, '/about', '/blog'];
    expect(await violations(page, designed.url, paths)).toEqual([]);
    expect(await violations(page, demo.url, ['/', product])).toEqual([]);
  });
});
