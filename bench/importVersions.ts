/**
 * `tsx bench/importVersions.ts`: what recording a site version costs an import (issue 26). A generated shop of
 * BENCH_PRODUCTS products (10,000) is imported into a fresh SQLite file, then imported again with one product renamed
 * (the second import also compares with the version before it, for its summary). Prints both times and the time per
 * product, the median of BENCH_ROUNDS rounds; run it on the commit before and after a change and compare.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
const { connect } = await import('../src/platform/db/connect');
const { migrateToLatest } = await import('../src/platform/db/migrations');
const { importSite } = await import('../src/modules/site/import');
const { generatedSite } = await import('./generatedSite');

const SIZE = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const first: number[] = [];
const second: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-import-versions-'));
  const handle = connect(join(dir, 'vitrine.db'));
  await migrateToLatest(handle.db);
  const site = generatedSite(SIZE, { host: 'bench.test', id: 'bench' });
  let started = performance.now();
  await importSite(handle.db, JSON.stringify(site), dir);
  first.push(performance.now() - started);
  const product = site.products![0]!;
  product.name = `${product.name} (renamed)`;
  started = performance.now();
  await importSite(handle.db, JSON.stringify(site), dir);
  second.push(performance.now() - started);
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
}
const line = (label: string, ms: number) =>
  console.log(
    `${label.padEnd(22)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${((ms * 1000) / SIZE).toFixed(0).padStart(5)} µs a product`,
  );
console.log(`Import of ${SIZE} products, median of ${ROUNDS}:`);
line('first import', median(first));
line('import again (1 change)', median(second));
