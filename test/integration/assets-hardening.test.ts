/**
 * Image resizing is not a CPU lever (issue 12, item 3): only the current site version is served under `v` (any
 * other `v` is redirected to the current URL without resizing), `v` stays out of the rendition cache, at most
 * RESIZE_CONCURRENCY sharp jobs run at once (RESIZE_QUEUE_LENGTH more wait; past that 503 with Retry-After), and
 * /assets is rate-limited per client. sharp is wrapped to count its encodes (`toBuffer`) and, when a test closes
 * the gate, to hold them, so the queue can be watched filling up.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { RESIZE_CONCURRENCY, RESIZE_QUEUE_LENGTH } from '../../src/server/routes/assets';
import { getSite } from '../../src/modules/site/sites';
import { importSiteFile } from '../../src/modules/site/import';
import { forEachEngine } from '../support/engines';

const sharpCalls = vi.hoisted(() => ({
  started: 0,
  running: 0,
  maxRunning: 0,
  gate: undefined as Promise<void> | undefined,
}));

vi.mock('sharp', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof sharp }>()).default;
  const counted = (...args: Parameters<typeof actual>) => {
    const image = actual(...args);
    const toBuffer = image.toBuffer.bind(image) as () => Promise<Buffer>;
    // Every rendition ends in one toBuffer (metadata reads at import do not).
    image.toBuffer = (async () => {
      sharpCalls.started++;
      sharpCalls.running++;
      sharpCalls.maxRunning = Math.max(sharpCalls.maxRunning, sharpCalls.running);
      try {
        if (sharpCalls.gate) await sharpCalls.gate;
        return await toBuffer();
      } finally {
        sharpCalls.running--;
      }
    }) as typeof image.toBuffer;
    return image;
  };
  return { default: Object.assign(counted, actual) };
});

const DEMO_SITE_FILE = join(import.meta.dirname, '../../sites/demo/site.json');
const IMAGES = [
  'brewing-guide',
  'bud-vase',
  'coffee-scoop',
  'coffee-subscription',
  'dinner-plate',
  'engraved-mug',
  'espresso-cups',
  'ethiopia-yirgacheffe',
  'gift-card',
  'hero',
  'house-blend',
  'latte-bowls',
  'linen-tea-towel',
  'post-brewing',
  'post-glazes',
  'post-studio',
  'pour-over-dripper',
  'recipe-club',
  'speckled-mug-oatmeal',
  'speckled-mug-sage',
  'speckled-mug-slate',
  'stoneware-bowl',
  'tasting-session',
  'wheel-workshop',
].map((name) => `images/${name}.jpg`);
const WIDTHS = [100, 300, 500, 750, 1000, 1500, 2500];
const WEBP = 'image/avif,image/webp,*/*';

