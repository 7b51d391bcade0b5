/**
 * One Chromium for a whole `vitest run`: launching one costs seconds of CPU, and each browser test file used to launch
 * its own. This global setup starts no browser by itself: it answers on a loopback port, and the first test file that
 * asks (test/browser/chromium.ts `launchChromium`, through VITRINE_TEST_CHROMIUM) has Chromium started as a browser
 * server; every file then connects to it and works in contexts of its own (cookies, storage and cache apart), which
 * it closes when it disconnects. A run without browser tests launches nothing. The browser ends with the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/chromium';

export default async function setup(): Promise<() => Promise<void>> {
  let launched: Promise<BrowserServer> | undefined;
  const broker = createServer((_request, response) => {
    launched ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    launched.then(
      (server) => response.writeHead(200, { 'content-type': 'text/plain' }).end(server.wsEndpoint()),
      (error: unknown) =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((listening) => broker.listen(0, '127.0.0.1', listening));
  process.env.VITRINE_TEST_CHROMIUM = `http://127.0.0.1:${(broker.address() as AddressInfo).port}/`;
  return async () => {
    delete process.env.VITRINE_TEST_CHROMIUM;
    await new Promise((closed) => broker.close(closed));
    await (await launched?.catch(() => undefined))?.close();
  };
}
