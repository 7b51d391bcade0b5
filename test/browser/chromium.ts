/**
 * What every browser test shares: Debian's Chromium launched the way this machine allows (no sandbox as root, no
 * background networking: the network is closed), and axe-core run on a page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../../src/core/crumb';

export { BROWSER_TEST_TIMEOUT_MS } from './timeout';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The browser of a test file. Under `vitest run` the run's one Chromium (test/support/chromiumServer.ts), connected
 * to: the file's contexts are its own, and `close()` closes them and disconnects. Elsewhere a Chromium of its own.
 */
export async function launchChromium(): Promise<Browser> {
  const broker = process.env.VITRINE_TEST_CHROMIUM;
  if (broker === undefined) return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const answer = await fetch(broker);
  const text = await answer.text();
  if (!answer.ok) throw new Error(`Chromium did not start: ${text}`);
  return chromium.connect(text);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is now, one line each ('rule: help (targets)'); [] when none. */
export async function axeViolationsOf(page: Page): Promise<string[]> {
  // What is fading in (the cart pill, a popover, a dialog) is judged as it ends: axe reads a colour half-way through an
  // opacity animation as failing contrast. Endless animations (a spinner) are not waited for; 2 s at most.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => {})),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  // Evaluated by the test (DevTools protocol), not added as an inline <script>, which the pages' CSP refuses.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
          ) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(document);
  });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * The crumb header for writes a test sends through `context.request` (src/platform/http/crumb.ts): the context's crumb
 * cookie, fetched first from a page of `baseUrl` when the context has none yet.
 */
export async function crumbHeader(context: BrowserContext, baseUrl: string): Promise<Record<string, string>> {
  const find = async () => (await context.cookies(baseUrl)).find((c) => c.name === CRUMB_COOKIE)?.value;
  let crumb = await find();
  if (crumb === undefined) {
    await context.request.get(`${baseUrl}/`);
    crumb = await find();
  }
  if (crumb === undefined) throw new Error(`${baseUrl}/ gave no crumb cookie`);
  return { [CRUMB_HEADER]: crumb };
}
