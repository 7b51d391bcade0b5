/**
 * `tsx bench/inject.ts [path] [n]`: time `app.inject` on one page, page cache on and off (no sockets, no autocannon),
 * for profiling the server's own work: `node --cpu-prof --import tsx bench/inject.ts`.
 */
import { startServer } from '../test/browser/server';

const path = process.argv[2] ?? '/shop/p/speckled-mug';
const n = Number(process.argv[3] ?? 2000);
const server = await startServer();
const app = server.app;
const time = async (label: string, count: number) => {
  for (let i = 0; i < 200; i++) await app.inject({ method: 'GET', url: path });
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const res = await app.inject({ method: 'GET', url: path });
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
  }
  const us = Number(process.hrtime.bigint() - start) / 1000 / count;
  console.log(`${label.padEnd(18)} ${us.toFixed(0).padStart(6)} µs per request (${count} requests)`);
};
await time('page cache on', n);
app.pageCache.enabled = false;
await time('page cache off', n);
await server.close();
