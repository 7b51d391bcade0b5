/**
 * Lighthouse (mobile preset) on the demo store with its own design and with a second, deliberately different one
 * (test/support/design.ts: other colours, two of the fonts that ship with Vitrine, square buttons, a logo, its own menu
 * and footer links): the home page, a product page and the cart holding one mug, each design served by `vitrine serve`
 * (NODE_ENV=production, SQLite) on this machine. Prints the four category scores and LCP, CLS and TBT of each run.
 * Not part of `npm test` (each run takes tens of seconds, and its timings are the machine's).
 *
 *   npx vite build && CHROME_PATH=/usr/bin/chromium npx tsx bench/lighthouse.ts
 *
 * Lighthouse comes from the npm registry through npx (lighthouse@12, cached after the first run); Chromium is
 * Debian's. Nothing is fetched from elsewhere: every page's requests go to 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../src/core/crumb';
import { TEST_DESIGN } from '../test/support/design';

const ROOT = join(import.meta.dirname, '..');
const DEMO = join(ROOT, 'sites/demo/site.json');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CHROME_FLAGS =
  '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';
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

/** The cookies of a visitor whose cart holds one mug. */
async function cartCookies(base: string): Promise<string> {
  const home = await fetch(`${base}/`);
  const crumb = home.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${CRUMB_COOKIE}=`));
  if (!crumb) throw new Error('no crumb cookie on the home page');
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
  const cart = added.headers.getSetCookie().map((c) => c.split(';')[0]!);
  return [crumb, ...cart].join('; ');
}

interface Scores {
  categories: Record<string, number>;
  lcp: string;
  cls: string;
  tbt: string;
}

async function lighthouse(url: string, out: string, cookie?: string): Promise<Scores> {
  await run(
    'npx',
    [
      '-y',
      'lighthouse@12',
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      `--chrome-flags=${CHROME_FLAGS}`,
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
    ],
    { CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
  );
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { displayValue?: string }>;
  };
  return {
    categories: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)])),
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
          const cookie = 'cart' in page ? await cartCookies(base) : undefined;
          const s = await lighthouse(`${base}${page.path}`, join(work, `report-${i}-${page.name}.json`), cookie);
          const line = `| ${design.name} | ${page.name} \`${page.path}\` | ${CATEGORIES.map((c) => s.categories[c]).join(' / ')} | ${s.lcp} | ${s.cls} | ${s.tbt} |`;
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
      '| design | page | performance / accessibility / best practices / SEO | LCP | CLS | TBT |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  );
}

await main();
