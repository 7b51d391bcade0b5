/**
 * Site versions in Chromium (issue 26): the demo imported, then imported again with its mug renamed — two versions.
 * An admin opens /admin/versions, reads the comparison of the last two (shown by default), follows 'Restore' on the
 * earlier one, ticks the confirmation and restores it: the notice says which version it made, the mug has its old
 * name back, and the history lists the restore. /admin/versions and the confirmation have no axe violation at 390 px
 * and 1280 px, and are no wider than a 390 px window.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { importSite } from '../../src/modules/site/import';
import { readSite } from '../../src/modules/site/sites';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { describeEachEngine } from '../support/engines';
import { axeViolationsOf, launchChromium } from './chromium';
import { overflowOf, PASSWORD, signedIn } from './adminShop';
import { startServer, type RunningServer } from './server';

const ADMIN = 'owner@example.com';
const DEMO = join(import.meta.dirname, '../../sites/demo/site.json');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

describeEachEngine(
  (engine) => `site versions at /admin in Chromium (${engine})`,
  (engine) => {
    let shop: RunningServer;
    const mugName = async () =>
      (await readSite(shop.db!, 'demo'))!.site.products.find((p) => p.id === 'speckled-mug')!.name;

    beforeAll(async () => {
      shop = await startServer({ engine, cartRateLimitPerMinute: 1_000_000 });
      await createSiteUser(shop.db!, { siteId: 'demo', email: ADMIN, password: PASSWORD, role: ContributorRole.ADMIN });
      const site = JSON.parse(readFileSync(DEMO, 'utf8')) as { products: { id: string; name: string }[] };
      site.products.find((p) => p.id === 'speckled-mug')!.name = 'Renamed Mug';
      await importSite(shop.db!, JSON.stringify(site), dirname(DEMO));
    }, 120_000);
    afterAll(async () => shop?.close());

    it('compares the last two versions and restores the earlier one, axe clean at 390 and 1280 px', async () => {
      for (const width of [390, 1280]) {
        const context = await signedIn(browser, shop, ADMIN, { width });
        const page = await context.newPage();
        await page.goto(`${shop.url}/admin/versions`);
        await expect(page.getByRole('heading', { level: 1, name: 'Versions' }).isVisible()).resolves.toBe(true);
        await expect(page.getByRole('heading', { name: 'From version 1 to version 2' }).isVisible()).resolves.toBe(
          true,
        );
        await expect(page.getByText('Product “Renamed Mug” (speckled-mug): name changed').isVisible()).resolves.toBe(
          true,
        );
        expect(await axeViolationsOf(page), `/admin/versions at ${width} px`).toEqual([]);
        expect(await overflowOf(page), `/admin/versions at ${width} px`).toBeLessThanOrEqual(0);
        await page.getByRole('link', { name: 'Restore version 1' }).click();
        await page.waitForURL('**/admin/versions/1/restore');
        await expect(
          page.getByText('Product “Speckled Stoneware Mug” (speckled-mug): name changed').isVisible(),
        ).resolves.toBe(true);
        expect(await axeViolationsOf(page), `the confirmation at ${width} px`).toEqual([]);
        expect(await overflowOf(page), `the confirmation at ${width} px`).toBeLessThanOrEqual(0);
        if (width === 1280) {
          await page.getByLabel('Yes, restore version 1').check();
          await page.getByRole('button', { name: 'Restore version 1' }).click();
          await page.waitForURL('**/admin/versions?**');
          await expect(
            page.getByRole('status').filter({ hasText: 'Restored version 1 as version 3.' }).isVisible(),
          ).resolves.toBe(true);
          await expect(
            page.getByRole('cell', { name: 'Restored version 1: product “Speckled Stoneware Mug”: name' }).isVisible(),
          ).resolves.toBe(true);
          expect(await mugName()).toBe('Speckled Stoneware Mug');
        }
        await context.close();
      }
    }, 120_000);
  },
);
