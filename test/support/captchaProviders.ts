/**
 * A local node:http server that plays the third-party CAPTCHA providers for tests, so the real adapters
 * (src/modules/forms/captcha/recaptchaEnterprise.ts, turnstile.ts) and the browser's loaders run against it and Google or
 * Cloudflare are never called:
 *
 * - `POST /v1/projects/{project}/assessments` (reCAPTCHA Enterprise) answers an assessment;
 * - `POST /turnstile/v0/siteverify` (Turnstile) answers a siteverify result;
 * - `GET /recaptcha/enterprise.js` is a small stand-in for Google's script: `grecaptcha.enterprise.ready/execute`,
 *   and the `.grecaptcha-badge` it puts at the end of the body.
 *
 * A token says what the provider answers about it: `fakeToken({ action, hostname, score, … })` (the stand-in script
 * makes such tokens too). `mode` makes the whole server misbehave (down with 503, hang past the deadline, answer
 * something that is not JSON, fail the next N calls). Every call is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTokenFacts {
  /** The action it was made for. */
  action?: string;
  /** The page's host. */
  hostname?: string;
  /** reCAPTCHA's score (default 0.9). */
  score?: number;
  /** How long ago it was made (default 1 s). */
  ageMs?: number;
  /** reCAPTCHA: not valid, with this reason (EXPIRED, DUPE, MALFORMED …); Turnstile: these error codes. */
  invalidReason?: string;
  errorCodes?: string[];
  /** Makes tokens with the same facts differ (each execute gives a new token). */
  nonce?: string;
}

const PREFIX = 'fake.';

export const fakeToken = (facts: FakeTokenFacts): string =>
  PREFIX + Buffer.from(JSON.stringify(facts)).toString('base64url');

