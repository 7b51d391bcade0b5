/**
 * On SQLite, the requests Fastify routes start one per event-loop turn, in the order they arrived (issue 13).
 *
 * better-sqlite3 is synchronous, so a request, once started, runs to its answer without giving the event loop back:
 * about 0.5 ms for an add to cart, 2–5 ms for an order or a page rendered anew (a page not in the page cache, the
 * cart, the checkout, a search). Node reads, in one turn of its event loop, every socket that is ready, and each
 * request read then ran at once: a turn lasted as long as all of them. But Node (libuv ≥ 1.45) accepts only one new
 * connection per turn. With 50 clients connecting at once, the first few were served again and again, turn after
 * turn, while the last ones waited in the kernel for their accept: the last accepted after 2–3 s. Place order's p99
 * was about 1 s at 50 connections against 3 ms at 1 (the server's own time was 3–10 ms: the rest was the wait for an
 * accept), and the uncached product page's 0.6–1.6 s at the same rate. Each request now waits for its turn
 * (setImmediate, first come first served), so a turn holds one of them: new connections are accepted and every
 * request is read between two, and none is overtaken (uncached product page: p99 0.6–1.6 s → 0.2 s at the same rate).
 *
 * Cached pages never wait: they are answered before Fastify (./pageFastPath.ts), in microseconds. Only what a request
 * does before its first real wait is held to a turn: a payment service's HTTP call, say, lets the next one start.
 * PostgreSQL needs none of this: its queries give the event loop back while they run (measured: the uncached page's
 * p99 was the same with and without turns).
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';

/** Hands out one turn per event-loop turn, first come first served. */
export class TurnQueue {
  readonly #waiting: (() => void)[] = [];
  #head = 0;
  #scheduled = false;

  /** Resolves in a later event-loop turn, after every earlier caller's turn. */
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  /** Callers still waiting. */
  get length(): number {
    return this.#waiting.length - this.#head;
  }

  #schedule(): void {
    if (this.#scheduled || this.length === 0) return;
    this.#scheduled = true;
    setImmediate(this.#next);
  }

  readonly #next = (): void => {
    this.#scheduled = false;
    const resolve = this.#waiting[this.#head++]!;
    // Drop the served part now and then rather than shifting the array for every turn.
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
    this.#schedule();
    resolve();
  };
}

/** Every route registered after this call waits for its turn before its handler (after body parsing). */
export function queueRequests(app: FastifyInstance): TurnQueue {
  const turns = new TurnQueue();
  const waitForTurn: preHandlerAsyncHookHandler = () => turns.wait();
  app.addHook('onRoute', (route) => {
    const hooks = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [waitForTurn, ...hooks];
  });
  return turns;
}
