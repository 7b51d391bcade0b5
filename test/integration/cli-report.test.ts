/**
 * `vitrine report` (issue 11) on both engines: JSON figures from known events, the HTML document with its server-drawn
 * SVG chart, the text summary, and clear usage errors.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { dayOf } from '../../src/modules/analytics/visitorHash';
import { buildApp } from '../../src/server/app';
import { seedSite, SHOP_HOST, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';

async function vitrine(args: string[], databaseUrl: string, env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const settings = { PORT: undefined, PUBLIC_URL: undefined, ...env, DATABASE_URL: databaseUrl };
  const previous = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  const put = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  put(settings);
  try {
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    put(previous);
  }
}

forEachEngine((_engine, getDb, getFresh) => {
  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    const day = dayOf(new Date());
    const base = { site_id: 'shop', day, created_at: `${day}T10:00:00Z`, browser: 'Chrome', device: 'desktop' };
    await getDb()
      .insertInto('analytics_events')
      .values([
        {
          ...base,
          kind: 'hit',
          name: 'RecordHit',
          path: '/shop/p/tee',
          page_type: 50,
          visitor_hash: 'a',
          visit_hash: 'a1',
        },
        {
          ...base,
          kind: 'hit',
          name: 'RecordHit',
          path: '/checkout',
          page_type: 201,
          visitor_hash: 'a',
          visit_hash: 'a1',
        },
        {
          ...base,
          kind: 'commerce',
          name: 'CommerceShopping_VisitPDP',
          path: '/shop/p/tee',
          visitor_hash: 'a',
          ref: 'tee',
        },
        {
          ...base,
          kind: 'commerce',
          name: 'CommerceShopping_AddToCart',
          path: '/shop/p/tee',
          visitor_hash: 'a',
          ref: 'tee',
          value: 25,
        },
        {
          ...base,
          kind: 'commerce',
          name: 'CommerceShopping_CheckoutConfirmed',
          path: '/checkout/order/o1',
          visitor_hash: 'a',
          ref: 'o1',
          value: 30.5,
        },
        { ...base, kind: 'vital', name: 'INP', path: '/shop/p/tee', visitor_hash: 'a', value: 180, rating: 'good' },
        {
          ...base,
          kind: 'error',
          name: 'ReferenceError: x is not defined',
          path: '/',
          visitor_hash: 'a',
          detail: 'at main.js:1:1',
        },
      ])
      .execute();
  });
  afterAll(() => {});

  it('prints the report as JSON: the purchase is in the funnel, the sales are the orders', async () => {
    const run = await vitrine(['report', '--format', 'json', '--days', '7'], getFresh().url);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      siteId: 'shop',
      days: 7,
      pageViews: 2,
      visits: 1,
      uniqueVisitors: 1,
      // Sales come from the orders table only: the purchase event above names no stored order.
      sales: { orders: 0, grossSales: 0, netSales: 0, currency: 'USD' },
    });
    expect(report.funnel.steps.map((s: { visitors: number }) => s.visitors)).toEqual([1, 1, 1, 1]);
    expect(report.funnel.conversion).toBe(1);
    expect(report.vitals[0]).toMatchObject({ metric: 'INP', p75: 180, rating: 'good' });
    expect(report.errors[0]).toEqual({
      message: 'ReferenceError: x is not defined',
      count: 1,
      visitors: 1,
      sampleStack: 'at main.js:1:1',
    });
  });

  it('prints an HTML document with an SVG chart, and a text summary', async () => {
    const html = await vitrine(['report', '--format=html', '--site', 'shop'], getFresh().url);
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain('<svg');
    expect(html.stdout).toContain('Shop funnel');
    expect(html.stdout).not.toContain('<script');
    const text = await vitrine(['report'], getFresh().url);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Conversion (purchase per product page visitor): 100%');
    expect(text.stdout).toContain('Net sales        $0.00');
  });

  it('prints a report page address with a token; the page shows the report to that token only', async () => {
    const run = await vitrine(['report', 'token', '--site', 'shop'], getFresh().url);
    expect(run.code, run.stderr).toBe(0);
    const token = /\/analytics\/report\?token=([A-Za-z0-9_-]{43})$/.exec(run.stdout)![1]!;
    const app = await buildApp({ db: getDb(), engine: _engine });
    try {
      const page = await app.inject({
        method: 'GET',
        url: `/analytics/report?token=${token}&days=7`,
        headers: { host: SHOP_HOST },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<svg');
      expect(page.body).toContain('Shop funnel');
      const wrong = await app.inject({
        method: 'GET',
        url: `/analytics/report?token=${'A'.repeat(43)}`,
        headers: { host: SHOP_HOST, accept: 'text/html' },
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.body).toContain('vitrine report token');
      expect(
        (
          await app.inject({
            method: 'GET',
            url: `/analytics/report?token=${token}&days=x`,
            headers: { host: SHOP_HOST },
          })
        ).statusCode,
      ).toBe(400);
    } finally {
      await app.close();
    }
  });

  it("prints the token link at an address the owner can open: PUBLIC_URL, the site's domain, or the local server's port", async () => {
    const url = (run: { stdout: string }) =>
      run.stdout
        .split('\n')
        .pop()!
        .replace(/token=[A-Za-z0-9_-]{43}$/, 'token=…');
    // The shop's domain (shop.test): https, no port.
    const domain = await vitrine(['report', 'token', '--site', 'shop'], getFresh().url, { PORT: '4100' });
    expect(url(domain)).toBe('https://shop.test/analytics/report?token=…');
    expect(domain.stderr).toContain("the site's domain 'shop.test'");
    // PUBLIC_URL naming the site wins, with its scheme and port.
    const configured = await vitrine(['report', 'token', '--site', 'shop'], getFresh().url, {
      PUBLIC_URL: 'http://shop.test:8080',
    });
    expect(url(configured)).toBe('http://shop.test:8080/analytics/report?token=…');
    expect(configured.stderr).toContain('PUBLIC_URL');
    // A site on this computer only (the demo's localhost): the local server, http, on PORT.
    await getDb()
      .updateTable('sites')
      .set({ domains: JSON.stringify(['localhost', '127.0.0.1']) })
      .where('id', '=', 'shop')
      .execute();
    try {
      const local = await vitrine(['report', 'token'], getFresh().url, { PORT: '4100' });
      expect(local.code, local.stderr).toBe(0);
      expect(url(local)).toBe('http://localhost:4100/analytics/report?token=…');
      expect(local.stderr).toContain('the local server (vitrine serve on PORT 4100)');
      const byDefault = await vitrine(['report', 'token'], getFresh().url);
      expect(url(byDefault)).toBe('http://localhost:3000/analytics/report?token=…');
    } finally {
      await getDb()
        .updateTable('sites')
        .set({ domains: JSON.stringify([SHOP_HOST]) })
        .where('id', '=', 'shop')
        .execute();
    }
  });

  it('refuses wrong options clearly', async () => {
    expect((await vitrine(['report', '--days', '0'], getFresh().url)).stderr).toContain(
      "option '--days' must be a whole number from 1 to 3650",
    );
    expect((await vitrine(['report', '--format', 'pdf'], getFresh().url)).code).toBe(2);
    const missing = await vitrine(['report', '--site', 'nope'], getFresh().url);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("there is no site 'nope'");
  });
});
