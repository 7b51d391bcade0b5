/**
 * Two server processes on one database, over real HTTP: simultaneous adds to one cart, half through each process,
 * never put more in the cart than the stock. On SQLite this exercises BEGIN IMMEDIATE between processes; on
 * PostgreSQL the cart row lock between two pools.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';
import { withCrumb } from '../support/crumb';

const TSX = resolve('node_modules/.bin/tsx');
const SERVER = resolve('test/support/serveApp.ts');

function startServer(url: string): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((ready, fail) => {
    const child = spawn(TSX, [SERVER, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        ready({ child, base: `http://127.0.0.1:${match[1]}` });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
  });
}

forEachEngine((_engine, getDb, getFresh) => {
  const servers: { child: ChildProcess; base: string }[] = [];

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    servers.push(...(await Promise.all([startServer(getFresh().url), startServer(getFresh().url)])));
  });
  afterAll(async () => {
    await Promise.all(
      servers.map(({ child }) => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM'))))),
    );
  });

  const add = (base: string, cookie?: string) =>
    fetch(`${base}/api/commerce/shopping-cart/entries`, {
      method: 'POST',
      headers: withCrumb({ host: SHOP_HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }),
      body: JSON.stringify({ itemId: 'limited', sku: 'limited-1', quantity: 1 }),
    });

  it('never oversells one cart when two processes take simultaneous adds', async () => {
    const [a, b] = servers.map((s) => s.base) as [string, string];
    const first = await add(a);
    expect(first.status).toBe(200);
    const token = /CART=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(token).toBeDefined();
    const cookie = `CART=${token}`;

    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2 ? a : b, cookie)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 409)).toHaveLength(14);

    const cart = (await (await fetch(`${b}/api/commerce/shopping-cart`, { headers: { host: SHOP_HOST, cookie } })).json()) as {
      totalQuantity: number;
      entries: unknown[];
    };
    expect(cart.entries).toHaveLength(1);
    expect(cart.totalQuantity).toBe(7);
  });
});
