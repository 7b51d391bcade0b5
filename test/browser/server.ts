/**
 * Starts the real Vitrine server for browser tests and the benchmark: a fresh SQLite file in a temp folder, migrated,
 * with a site file imported (the demo by default), listening on a random loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { connect } from '../../src/db/connect';
import { migrateToLatest } from '../../src/db/migrations';
import { importSiteFile } from '../../src/site/import';

export const DEMO_SITE_FILE = join(import.meta.dirname, '../../sites/demo/site.json');

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: { siteFile?: string; cartRateLimitPerMinute?: number } = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-'));
  const handle = connect(join(dir, 'vitrine.db'));
  await migrateToLatest(handle.db);
  await importSiteFile(handle.db, options.siteFile ?? DEMO_SITE_FILE);
  const app = await buildApp({
    db: handle.db,
    engine: handle.engine,
    ...(options.cartRateLimitPerMinute !== undefined ? { cartRateLimitPerMinute: options.cartRateLimitPerMinute } : {}),
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url: address,
    async close() {
      await app.close();
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
