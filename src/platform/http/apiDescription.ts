/**
 * The HTTP API described (docs/openapi.json, OpenAPI 3.1): each route carries a `schema:` option — the zod schemas
 * its handler validates with, its answers, a summary and an operationId — and `npm run openapi`
 * (scripts/openapi.ts) turns them into the document with @fastify/swagger and fastify-type-provider-zod.
 *
 * The schemas describe; they do not validate. The handlers keep calling `parseInput` (./validation) after the crumb
 * check, so the error answers (status, body, text: the spec's) stay exactly as they were. The compilers set by
 * `describeWithoutValidating` make Fastify compile nothing from a route's schema: no validation, and answers
 * serialized by JSON.stringify as before.
 */
import type { FastifyInstance, FastifySchema, HTTPMethods, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TRACKED_ERROR_TYPES } from '../../core/addToCartErrors';
import { ERROR_STATUS, type ErrorCode } from './errors';

/**
 * A schema that appears in the document once, under components.schemas[id] (zod's global registry, where
 * `.describe()` keeps its texts too).
 */
export function component<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  return schema.meta(description === undefined ? { id } : { id, description });
}

/** Every error answer's body (./errors.ts). */
export const apiErrorBody = component(
  'ApiError',
  z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string().describe('For the shopper: the texts of the spec (docs/api.md).'),
    type: z.enum(TRACKED_ERROR_TYPES).describe('The tracked error type of spec §8 (API_FAILURE unless a §5 check).'),
    field: z.string().optional().describe('The offending input.'),
    unselectedOptions: z.array(z.string()).optional().describe('NO_VARIANT_SELECTED: the options not chosen.'),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .describe("Product form answers or checkout fields: each field's message."),
    lines: z
      .array(z.object({ entryId: z.string(), sku: z.string(), message: z.string() }))
      .optional()
      .describe('Checkout: the cart lines that cannot be bought.'),
    changes: z.array(z.string()).optional().describe('A stale /admin edit: what another save changed since.'),
  }),
  'Every error answer: JSON for /api/ paths and for clients that do not accept HTML; an HTML page saying `message` otherwise.',
);

type ResponseEntry = z.ZodType | { description: string; content?: Record<string, { schema: z.ZodType }> } | object;

/** A route's description: what `schema:` of a Fastify route takes here. */
export interface RouteDescription extends FastifySchema {
  operationId: string;
  summary: string;
  tags: readonly string[];
  response?: Record<number, ResponseEntry>;
}

/** Declares a route's description (typed; nothing else). */
export const describeRoute = (description: RouteDescription): RouteDescription => description;

/** A page (HTML) of the storefront, listed briefly: its path, what it shows, and its answers other than 200. */
export const pageRoute = (
  operationId: string,
  summary: string,
  more: Omit<Partial<RouteDescription>, 'operationId' | 'summary'> = {},
): RouteDescription =>
  describeRoute({
    operationId,
    summary,
    tags: ['pages'],
    ...more,
    response: { 200: htmlAnswer('The page.'), ...more.response },
  });

/** An error answer: the ApiError body, with the codes it may carry and when. */
export const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: apiErrorBody } },
});

/** A JSON answer. */
export const jsonAnswer = (description: string, schema: z.ZodType) => ({
  description,
  content: { 'application/json': { schema } },
});

/** An HTML page. */
export const htmlAnswer = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/** An answer without a body. */
export const emptyAnswer = (description: string) => ({ description, type: 'null' });

/** A redirect (303 See Other unless said). */
export const redirectAnswer = (description: string) => ({
  description,
  type: 'null',
  headers: { location: { type: 'string', description: 'Where to go next.' } },
});

/** A form posted the way a browser posts it (application/x-www-form-urlencoded). */
export const formBody = (schema: z.ZodType) => ({ content: { 'application/x-www-form-urlencoded': { schema } } });

/**
 * Route schemas describe only: no validator and no serializer is compiled from them (the handlers validate with
 * parseInput; answers are JSON.stringify'd as without a schema). Called before any route is added.
 */
export function describeWithoutValidating(app: FastifyInstance): void {
  // A compiler that returns no function: Fastify then skips that part (validateParam, getSchemaSerializer).
  const none = (() => null) as never;
  app.setValidatorCompiler(none);
  app.setSerializerCompiler(none);
}

