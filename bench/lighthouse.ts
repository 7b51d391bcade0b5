/**
 * Lighthouse (mobile preset) on the demo store with its own design and with a second, deliberately different one
 * (test/support/design.ts: other colours, two of the fonts that ship with Vitrine, square buttons, a logo, its own menu
 * and footer links): the home page, a product page and the cart holding one mug, each design served by `vitrine serve`
 * (NODE_ENV=production, SQLite) on this machine. Each page is measured LIGHTHOUSE_RUNS times (default 5) and the
 * median run by performance score is printed — its four category scores and FCP, LCP, CLS and TBT —, with the range
 * of the performance scores: one run's score moves with the machine (Lighthouse's own guide to variability advises
 * the median of five). Not part of `npm test` (each run takes tens of seconds, and its timings are the machine's).
 *
 *   npx vite build && CHROME_PATH=/usr/bin/chromium npx tsx bench/lighthouse.ts
 *
 * Lighthouse comes from the npm registry through npx (lighthouse@12, cached after the first run); Chromium is
 * Debian's. Nothing is fetched from elsewhere: every page's requests go to 127.0.0.1.
 *
 * The cart is measured as a shopper sees it: its cookies are in the browser's jar, where the page's script reads the
 * readable hasCart (a Cookie header from Lighthouse's --extra-headers reaches the server but not document.cookie, so
 * the cart store drew the empty cart over the server's lines: a layout shift of the bench's own). For it this script
 * starts a Chromium of its own with a DevTools port, sets the cookies there over CDP (playwright-core), and runs
 * Lighthouse against that browser (--port, --disable-storage-reset: Lighthouse would clear them otherwise).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../src/core/crumb';
import { TEST_DESIGN } from '../test/support/design';

const ROOT = join(import.meta.dirname, '..');
const DEMO = join(ROOT, 'sites/demo/site.json');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** test/browser/chromium.ts's CHROMIUM_ARGS (that file imports vitest): no sandbox as root, the network closed. */
const CHROME_FLAGS =
  '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';
