/**
 * Closing a server the way a restart should: nothing a client sent is dropped. `closeGracefully(app)`:
 * 1. from now on every answer says `Connection: close` (an answer already being made included), so a keep-alive
 *    client opens its next connection elsewhere — to the process that replaces this one;
 * 2. for LAST_CALL_MS it goes on as before, taking connections too: a busy client's kept-alive connection carries
 *    its next request and gets that answer, and closes cleanly after it. Closing an idle connection at once instead
 *    races with the request its client may be sending on it at that moment — the request meets a reset connection,
 *    and a POST is not retried (seen in test/integration/serve-restart.test.ts: 6 adds of 1,800 lost);
 * 3. stops accepting connections (Fastify's close: the listening socket is closed, and the connections idle since
 *    before step 1 with it; a request arriving on an open connection is still answered, with `Connection: close`,
 *    never refused with a 503 — return503OnClosing is off). No connection is closed for being idle after that: each
 *    answer closes its own (a connection seen idle may hold a request not read yet — the same race again);
 * 4. after `timeoutMs`, cuts what is still open (a client that never finishes its request, a slow upload) and says
 *    how many: a process must end.
 * The app's onClose hooks (Redis, the stock watch) run once every connection is gone.
 */
import type { FastifyInstance } from 'fastify';

/** How long a draining server still takes connections and requests, every answer closing its connection. */
export const LAST_CALL_MS = 1_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** True once closeGracefully started: every answer from now on closes its connection. */
    draining: boolean;
  }
}

/** The hook that makes answers close their connection while draining; buildApp installs it. */
export function installDraining(app: FastifyInstance): void {
  app.decorate('draining', false);
  // A callback hook, not an async one: it runs on every answer, and does nothing until the server drains.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (app.draining && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    done(null, payload);
  });
}

export interface GracefulCloseResult {
  /** Connections still open at the timeout, closed without their answer. */
  cut: number;
  /** How long it took, ms. */
  tookMs: number;
}

export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<GracefulCloseResult> {
  const started = performance.now();
  app.draining = true;
  const server = app.server;
  let cut = 0;
  const deadline = setTimeout(() => {
    server.getConnections((_error, open) => {
      cut = open;
      server.closeAllConnections();
    });
  }, timeoutMs);
  await new Promise((r) => setTimeout(r, Math.min(LAST_CALL_MS, timeoutMs)));
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
  return { cut, tookMs: Math.round(performance.now() - started) };
}