const STATE_CHANGING = new Set<HTTPMethods>(['POST', 'PUT', 'PATCH', 'DELETE']);

const zodTransform = createJsonSchemaTransform({});
const zodTransformObject = createJsonSchemaTransformObject({});

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;
const hasZodContent = (value: unknown): value is { content: Record<string, { schema: z.ZodType }> } =>
  typeof value === 'object' &&
  value !== null &&
  'content' in value &&
  Object.values((value as { content: Record<string, { schema?: unknown }> }).content).some((c) => isZod(c.schema));

const htmlPage = { 'text/html': { schema: z.string().describe('A page that says the message.') } };
const isErrorAnswer = (answer: unknown): answer is ReturnType<typeof errorAnswer> =>
  hasZodContent(answer) && answer.content['application/json']?.schema === apiErrorBody;

/** The answers every route of its kind may give, added where the route does not say them itself. */
function commonAnswers(route: RouteOptions): Record<string, unknown> {
  const methods = new Set([route.method].flat());
  const crumb = route.config?.crumb;
  const checked = [...methods].some((m) => STATE_CHANGING.has(m)) && crumb !== false;
  return {
    ...(checked
      ? {
          403: errorAnswer(
            crumb === 'origin-only'
              ? 'cross-site-refused: the request came from another website.'
              : 'crumb-invalid: no crumb, or another one (§8 ‘Your session has expired. Please reload the page and try again.’); cross-site-refused: the request came from another website.',
          ),
        }
      : {}),
    ...(route.config?.rateLimit
      ? { 429: errorAnswer('rate-limited: ‘Please try again in a few seconds.’, with Retry-After.') }
      : {}),
    500: errorAnswer('internal: ‘Something went wrong on our side. Please try again.’ (logged).'),
  };
}

/**
 * The transform of @fastify/swagger: the zod schemas into JSON Schema (fastify-type-provider-zod), the form bodies
 * (content maps) too, the crumb as the security of state-changing routes, and the common answers. A route without a
 * description is an error: it is described or hidden (`hide: true`), never left out silently.
 */
function transform({
  schema,
  url,
  route,
  openapiObject,
}: {
  schema: FastifySchema | undefined;
  url: string;
  route: RouteOptions;
  openapiObject: object;
}): { schema: FastifySchema; url: string } {
  const methods = [route.method].flat().filter((m) => m !== 'HEAD');
  if (!schema || (!schema.hide && !(schema as Partial<RouteDescription>).operationId)) {
    throw new Error(
      `${methods.join(', ')} ${url} has no description: give the route a schema (src/server/apiDescription.ts describeRoute), or hide it.`,
    );
  }
  if (schema.hide) return { schema: { hide: true }, url };
  const { body, response = {}, ...rest } = schema as RouteDescription;
  const plainAnswers: Record<string, unknown> = {};
  const zodAnswers: Record<string, unknown> = {};
  const isApi = url.startsWith('/api/');
  for (const [status, answer] of Object.entries({ ...commonAnswers(route), ...response })) {
    // Outside /api/, a browser (Accept: text/html) gets the error as a page that says its message (app.ts sendError).
    if (!isApi && isErrorAnswer(answer))
      zodAnswers[status] = { ...answer, content: { ...answer.content, ...htmlPage } };
    else if (isZod(answer) || hasZodContent(answer)) zodAnswers[status] = answer;
    else plainAnswers[status] = answer;
  }
  const convert = (part: FastifySchema) =>
    zodTransform({ schema: part, url, openapiObject } as Parameters<typeof zodTransform>[0]).schema;
  const converted = convert({ ...rest, response: zodAnswers });
  let requestBody: unknown;
  if (hasZodContent(body)) {
    requestBody = {
      content: Object.fromEntries(
        Object.entries(body.content).map(([type, { schema: bodySchema }]) => [
          type,
          { schema: convert({ body: bodySchema }).body },
        ]),
      ),
    };
  } else if (body !== undefined) {
    requestBody = convert({ body }).body;
  }
  const crumb = route.config?.crumb;
  const checked = methods.some((m) => STATE_CHANGING.has(m as HTTPMethods)) && crumb !== false;
  const security: Record<string, string[]>[] =
    !checked || crumb === 'origin-only' ? [] : crumb === 'crumb-or-same-origin' ? [{ crumb: [] }, {}] : [{ crumb: [] }];
  return {
    // A wildcard is a parameter like the others in the document: '/assets/:siteId/*' → '/assets/{siteId}/{path}'.
    url: url.endsWith('*') ? `${url.slice(0, -1)}{path}` : url,
    schema: {
      ...converted,
      ...(requestBody !== undefined ? { body: requestBody } : {}),
      response: { ...(converted.response as object), ...plainAnswers },
      security,
    },
  };
}