/** Tries of a run that Lighthouse gives up with NO_NAVSTART (it saw no navigation start: seen now and then here). */
const LIGHTHOUSE_TRIES = 3;
/** Runs per page; the median one is reported. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'product', path: '/shop/p/speckled-mug' },
  { name: 'cart (one mug)', path: '/cart', cart: true },
] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface Design {
  name: string;
  /** The site file to import (absent: the demo as it is, imported by `vitrine serve` itself). */
  siteFile?: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out).toString())
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${Buffer.concat(out).toString()}`)),
    );
  });
}

/** `vitrine serve` on `port` with the database at `db`, once it answers. */
async function serve(db: string, port: number): Promise<ChildProcess> {
  const child = spawn(TSX, ['src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: db },
    stdio: 'ignore',
  });
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
  }
  child.kill();
  throw new Error(`vitrine serve did not answer on port ${port}`);
}

/** A cookie as the browser's jar takes it (playwright-core's BrowserContext.addCookies). */
interface JarCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  expires?: number;
}

/** A Set-Cookie line of the server at `base` as the jar would keep it. */
function jarCookie(base: string, line: string): JarCookie {
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  const equals = pair.indexOf('=');
  const cookie: JarCookie = {
    name: pair.slice(0, equals),
    value: pair.slice(equals + 1),
    domain: new URL(base).hostname,
    path: '/',
    httpOnly: false,
    secure: false,
  };
  for (const attribute of attributes) {
    const [key = '', value = ''] = attribute.split('=');
    const name = key.toLowerCase();
    if (name === 'path') cookie.path = value;
    else if (name === 'httponly') cookie.httpOnly = true;
    else if (name === 'secure') cookie.secure = true;
    else if (name === 'samesite')
      cookie.sameSite = (value[0]!.toUpperCase() + value.slice(1).toLowerCase()) as JarCookie['sameSite'];
    else if (name === 'max-age') cookie.expires = Math.floor(Date.now() / 1000) + Number(value);
    else if (name === 'expires' && cookie.expires === undefined) cookie.expires = Date.parse(value) / 1000;
  }
  return cookie;
}

/** The cookies of a visitor whose cart holds one mug: the crumb, CART and hasCart. */
async function cartCookies(base: string): Promise<JarCookie[]> {
  const home = await fetch(`${base}/`);
  const crumbLine = home.headers.getSetCookie().find((c) => c.startsWith(`${CRUMB_COOKIE}=`));
  if (!crumbLine) throw new Error('no crumb cookie on the home page');
  const crumb = crumbLine.split(';')[0]!;
  const added = await fetch(`${base}/api/commerce/shopping-cart/entries`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: crumb,
      [CRUMB_HEADER]: crumb.slice(CRUMB_COOKIE.length + 1),
    },
    body: JSON.stringify({ itemId: 'speckled-mug', sku: 'MUG-OAT', quantity: 1, additionalFields: '' }),
  });
  if (!added.ok) throw new Error(`adding the mug answered ${added.status}: ${await added.text()}`);
  return [crumbLine, ...added.headers.getSetCookie()].map((line) => jarCookie(base, line));
}

/** A Chromium of this script's own, headless, with a DevTools port and a fresh profile; `close` removes both. */
async function ownChromium(): Promise<{ port: number; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'vitrine-lighthouse-chromium-'));
  const child = spawn(
    CHROME_PATH,
    [...CHROME_FLAGS.split(' '), '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    // A process group of its own: the browser's helper processes (renderers, GPU, utilities) end with it.
    { stdio: 'ignore', detached: true },
  );
  /** Whether any process of the browser's group is still running. */
  const running = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  const close = async () => {
    if (running()) process.kill(-child.pid!, 'SIGTERM');
    // Until the last of them has exited, one may still be writing the profile.
    for (let i = 0; i < 100 && running(); i++) await new Promise((r) => setTimeout(r, 50));
    if (running()) process.kill(-child.pid!, 'SIGKILL');
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  // Chromium writes the port it chose (port 0) to DevToolsActivePort in its profile.
  const portFile = join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    if (existsSync(portFile)) {
      const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
      if (port > 0) return { port, close };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new Error('Chromium gave no DevTools port');
}

/** Puts `cookies` in the jar of the browser on DevTools `port` (its default context, where Lighthouse opens its tab). */
async function setCookies(port: number, cookies: readonly JarCookie[]): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('the browser has no default context');
    await context.addCookies([...cookies]);
  } finally {
    // Connected over CDP, close() disconnects and leaves the browser (and its default context) running.
    await browser.close();
  }
}

interface Scores {
  categories: Record<string, number>;
  fcp: string;
  lcp: string;
  cls: string;
  tbt: string;
}

/** One Lighthouse run on `url` (the report written to `out`): in a browser holding `cookies`, when given. */
async function lighthouseRun(url: string, out: string, cookies?: readonly JarCookie[]): Promise<void> {
  const common = [
    '-y',
    'lighthouse@12',
    url,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    `--only-categories=${CATEGORIES.join(',')}`,
  ];
  const env = { CHROME_PATH };
  if (!cookies) {
    await run('npx', [...common, `--chrome-flags=${CHROME_FLAGS}`], env);
    return;
  }
  const browser = await ownChromium();
  try {
    await setCookies(browser.port, cookies);
    await run('npx', [...common, '--hostname=127.0.0.1', `--port=${browser.port}`, '--disable-storage-reset'], env);
  } finally {
    await browser.close();
  }
}

async function lighthouse(url: string, out: string, cookies?: readonly JarCookie[]): Promise<Scores> {
  for (let attempt = 1; ; attempt++) {
    rmSync(out, { force: true });
    const failure = await lighthouseRun(url, out, cookies).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    const report = existsSync(out)
      ? (JSON.parse(readFileSync(out, 'utf8')) as { runtimeError?: { code?: string } })
      : undefined;
    const noNavstart = report?.runtimeError?.code === 'NO_NAVSTART' || /NO_NAVSTART/.test(failure?.message ?? '');
    if (noNavstart && attempt < LIGHTHOUSE_TRIES) {
      console.warn(
        `${url}: Lighthouse saw no navigation start (NO_NAVSTART), try ${attempt + 1} of ${LIGHTHOUSE_TRIES}`,
      );
      continue;
    }
    if (failure) throw failure;
    if (report?.runtimeError) throw new Error(`${url}: Lighthouse failed: ${JSON.stringify(report.runtimeError)}`);
    break;
  }
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { displayValue?: string }>;
  };
  return {
    categories: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)])),
    fcp: report.audits['first-contentful-paint']?.displayValue ?? '—',
    lcp: report.audits['largest-contentful-paint']?.displayValue ?? '—',
    cls: report.audits['cumulative-layout-shift']?.displayValue ?? '—',
    tbt: report.audits['total-blocking-time']?.displayValue ?? '—',
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'vitrine-lighthouse-'));
  // The second design's site file, beside the demo's images (a link to them).
  const designed = join(work, 'designed');
  mkdirSync(designed);
  symlinkSync(join(dirname(DEMO), 'images'), join(designed, 'images'));
  const site = JSON.parse(readFileSync(DEMO, 'utf8')) as { website: Record<string, unknown> };
  site.website.design = TEST_DESIGN;
  writeFileSync(join(designed, 'site.json'), JSON.stringify(site));
  const designs: Design[] = [{ name: 'demo design' }, { name: 'second design', siteFile: join(designed, 'site.json') }];
  const rows: string[] = [];
  try {
    for (const [i, design] of designs.entries()) {
      const db = join(work, `design-${i}.db`);
      if (design.siteFile) await run(TSX, ['src/cli/main.ts', 'import', design.siteFile], { DATABASE_URL: db });
      const port = 3990 + i;
      const server = await serve(db, port);
      try {
        const base = `http://127.0.0.1:${port}`;
        for (const page of PAGES) {
          const runs: Scores[] = [];
          for (let run = 0; run < RUNS; run++) {
            const cookies = 'cart' in page ? await cartCookies(base) : undefined;
            runs.push(await lighthouse(`${base}${page.path}`, join(work, `report-${i}-${run}.json`), cookies));
          }
          // The median run by performance score (of an even number, the lower middle one), and the scores' range.
          runs.sort((a, b) => a.categories.performance! - b.categories.performance!);
          const s = runs[Math.floor((runs.length - 1) / 2)]!;
          const range = `${runs[0]!.categories.performance}–${runs[runs.length - 1]!.categories.performance}`;
          const line = `| ${design.name} | ${page.name} \`${page.path}\` | ${CATEGORIES.map((c) => s.categories[c]).join(' / ')} | ${range} | ${s.fcp} | ${s.lcp} | ${s.cls} | ${s.tbt} |`;
          console.log(line);
          rows.push(line);
        }
      } finally {
        server.kill();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    [
      '',
      `| design | page | performance / accessibility / best practices / SEO (median of ${RUNS}) | performance, all runs | FCP | LCP | CLS | TBT |`,
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  );
}

await main();
