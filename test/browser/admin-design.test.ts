/**
 * The design editor and the settings in Chromium (issue 26), on the demo: an admin, with the keyboard only, types an
 * accent colour and picks one of the site's images as the logo at /admin/design and saves — the storefront's links
 * are drawn in that colour and its header shows the logo; without JavaScript, moves a menu link up with the keyboard
 * and the storefront's menu follows. /admin/design and /admin/settings have no axe violation at 390 px and 1280 px and
 * are no wider than the window; a refused colour says why beside the field, and so does a refused postal code of a
 * shipping option.
 */
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { overflowOf, PASSWORD, signedIn } from './adminShop';
import { axeViolationsOf, BROWSER_TEST_TIMEOUT_MS, launchChromium } from './chromium';
import { startServer, type RunningServer } from './server';

const ADMIN = 'owner@example.com';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describe('the design editor and the settings in Chromium', () => {
  let shop: RunningServer;
  beforeAll(async () => {
    shop = await startServer({ cartRateLimitPerMinute: 1_000_000 });
    await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
  }, BROWSER_TEST_TIMEOUT_MS);
  afterAll(async () => shop?.close());

  it(
    'has no axe violation on /admin/design and /admin/settings at 390 and 1280 px',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, ADMIN, { width });
        const page = await context.newPage();
        for (const path of ['/admin/design', '/admin/settings']) {
          await page.goto(`${shop.url}${path}`);
          await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
            path.endsWith('design') ? 'Design' : 'Settings',
          );
          expect(await axeViolationsOf(page), `${path} at ${width} px`).toEqual([]);
          const wide = await page.evaluate(() =>
            [...document.querySelectorAll('*')]
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.admin-table-wrap'))
              .slice(0, 5)
              .map((e) => `${e.tagName}.${e.className} ${e.id}`),
          );
          expect(await overflowOf(page), `${path} at ${width} px ${wide.join(' | ')}`).toBeLessThanOrEqual(0);
        }
        // A refused colour: its reason beside the field, and the page still axe clean.
        await page.goto(`${shop.url}/admin/design`);
        await page.getByLabel('Text', { exact: true }).fill('hsl(400, 50%, 20%)');
        await page.getByRole('button', { name: 'Save the design' }).click();
        await expect(page.getByText('Hue out of bounds.').isVisible()).resolves.toBe(true);
        expect(await axeViolationsOf(page), `the refused design at ${width} px`).toEqual([]);
        await context.close();
      }
    },
  );

  it(
    'adds a shipping option to some postal codes at 390 px: a refused code says the spec’s hint beside the field',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 390 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/settings#shipping`);
      const add = page.getByRole('form', { name: 'Add a shipping option' });
      await add.getByLabel('Id').fill('courier');
      await add.getByLabel('Name shown to shoppers').fill('Courier');
      await add.getByLabel('Rate').fill('9');
      await add.getByRole('checkbox', { name: 'US', exact: true }).check();
      await add.getByLabel('Only to these postal codes (optional)').fill('10001, 1000');
      await add.getByRole('button', { name: 'Add the shipping option' }).click();
      const field = page.getByLabel('Only to these postal codes (optional)');
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByText('1000: ZIP Codes need to be 5 digits.').first().isVisible()).resolves.toBe(true);
      expect(await axeViolationsOf(page), 'the refused shipping option at 390 px').toEqual([]);
      await field.fill('10001, 10002');
      await field.press('Enter');
      await page.waitForURL('**/admin/settings?*');
      await expect(page.getByRole('row', { name: /Courier \(courier\)/ }).innerText()).resolves.toContain(
        'US (postal codes 10001, 10002)',
      );
      await context.close();
    },
  );

  it(
    'sets an accent colour and a logo with the keyboard, and the storefront shows them',
    { timeout: BROWSER_TEST_TIMEOUT_MS },
    async () => {
      const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
      const page = await context.newPage();
      await page.goto(`${shop.url}/admin/design`);
      await page.getByLabel('Accent (links)', { exact: true }).focus();
      await page.keyboard.type('#7a1f5c');
      await page.getByLabel('Logo', { exact: true }).focus();
      await page.keyboard.press('End'); // the last image of the list
      const chosen = await page.getByLabel('Logo', { exact: true }).inputValue();
      expect(chosen).toMatch(/^images\/.+\.jpg$/);
      await page.getByLabel('What the logo says').focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Vitrine Demo home');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/admin/design?done=*');
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: 'Changed the colours, fonts and logo: saved as version' })
          .isVisible(),
      ).resolves.toBe(true);

      await page.goto(`${shop.url}/about`);
      const look = await page.evaluate(() => {
        const logo = document.querySelector<HTMLImageElement>('.site-logo img');
        // A link in the page's text, as a text block draws one.
        const link = document.createElement('a');
        link.href = '/shop';
        link.textContent = 'Shop';
        document.querySelector('.site-main')!.append(link);
        return {
          accent: getComputedStyle(document.documentElement).getPropertyValue('--site-accent').trim(),
          link: getComputedStyle(link).color,
          logo: logo && {
            alt: logo.alt,
            src: logo.getAttribute('src'),
            loaded: logo.complete && logo.naturalWidth > 0,
          },
        };
      });
      expect(look.accent).toBe('#7a1f5c');
      expect(look.link).toBe('rgb(122, 31, 92)');
      expect(look.logo).toMatchObject({ alt: 'Vitrine Demo home', loaded: true });
      expect(look.logo!.src).toContain(`/assets/demo/${chosen}`);
      await context.close();
    },
  );

  it('uploads a new logo and the storefront’s header shows it', { timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
    const context = await signedIn(browser, shop, ADMIN, { width: 1280 });
    const page = await context.newPage();
    await page.goto(`${shop.url}/admin/design`);
    const png = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#7a1f5c' } })
      .png()
      .toBuffer();
    await page.getByLabel('Logo image').setInputFiles({ name: 'Brand mark.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload and use as the logo' }).click();
    await page.waitForURL('**/admin/design?done=*');
    await expect(
      page.getByRole('status').filter({ hasText: 'Uploaded images/brand-mark.png as the logo' }).isVisible(),
    ).resolves.toBe(true);
    await page.goto(`${shop.url}/`);
    const logo = await page.evaluate(() => {
      const img = document.querySelector<HTMLImageElement>('.site-logo img');
      return img && { src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0 };
    });
    expect(logo).toMatchObject({ loaded: true });
    expect(logo!.src).toContain('/assets/demo/images/brand-mark.png');
    await context.close();
  });

  it('moves a menu link up without JavaScript, by keyboard', { timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
    const context = await signedIn(browser, shop, ADMIN, { width: 390, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${shop.url}/admin/design`);
    await page.getByRole('button', { name: 'Move Contact up' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/admin/design?done=*');
    await expect(
      page.getByRole('status').filter({ hasText: 'Moved Contact up in the menu' }).isVisible(),
    ).resolves.toBe(true);
    await page.goto(`${shop.url}/`);
    const menu = await page.locator('.site-nav--wide a').allTextContents();
    expect(menu.indexOf('Contact')).toBeGreaterThanOrEqual(0);
    expect(menu.indexOf('Contact')).toBeLessThan(menu.indexOf('About'));
    await context.close();
  });
});
