/**
 * Two server processes on one database, over real HTTP: simultaneous adds to one cart, half through each process,
 * never put more in the cart than the stock. On SQLite this exercises BEGIN IMMEDIATE between processes; on
 * PostgreSQL the cart row lock between two pools.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHOP_HOST, seedSite, shopSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';
import { withCrumb } from '../support/crumb';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';

forEachEngine((_engine, getDb, getFresh) => {
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    await seedSite(getDb(), shopSite);
    servers.push(...(await Promise.all([startServerProcess(getFresh().url), startServerProcess(getFresh().url)])));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
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

    const cart = (await (
      await fetch(`${b}/api/commerce/shopping-cart`, { headers: { host: SHOP_HOST, cookie } })
    ).json()) as {
      totalQuantity: number;
      entries: unknown[];
    };
    expect(cart.entries).toHaveLength(1);
    expect(cart.totalQuantity).toBe(7);
  });
});
