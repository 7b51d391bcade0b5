/**
 * Tests that write through `app.inject` or raw HTTP send what a page's script sends: the crumb cookie and the same
 * value in the crumb header (src/core/crumb.ts). `withCrumb(headers)` adds both to a request's headers, keeping
 * any cookies already there.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { CRUMB_COOKIE, CRUMB_HEADER } from '../../src/core/crumb';

export const TEST_CRUMB = 'dGVzdC1jcnVtYi0xMjM0NQ';

export function withCrumb<H extends Record<string, string | string[] | undefined>>(
  headers: H = {} as H,
): H & Record<string, string> {
  const existing = typeof headers.cookie === 'string' && headers.cookie !== '' ? `${headers.cookie}; ` : '';
  return { ...headers, cookie: `${existing}${CRUMB_COOKIE}=${TEST_CRUMB}`, [CRUMB_HEADER]: TEST_CRUMB } as H &
    Record<string, string>;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Makes `app.inject` send the crumb on every state-changing request, as a page's script does, for suites about
 * something else (the cart's rules, bad input): a request that sets its own crumb header keeps it. The crumb's own
 * suite (test/integration/crumb.test.ts) uses an app without this.
 */
export function sendCrumbs(app: FastifyInstance): FastifyInstance {
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const patched = (options?: InjectOptions | string) => {
    if (options === undefined)
      throw new Error('sendCrumbs: call inject with options (the chained form is not patched).');
    if (typeof options === 'string' || !STATE_CHANGING.has(String(options.method ?? 'GET').toUpperCase()))
      return inject(options);
    const headers = (options.headers ?? {}) as Record<string, string | string[] | undefined>;
    return inject({ ...options, headers: headers[CRUMB_HEADER] !== undefined ? headers : withCrumb(headers) });
  };
  (app as unknown as { inject: typeof patched }).inject = patched;
  return app;
}
