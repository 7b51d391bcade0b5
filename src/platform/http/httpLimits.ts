/**
 * How long the HTTP server waits for a client, and how many clients it holds at once. Without these a client that
 * sends its headers or body a byte at a time, or opens connections and sends nothing, holds a socket for as long
 * as it likes. A request that is not received in time is answered 408 (JSON, `request-timeout`, by the app's client
 * error handler) and its connection closed; a connection past the cap is closed at once.
 */
export interface HttpLimits {
  /** The whole request (headers and body) must be received within this many ms of its first byte (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** The headers must be received within this many ms (Node's headersTimeout; at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** A connection with no traffic either way for this many ms is closed (Fastify's connectionTimeout). */
  idleTimeoutMs: number;
  /**
   * An idle keep-alive connection is closed after this many ms. Behind a proxy or load balancer that reuses
   * connections, keep it above the proxy's own idle timeout (often 60 s), or the proxy may send a request on a
   * connection the server is closing.
   */
  keepAliveTimeoutMs: number;
  /** A connection is closed after this many requests (Connection: close on the last answer). */
  maxRequestsPerSocket: number;
  /** Connections held at once; further ones are closed as they arrive. */
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 72_000,
  maxRequestsPerSocket: 1000,
  maxConnections: 4096,
};

/** The limits given, the defaults for the rest. */
export function httpLimits(given: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS };
  for (const [name, value] of Object.entries(given) as [keyof HttpLimits, number | undefined][]) {
    if (value !== undefined) limits[name] = value;
  }
  return limits;
}

/** The Fastify options that carry the limits (and the Node server options behind them); maxConnections is set on the server. */
export function fastifyHttpOptions(limits: HttpLimits) {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerSocket,
    http: {
      headersTimeout,
      requestTimeout: limits.requestTimeoutMs,
      // Node looks for late requests every 30 s by default: a 10 s limit could last 40 s.
      connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(headersTimeout / 4))),
      // A request without Host is refused by the app, with its usual error body (Node's own 400 has none).
      requireHostHeader: false,
    },
  };
}