function readToken(token: unknown): FakeTokenFacts | null {
  if (typeof token !== 'string' || !token.startsWith(PREFIX)) return null;
  try {
    return JSON.parse(Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8')) as FakeTokenFacts;
  } catch {
    return null;
  }
}

export type FakeProviderMode = 'normal' | 'down' | 'hang' | 'not-json' | 'no-assessment';

export interface RecordedCall {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeCaptchaProviders {
  url: string;
  calls: RecordedCall[];
  mode: FakeProviderMode;
  /** The next this many calls fail with a 502 (then `mode` applies again). */
  failNext: number;
  /** Back to normal: no calls recorded, no token spent (siteverify spends a token; a repeat of a call with the same idempotency key gets the same answer). */
  reset(): void;
  close(): Promise<void>;
}

/** The stand-in for Google's enterprise.js (loaded with ?render={siteKey}). Its tokens name the action and the host. */
const FAKE_RECAPTCHA_SCRIPT = `(() => {
  const src = document.currentScript && document.currentScript.src;
  const siteKey = src ? new URL(src).searchParams.get('render') : null;
  const toBase64Url = (text) => btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  window.__fakeRecaptchaCalls = [];
  window.grecaptcha = {
    enterprise: {
      ready(callback) { setTimeout(callback, 0); },
      execute(key, options) {
        window.__fakeRecaptchaCalls.push({ siteKey: key, action: options && options.action });
        if (key !== siteKey) return Promise.reject(new Error('unknown site key'));
        return Promise.resolve('${PREFIX}' + toBase64Url(JSON.stringify({ action: options.action, hostname: location.hostname, siteKey: key, nonce: crypto.randomUUID() })));
      },
    },
  };
  const badge = document.createElement('div');
  badge.className = 'grecaptcha-badge';
  badge.setAttribute('data-style', 'bottomright');
  badge.textContent = 'protected by reCAPTCHA';
  document.body.append(badge);
})();`;

export async function startFakeCaptchaProviders(): Promise<FakeCaptchaProviders> {
  const state = {
    calls: [] as RecordedCall[],
    mode: 'normal' as FakeProviderMode,
    failNext: 0,
    /** idempotency key → the answer given, and the tokens spent. */
    answered: new Map<string, unknown>(),
    spent: new Set<string>(),
  };
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!;
      if (request.method === 'GET' && path === '/recaptcha/enterprise.js') {
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        response.end(FAKE_RECAPTCHA_SCRIPT);
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        // recorded as {}
      }
      state.calls.push({ path, headers: request.headers, body });
      if (state.mode === 'hang') return; // never answers: the adapter's deadline passes
      if (state.failNext > 0) {
        state.failNext--;
        return send(response, 502, { error: 'bad gateway' });
      }
      if (state.mode === 'down')
        return send(response, 503, { error: { code: 503, message: 'The service is currently unavailable.' } });
      if (state.mode === 'not-json') {
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html><body>Sorry…</body></html>');
      }

      const assessment = /^\/v1\/projects\/([^/]+)\/assessments$/.exec(path);
      if (request.method === 'POST' && assessment) {
        if (request.headers['x-goog-api-key'] !== 'test-recaptcha-api-key') {
          return send(response, 403, {
            error: {
              code: 403,
              message: 'API key not valid. Please pass a valid API key.',
              status: 'PERMISSION_DENIED',
            },
          });
        }
        if (state.mode === 'no-assessment') return send(response, 200, { name: 'x' });
        const event = (body.event ?? {}) as { token?: string; siteKey?: string; expectedAction?: string };
        const facts = readToken(event.token);
        const created = new Date(Date.now() - (facts?.ageMs ?? 1000)).toISOString();
        const valid = facts !== null && facts.invalidReason === undefined;
        return send(response, 200, {
          name: `projects/${assessment[1]}/assessments/a1`,
          event: { ...event, token: undefined },
          riskAnalysis: { score: valid ? (facts?.score ?? 0.9) : 0, reasons: [] },
          tokenProperties: {
            valid,
            invalidReason: valid ? 'INVALID_REASON_UNSPECIFIED' : (facts?.invalidReason ?? 'MALFORMED'),
            hostname: facts?.hostname ?? '',
            action: facts?.action ?? '',
            createTime: created,
          },
        });
      }

      if (request.method === 'POST' && path === '/turnstile/v0/siteverify') {
        if (body.secret !== 'test-turnstile-secret')
          return send(response, 200, { success: false, 'error-codes': ['invalid-input-secret'] });
        if (state.mode === 'no-assessment') return send(response, 200, { hello: 'world' });
        const key = typeof body.idempotency_key === 'string' ? body.idempotency_key : null;
        if (key && state.answered.has(key)) return send(response, 200, state.answered.get(key));
        const token = typeof body.response === 'string' ? body.response : '';
        const facts = readToken(token);
        let answer: unknown;
        if (!facts) answer = { success: false, 'error-codes': ['invalid-input-response'] };
        else if (facts.errorCodes) answer = { success: false, 'error-codes': facts.errorCodes };
        else if (state.spent.has(token)) answer = { success: false, 'error-codes': ['timeout-or-duplicate'] };
        else {
          state.spent.add(token);
          answer = {
            success: true,
            challenge_ts: new Date(Date.now() - (facts.ageMs ?? 1000)).toISOString(),
            hostname: facts.hostname ?? '',
            action: facts.action ?? '',
            cdata: '',
            'error-codes': [],
          };
        }
        if (key) state.answered.set(key, answer);
        return send(response, 200, answer);
      }
      send(response, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    get mode() {
      return state.mode;
    },
    set mode(value: FakeProviderMode) {
      state.mode = value;
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(value: number) {
      state.failNext = value;
    },
    reset() {
      state.calls.length = 0;
      state.mode = 'normal';
      state.failNext = 0;
      state.answered.clear();
      state.spent.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The secrets the stand-in accepts. */
export const FAKE_RECAPTCHA_API_KEY = 'test-recaptcha-api-key';
export const FAKE_TURNSTILE_SECRET = 'test-turnstile-secret';
