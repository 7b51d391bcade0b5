/**
 * The benchmark's load generator, in a process of its own (started by ./harness.ts with `fork`): autocannon runs
 * here, so the server's process (the benchmark's) spends its CPU on the server only, and `process.cpuUsage()` around
 * a run measures what the requests cost the server. It receives one run at a time over IPC and answers its figures.
 *
 * A place-order run sends each request with its own cart and idempotency key (`orders`): the carts are sent over,
 * the requests built here.
 */
import autocannon from 'autocannon';

export interface LoadRun {
  id: number;
  options: autocannon.Options & { amount?: number; sampleInt?: number };
  /** A place-order run: one request per cart, each with its own idempotency key. */
  orders?: { path: string; carts: string[]; run: string; crumbHeader: string; crumb: string; details: object };
}

export interface LoadResult {
  id: number;
  requests: number;
  durationS: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  error?: string;
}

interface RequestParams {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

async function run(job: LoadRun): Promise<LoadResult> {
  const options: Record<string, unknown> = { ...job.options };
  const orders = job.orders;
  if (orders) {
    let next = 0;
    options.requests = [
      {
        method: 'POST',
        path: orders.path,
        setupRequest: (request: RequestParams): RequestParams => {
          const i = next++;
          const cart = orders.carts[i];
          if (cart === undefined) throw new Error(`more requests than the ${orders.carts.length} carts prepared`);
          return {
            ...request,
            headers: {
              ...request.headers,
              'content-type': 'application/json',
              [orders.crumbHeader]: orders.crumb,
              cookie: cart,
            },
            body: JSON.stringify({
              idempotencyKey: `bench-${orders.run}-${i.toString().padStart(8, '0')}`,
              ...orders.details,
            }),
          };
        },
      },
    ];
  }
  const result = await autocannon(options as unknown as autocannon.Options);
  // The completed requests over the time taken: a run of a fixed number of requests ends within a second, which the
  // per-second average would count as a whole one.
  const { requests, duration } = result as autocannon.Result & { requests: { total: number }; duration: number };
  return {
    id: job.id,
    requests: requests.total,
    durationS: duration,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

process.on('message', (job: LoadRun) => {
  run(job).then(
    (result) => process.send!(result),
    (error: unknown) =>
      process.send!({
        id: job.id,
        requests: 0,
        durationS: 0,
        p99Ms: 0,
        non2xx: 0,
        errors: 0,
        error: String(error),
      } satisfies LoadResult),
  );
});
// Ends with its parent: the channel closing is the signal.
process.on('disconnect', () => process.exit(0));
