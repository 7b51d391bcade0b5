/**
 * What the owner's-area browser tests share (test/browser/admin-*.test.ts): staff accounts made in the database, an
 * order placed as a shopper's page places it, and a browser context signed in at /account/sign-in.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ContributorRole } from '../../src/core/enums';
import { createSiteUser } from '../../src/modules/siteUsers/users';
import { crumbHeader } from './chromium';
import type { RunningServer } from './server';

export const PASSWORD = 'correct horse battery staple';
export const MANAGER = 'manager@example.com';
export const VIEWER = 'viewer@example.com';

/** A store manager and a viewer of the demo site. */
export async function addStaff(shop: RunningServer): Promise<void> {
  await createSiteUser(shop.db!, {
    siteId: 'demo',
    email: MANAGER,
    password: PASSWORD,
    role: ContributorRole.STORE_MANAGER,
  });
  await createSiteUser(shop.db!, { siteId: 'demo', email: VIEWER, password: PASSWORD, role: ContributorRole.VIEWER });
}

let orders = 0;

/** An order of `quantity` × the demo's Oatmeal mug by `email` (Ada Lovelace, New York), through the shop's API; its number. */
export async function placeOrder(
  browser: Browser,
  shop: RunningServer,
  email: string,
  quantity: number,
): Promise<number> {
  const shopper = await browser.newContext();
  try {
    const added = await shopper.request.post(`${shop.url}/api/commerce/shopping-cart/entries`, {
      headers: await crumbHeader(shopper, shop.url),
      data: { itemId: 'speckled-mug', sku: 'MUG-OAT', quantity, additionalFields: '' },
    });
    expect(added.status(), await added.text()).toBe(200);
    const placed = await shopper.request.post(`${shop.url}/api/commerce/checkout/orders`, {
      headers: await crumbHeader(shopper, shop.url),
      data: {
        idempotencyKey: `admin-browser-order-${process.pid}-${(orders++).toString().padStart(4, '0')}`,
        email,
        shippingAddress: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          address1: '1 Main Street',
          address2: '',
          city: 'New York',
          country: 'US',
          region: 'NY',
          postalCode: '10001',
          phone: '',
        },
        shippingOptionId: 'standard',
        payment: { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' },
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    return ((await placed.json()) as { order: { number: number } }).order.number;
  } finally {
    await shopper.close();
  }
}

/**
 * Signs `page` in as `email` through the sign-in page, landing on /admin. The sign-in is rate limited per client (a
 * few tries per 10 s window, and every test's browser is one client): a refused try (429) is made again until the
 * window turns.
 */
/**
 * Signs `email` in through the sign-in page. With `from` (an /admin path), the page opens there first and is sent to the
 * sign-in, then back to `from`. Sign-ins are limited per client (4 in 10 s: a quick run of tests meets the limit and is
 * told 'Too many sign-in attempts', 429): tried again from the sign-in page until one passes.
 */
export async function signInOnPage(page: Page, shop: RunningServer, email: string, from?: string): Promise<void> {
  let signInPage = `${shop.url}/account/sign-in?next=/admin`;
  if (from !== undefined) {
    await page.goto(`${shop.url}${from}`);
    await page.waitForURL('**/account/sign-in**');
    signInPage = page.url();
  }
  await expect
    .poll(
      async () => {
        if (page.url() !== signInPage) await page.goto(signInPage);
        await page.getByLabel('E-mail').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/account/sign-in')),
          page.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        if (answer.status() === 303) await page.waitForURL(`**${from ?? '/admin'}`);
        return answer.status();
      },
      { timeout: 25_000, interval: 1_000 },
    )
    .toBe(303);
}

/**
 * A new context of `width` px (with or without JavaScript) signed in as `email` through the sign-in page it is sent to
 * from `from` (an /admin path): the redirect there and back is part of what is tested, so nothing is reused.
 */
export async function signedInFrom(
  browser: Browser,
  shop: RunningServer,
  email: string,
  from: string,
  options: { width: number; javaScriptEnabled: boolean },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled,
    viewport: { width: options.width, height: 900 },
  });
  const page = await context.newPage();
  await signInOnPage(page, shop, email, from);
  await page.close();
  return context;
}

/** The cookies of `email` signed in through the sign-in page (once per role and server: sign-ins are rate limited). */
export type Session = Awaited<ReturnType<BrowserContext['storageState']>>;
const sessions = new WeakMap<RunningServer, Map<string, Session>>();

async function sessionOf(browser: Browser, shop: RunningServer, email: string): Promise<Session> {
  const known = sessions.get(shop) ?? new Map<string, Session>();
  sessions.set(shop, known);
  const session = known.get(email);
  if (session) return session;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInOnPage(page, shop, email);
  const state = await context.storageState();
  await context.close();
  known.set(email, state);
  return state;
}

/** A context of `width` px signed in as `email` (through the sign-in page the first time), with or without JavaScript. */
export async function signedIn(
  browser: Browser,
  shop: RunningServer,
  email: string,
  options: { width: number; javaScriptEnabled?: boolean },
): Promise<BrowserContext> {
  return browser.newContext({
    storageState: await sessionOf(browser, shop, email),
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width, height: 900 },
  });
}

/** How far the page is wider than the window (0 or less: nothing to scroll sideways). */
export const overflowOf = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
