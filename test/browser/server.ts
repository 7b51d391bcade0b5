/**
 * Starts the real Vitrine server for browser tests and the benchmark: a fresh database (SQLite in a temp folder by
 * default, or a new PostgreSQL database with `engine: 'postgres'`), migrated, with a site file imported (the demo by
 * default), listening on a random loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/server/app';
import { connect, type Engine } from '../../src/db/connect';
import { migrateToLatest } from '../../src/db/migrations';
import type { Database } from '../../src/db/tables';
import { importSiteFile } from '../../src/site/import';
import { createFreshDb } from '../support/engines';

export const DEMO_SITE_FILE = join(import.meta.dirname, '../../sites/demo/site.json');

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** The server's database (absent for servers made by other helpers). */
  db?: Kysely<Database>;
  close(): Promise<void>;
}

export async function startServer(
  options: { siteFile?: string; cartRateLimitPerMinute?: number; engine?: Engine } = {},
): Promise<RunningServer> {
  let handle: { db: Kysely<Database>; engine: Engine };
  let dispose: () => Promise<void>;
  if (options.engine === 'postgres') {
    const fresh = await createFreshDb('postgres');
    handle = fresh.handle;
    dispose = () => fresh.dispose();
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-'));
    const sqlite = connect(join(dir, 'vitrine.db'));
    await migrateToLatest(sqlite.db);
    handle = sqlite;
    dispose = async () => {
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
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
    db: handle.db,
    async close() {
      await app.close();
      await dispose();
    },
  };
}
