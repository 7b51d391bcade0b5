/**
 * Starts the real Vitrine server for browser tests and the benchmark: a fresh database (SQLite in a temp folder by
 * default, or a new PostgreSQL database with `engine: 'postgres'`), migrated, with a site file imported (the demo by
 * default), listening on a random loopback port.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/server/app';
import type { HttpLimits } from '../../src/platform/http/httpLimits';
import type { FormRouteOptions } from '../../src/modules/forms/routes';
import type { RestockRouteOptions } from '../../src/modules/restock/routes';
import type { CaptchaScriptUrls } from '../../src/core/forms/captcha';
import type { CaptchaEnv } from '../../src/modules/forms/captcha';
import type { Engine } from '../../src/platform/db/connect';
import type { Database } from '../../src/platform/db/tables';
import { importSite, importSiteFile } from '../../src/modules/site/import';
import { createFreshDb } from '../support/engines';

export const DEMO_SITE_FILE = join(import.meta.dirname, '../../sites/demo/site.json');

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** The server's database (absent for servers made by other helpers). */
  db?: Kysely<Database>;
  /** The database's URL or SQLite file (absent for servers made by other helpers). */
  databaseUrl?: string;
  close(): Promise<void>;
}

export async function startServer(
  options: {
    siteFile?: string;
    cartRateLimitPerMinute?: number;
    engine?: Engine;
    /** Timeouts and keep-alive limits (the benchmark lifts the per-connection request cap its client ignores). */
    httpLimits?: Partial<HttpLimits>;
    /** Keeps the site file's promo popup (default: removed, so it covers no other suite's page). */
    promoPopup?: boolean;
    /** Changes the site file before it is imported (its images are still read beside the file). */
    editSite?: (site: { website: { store: Record<string, unknown> } }) => void;
    /** Form blocks' budgets and ALTCHA's work (src/modules/forms/formRequests.ts). */
    formRoutes?: Omit<FormRouteOptions, 'counters'>;
    /** Restock sign-ups' budgets (src/modules/restock/signUpRequests.ts). */
    restockRoutes?: Omit<RestockRouteOptions, 'counters'>;
    /** The third-party CAPTCHA providers' API (a local stand-in: test/support/captchaProviders.ts). */
    captchaEnv?: CaptchaEnv;
    /** Their browser scripts, served by that stand-in. */
    captchaScripts?: CaptchaScriptUrls;
  } = {},
): Promise<RunningServer> {
  const fresh = await createFreshDb(options.engine ?? 'sqlite');
  const handle = fresh.handle;
  const dispose = () => fresh.dispose();
  const siteFile = options.siteFile ?? DEMO_SITE_FILE;
  // The demo's promo popup (a modal after a few seconds) would cover the page in the other suites: only those that
  // ask for it keep it.
  const dropPromoPopup = options.promoPopup !== true;
  if (options.editSite || dropPromoPopup) {
    const site = JSON.parse(readFileSync(siteFile, 'utf8')) as {
      website: { store: Record<string, unknown>; promoPopup?: unknown };
    };
    if (dropPromoPopup) delete site.website.promoPopup;
    options.editSite?.(site);
    await importSite(handle.db, JSON.stringify(site), dirname(siteFile));
  } else {
    await importSiteFile(handle.db, siteFile);
  }
  const app = await buildApp({
    db: handle.db,
    engine: handle.engine,
    ...(options.cartRateLimitPerMinute !== undefined ? { cartRateLimitPerMinute: options.cartRateLimitPerMinute } : {}),
    ...(options.httpLimits ? { httpLimits: options.httpLimits } : {}),
    ...(options.formRoutes ? { formRoutes: options.formRoutes } : {}),
    ...(options.restockRoutes ? { restockRoutes: options.restockRoutes } : {}),
    ...(options.captchaEnv ? { captchaEnv: options.captchaEnv } : {}),
    ...(options.captchaScripts ? { captchaScripts: options.captchaScripts } : {}),
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url: address,
    db: handle.db,
    databaseUrl: fresh.url,
    async close() {
      await app.close();
      await dispose();
    },
  };
}
