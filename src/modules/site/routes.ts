/**
 * `GET /api/context/config` (spec §7): the bootstrap configuration a page's scripts may need (src/modules/site/contextConfig.ts
 * says what is in it and what never is). It changes only with an import, so it is made once per site version and
 * revalidated by ETag: browsers and proxies may keep it but ask again (a 304 costs no body).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { contextConfigOf } from './contextConfig';
import { siteOf } from './requestSite';
import { z } from 'zod';
import { describeRoute, emptyAnswer, jsonAnswer } from '../../platform/http/apiDescription';

export const CONTEXT_CONFIG_PATH = '/api/context/config';

const CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** Whether an If-None-Match header names `etag` (a list, weak or strong, or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

export function registerContextRoutes(app: FastifyInstance): void {
  /** Per site id: the body and ETag of the version last asked for. */
  const made = new Map<string, { version: number; body: string; etag: string }>();

  app.get(CONTEXT_CONFIG_PATH, { schema: contextConfigRoute }, async (request, reply) => {
    const site = await siteOf(request);
    let entry = made.get(site.id);
    if (!entry || entry.version !== site.version) {
      const body = JSON.stringify(contextConfigOf(site));
      entry = {
        version: site.version,
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      };
      made.set(site.id, entry);
    }
    reply.header('etag', entry.etag).header('cache-control', CACHE_CONTROL);
    if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(entry.body);
  });
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const contextConfigRoute = describeRoute({
  operationId: 'getContextConfig',
  summary: 'The site’s bootstrap configuration (spec §7)',
  description: 'Cached per site version: an ETag; If-None-Match with it answers 304 until the next import.',
  tags: ['content'],
  response: {
    200: jsonAnswer(
      'The configuration.',
      z.object({
        website: z.record(z.string(), z.unknown()),
        labels: z.record(z.string(), z.string()),
        storeSettings: z.record(z.string(), z.unknown()),
      }),
    ),
    304: emptyAnswer('Not modified.'),
  },
});
