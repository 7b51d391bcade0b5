/**
 * One JSON POST to a CAPTCHA provider, with a deadline. The provider's answer is read as JSON when it is JSON; a
 * connection failure or the deadline passing is told apart from an answer, so that an adapter never takes either
 * for a verdict.
 */
export type ProviderAnswer =
  { kind: 'answer'; status: number; json: unknown } | { kind: 'unreachable'; reason: string };

/** Marks a body that was not JSON (a proxy's HTML page, a cut answer). */
export const NOT_JSON: unique symbol = Symbol('not JSON');

export async function postToProvider(
  url: string,
  body: unknown,
  options: { timeoutMs: number; headers?: Record<string, string> },
): Promise<ProviderAnswer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'error',
    });
    const text = await response.text();
    let json: unknown = NOT_JSON;
    try {
      json = JSON.parse(text);
    } catch {
      // kept as NOT_JSON
    }
    return { kind: 'answer', status: response.status, json };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : (e.cause?.code ?? e.message ?? 'unreachable');
    return { kind: 'unreachable', reason };
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