export const OPENAPI_INFO = {
  title: 'Vitrine storefront HTTP API',
  version: '1',
  description:
    'The calls of the storefront (spec §7 and ours), its form posts and its webhooks; the pages (HTML) are listed briefly. The site is chosen by the Host header. Money is an integer in minor units. The texts, codes and rules are in docs/api.md.',
};

/** Registers @fastify/swagger (the document is made by `app.swagger()` once the app is ready). Before any route. */
export async function registerApiDescription(app: FastifyInstance): Promise<void> {
  const { default: fastifySwagger } = await import('@fastify/swagger');
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      tags: [
        { name: 'cart', description: 'The cart (spec §7), its stock call and its forms without JavaScript.' },
        { name: 'checkout', description: 'The checkout calls, its form, the gift-card checkout.' },
        { name: 'subscriptions', description: 'Subscription carts, their checkout and cancel links.' },
        { name: 'restock', description: 'Back-in-stock sign-ups.' },
        { name: 'account', description: 'Site users: sign-in and the account area.' },
        { name: 'forms', description: 'Form blocks: keys, submissions, the template, ALTCHA, the newsletter.' },
        { name: 'analytics', description: 'Census, commerce events, client errors, web vitals.' },
        { name: 'content', description: 'The site’s configuration and blog likes.' },
        { name: 'webhooks', description: 'Called by payment services, authenticated by signature.' },
        { name: 'pages', description: 'HTML pages, listed briefly (their content is the site file’s).' },
        {
          name: 'admin',
          description:
            'The owner’s area: its pages and calls, each for a signed-in staff member whose role allows it (src/core/staffAccess.ts).',
        },
      ],
      components: {
        securitySchemes: {
          crumb: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description:
              "The CSRF crumb (docs/api.md 'The crumb'): the value of the `crumb` cookie every HTML answer gives, sent back in this header — or, for a form posted without JavaScript, in its hidden `crumb` field. Where it is optional, a same-origin browser request (Sec-Fetch-Site: same-origin, or an Origin naming this host) is taken instead.",
          },
        },
      },
    },
    transform: transform as never,
    transformObject: zodTransformObject,
  });
}

// ---------------------------------------------------------------- the document

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys sorted at every level (arrays keep their order): the same routes give the same text. */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((key) => !isSafeIntegerBound(key, value[key]))
      .sort()
      .map((key) => [key, sortKeys(value[key]!)]),
  );
}

/** zod writes the safe-integer range into every z.number().int(): it says nothing a reader needs. */
const isSafeIntegerBound = (key: string, value: Json | undefined) =>
  (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER);

/** Drops components nothing refers to (the zod transform adds an input and an output copy of each). */
function dropUnreferenced(document: { [key: string]: Json }): void {
  const schemas = (document.components as { schemas?: Record<string, Json> } | undefined)?.schemas;
  if (!schemas) return;
  const referenced = new Set<string>();
  const visit = (value: Json): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const id = child.slice('#/components/schemas/'.length);
        if (!referenced.has(id)) {
          referenced.add(id);
          if (schemas[id] !== undefined) visit(schemas[id]);
        }
      } else visit(child);
    }
  };
  const { components, ...rest } = document;
  visit(rest as Json);
  for (const id of Object.keys(schemas)) if (!referenced.has(id)) delete schemas[id];
  void components;
}

/** The document of a built app (buildApp with `describeApi: true`), as the text of docs/openapi.json. */
export async function openApiText(app: FastifyInstance): Promise<string> {
  await app.ready();
  const document = JSON.parse(JSON.stringify(app.swagger())) as { [key: string]: Json };
  dropUnreferenced(document);
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
