/**
 * The security headers of every answer (the app's onSend hook sets them; cached pages answered before Fastify,
 * ./pageFastPath, send the same list). The Content-Security-Policy is per page: src/render/contentSecurityPolicy.ts.
 */
export const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  // Pages may be framed by the site's own editor (§2), never by another site.
  ['x-frame-options', 'SAMEORIGIN'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['permissions-policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()'],
];

/** Sent on answers to https requests only (behind a proxy: when TRUST_PROXY believes its X-Forwarded-Proto). */
export const STRICT_TRANSPORT_SECURITY = ['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const;