/** A client address of its own, so that the /assets budget of one test does not spill into the next. */
const freshIp = () => `10.${randomBytes(3).join('.')}`;
const randomV = () => String(Math.floor(Math.random() * 1e9) + 1000);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let version: number;

  beforeAll(async () => {
    await importSiteFile(getDb(), DEMO_SITE_FILE);
    version = (await getSite(getDb(), 'demo'))!.version;
    app = await buildApp({ db: getDb(), engine });
  });
  afterAll(async () => app?.close());
  beforeEach(() => {
    Object.assign(sharpCalls, { started: 0, running: 0, maxRunning: 0, gate: undefined });
  });

  const get = (url: string, headers: Record<string, string> = {}, remoteAddress = freshIp()) =>
    app.inject({ method: 'GET', url, headers, remoteAddress });

  it('resizes a rendition once: another v is redirected to the current version, never resized, never cached', async () => {
    const url = (v?: string) => `/assets/demo/images/hero.jpg?format=1000w${v === undefined ? '' : `&v=${v}`}`;
    const current = await get(url(String(version)), { accept: WEBP });
    expect(current.statusCode).toBe(200);
    expect(current.headers['content-type']).toBe('image/webp');
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(sharpCalls.started).toBe(1);

    for (const v of [randomV(), randomV(), String(version + 1), String(version - 1), `0${version}`, 'x', '']) {
      const other = await get(url(v), { accept: WEBP });
      expect(other.statusCode, `v=${v}`).toBe(302);
      // The URL pages use today (so a browser that has it cached needs nothing more).
      expect(other.headers.location).toBe(`/assets/demo/images/hero.jpg?v=${version}&format=1000w`);
      // A redirect from a URL that may become current later must not be kept by browsers or CDNs.
      expect(other.headers['cache-control']).toBe('no-store');
    }
    const twice = await get('/assets/demo/images/hero.jpg?v=1&v=2&format=500w');
    expect(twice.statusCode).toBe(302);
    expect(twice.headers.location).toBe(`/assets/demo/images/hero.jpg?v=${version}&format=500w`);
    expect(sharpCalls.started).toBe(1);

    // The unversioned URL is the same rendition: served from the cache, for an hour only.
    const unversioned = await get(url(), { accept: WEBP });
    expect(unversioned.statusCode).toBe(200);
    expect(unversioned.headers['cache-control']).toBe('public, max-age=3600');
    expect(unversioned.rawPayload.equals(current.rawPayload)).toBe(true);
    expect(sharpCalls.started).toBe(1);
  });

  it('never flushes the rendition cache with random v values', async () => {
    const url = `/assets/demo/images/bud-vase.jpg?format=100w&v=${version}`;
    expect((await get(url)).statusCode).toBe(200);
    expect(sharpCalls.started).toBe(1);
    // More random versions than the cache holds (300 renditions), each from its own address (past any rate limit).
    for (let i = 0; i < 40; i++) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, () => get(`/assets/demo/images/bud-vase.jpg?format=100w&v=${randomV()}`)),
      );
      for (const response of batch) expect(response.statusCode).toBe(302);
    }
    expect(sharpCalls.started).toBe(1);
    expect((await get(url)).statusCode).toBe(200);
    expect(sharpCalls.started).toBe(1);
  });

  it('runs at most 2 resizes at once; 16 parallel 2500w WebP requests wait their turn', async () => {
    const gate = deferred();
    sharpCalls.gate = gate.promise;
    const ip = freshIp();
    const requests = IMAGES.slice(0, 16).map((file) =>
      get(`/assets/demo/${file}?format=2500w&v=${version}`, { accept: WEBP }, ip),
    );
    // Every request has read its image and is resizing or waiting (or, unbounded, all are resizing).
    await waitFor(() => sharpCalls.started >= 16, 1500);
    expect(sharpCalls.running).toBeLessThanOrEqual(2);
    gate.resolve();
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    expect(sharpCalls.started).toBe(16);
    expect(sharpCalls.maxRunning).toBeLessThanOrEqual(2);
    expect(RESIZE_CONCURRENCY).toBeLessThanOrEqual(2);
  });

  it('answers 503 with Retry-After and the JSON error shape when the resize queue is full', async () => {
    const gate = deferred();
    sharpCalls.gate = gate.promise;
    const renditions = IMAGES.flatMap((file) =>
      WIDTHS.map((width) => `/assets/demo/${file}?format=${width}w&v=${version}`),
    ).filter(
      (url) =>
        !url.includes('hero.jpg?format=1000w') &&
        !url.includes('bud-vase.jpg?format=100w') &&
        !url.includes('format=2500w'),
    );
    // The documented bound: 2 resizing, 64 waiting (docs/api.md).
    const [running, waiting, extra] = [2, 64, 4];
    const count = running + waiting + extra;
    expect(renditions.length).toBeGreaterThanOrEqual(count);
    let refused = 0;
    const requests = renditions.slice(0, count).map((url) =>
      get(url, { accept: WEBP }).then((response) => {
        if (response.statusCode === 503) refused++;
        return { url, response };
      }),
    );
    await waitFor(() => refused >= extra, 5000);
    gate.resolve();
    const responses = (await Promise.all(requests)).map((r) => r.response);
    const busy = (await Promise.all(requests)).filter((r) => r.response.statusCode === 503);
    expect(busy).toHaveLength(extra);
    for (const { response } of busy) {
      expect(response.json()).toEqual({
        code: 'server-busy',
        message: 'The server is busy. Please try again in a few seconds.',
        type: 'API_FAILURE',
      });
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(10);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(count - extra);
    expect(sharpCalls.maxRunning).toBeLessThanOrEqual(running);
    // A refused rendition is not cached as a failure: asked again, it is made.
    expect((await get(busy[0]!.url, { accept: WEBP })).statusCode).toBe(200);
    expect([RESIZE_CONCURRENCY, RESIZE_QUEUE_LENGTH]).toEqual([running, waiting]);
  });

  it('rate-limits /assets per client: 300 per 10 s (a product grid is about 20), then 429 with the JSON error shape', async () => {
    const ip = freshIp();
    const url = `/assets/demo/images/hero.jpg?v=${version}`;
    // Fifteen grids of 20 images; originals, so no resizing is involved.
    for (let grid = 0; grid < 15; grid++) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => get(url, {}, ip)));
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    }
    const refused = await get(url, {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.json()).toEqual({
      code: 'rate-limited',
      message: 'Please try again in a few seconds.',
      type: 'API_FAILURE',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(10);
    // Another client is not affected.
    expect((await get(url)).statusCode).toBe(200);
  });
});
