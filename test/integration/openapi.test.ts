/**
 * docs/openapi.json is the HTTP API as the routes' schemas describe it (src/server/apiDescription.ts): the committed
 * file must be what the routes give now, it must be a sound OpenAPI 3.1 document, and a route added without a
 * description must stop the document from being made.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  describeRoute,
  describeWithoutValidating,
  registerApiDescription,
} from '../../src/platform/http/apiDescription';
import { openApiDocumentText } from '../../src/server/openApiDocument';
import { z } from 'zod';

const ROOT = join(import.meta.dirname, '../..');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const generated = await openApiDocumentText();
const document = JSON.parse(generated) as Document;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ path, method, operation })),
);

/** Every "$ref" in a value, with where it was found. */
function refs(value: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refs(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [{ ref: child, at }] : refs(child, `${at}/${key}`),
  );
}

describe('docs/openapi.json', () => {
  it('is what the routes describe now (after a change to a route: npm run openapi)', () => {
    const committed = readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8');
    expect(committed === generated, 'docs/openapi.json differs from the routes: run `npm run openapi`').toBe(true);
  });

  it('is an OpenAPI 3.1 document of the storefront’s calls, form posts, webhooks and pages', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toBeTruthy();
    const listed = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    // The JSON API, a form post without JavaScript, the webhook, a page.
    expect(listed).toEqual(
      expect.arrayContaining([
        'POST /api/commerce/shopping-cart/entries',
        'GET /api/commerce/inventory/stock/',
        'POST /api/commerce/checkout/orders',
        'POST /cart/add',
        'POST /api/commerce/payments/stripe/webhook',
        'GET /checkout',
      ]),
    );
    // HEAD routes Fastify adds, and the inventory call's alias without the final slash, are not listed again.
    expect(listed.filter((l) => l.startsWith('HEAD '))).toEqual([]);
    expect(listed).not.toContain('GET /api/commerce/inventory/stock');
  });

  it('names and sums up every operation, once, and says every answer', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || id === '')).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.summary, where).toBeTruthy();
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      for (const tag of operation.tags ?? [])
        expect(
          document.tags.map((t) => t.name),
          where,
        ).toContain(tag);
      const statuses = Object.keys(operation.responses ?? {});
      expect(statuses.length, where).toBeGreaterThan(0);
      expect(
        statuses.some((s) => /^[23]\d\d$/.test(s)),
        `${where}: no success answer`,
      ).toBe(true);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        expect(status, where).toMatch(/^[1-5]\d\d$/);
        expect(response.description, `${where} ${status}`).toBeTruthy();
        expect(response.description, `${where} ${status}`).not.toBe('Default Response');
      }
    }
  });

  it('declares each path parameter, and refers only to components and security schemes it has', () => {
    for (const { method, path, operation } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (operation.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect(declared, `${method.toUpperCase()} ${path}`).toEqual(inPath);
      for (const requirement of operation.security ?? [])
        for (const scheme of Object.keys(requirement))
          expect(Object.keys(document.components.securitySchemes)).toContain(scheme);
    }
    const all = refs(document);
    expect(all.length).toBeGreaterThan(0);
    for (const { ref, at } of all) {
      expect(ref, at).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.slice('#/components/schemas/'.length)], `${at}: ${ref}`).toBeDefined();
    }
    // Every component is used (the document carries no leftovers of the schema registry).
    const used = new Set(all.map(({ ref }) => ref.slice('#/components/schemas/'.length)));
    expect(Object.keys(document.components.schemas).filter((id) => !used.has(id))).toEqual([]);
  });

  it('asks writes made from pages for the crumb, and not the webhook that authenticates by signature', () => {
    const find = (method: string, path: string) => document.paths[path]?.[method];
    expect(find('post', '/api/commerce/checkout/orders')?.security).toEqual([{ crumb: [] }]);
    expect(find('post', '/cart/add')?.security).toEqual([{ crumb: [] }, {}]);
    expect(find('post', '/api/commerce/payments/stripe/webhook')?.security).toEqual([]);
    expect(find('get', '/api/commerce/shopping-cart')?.security).toEqual([]);
    // The error answers carry the one error body.
    expect(find('post', '/api/commerce/shopping-cart/entries')?.responses?.['409']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
    });
    // Outside /api/ a browser gets the error as a page.
    expect(Object.keys(find('post', '/cart/update')?.responses?.['403']?.content ?? {})).toEqual([
      'application/json',
      'text/html',
    ]);
  });
});

describe('a route without a description', () => {
  it('stops the document from being made, naming the route', async () => {
    const app = Fastify();
    describeWithoutValidating(app);
    await registerApiDescription(app);
    app.get('/described', { schema: describeRoute({ operationId: 'x', summary: 'X', tags: ['t'] }) }, async () => ({}));
    app.post('/api/forgotten', async () => ({}));
    await app.ready();
    expect(() => app.swagger()).toThrow('POST /api/forgotten has no description');
    await app.close();
  });

  it('is still validated by its handler alone: a schema describes, it does not refuse', async () => {
    const app = Fastify();
    describeWithoutValidating(app);
    const body = z.object({ itemId: z.string() });
    app.post('/api/x', { schema: describeRoute({ operationId: 'x', summary: 'X', tags: ['t'], body }) }, (request) => ({
      got: request.body,
    }));
    const response = await app.inject({ method: 'POST', url: '/api/x', payload: { itemId: 42 } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ got: { itemId: 42 } });
    await app.close();
  });
});
