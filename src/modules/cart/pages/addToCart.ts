/**
 * `POST /cart/add`: the add-to-cart form of every add button, posted without JavaScript (or before the page's scripts
 * ran). It adds through the cart's own service and rules (../addToCartForm.ts) and answers as a page would:
 *
 * - added → 303 back to the page it came from (its Referer on this site, else the product page), which then shows
 *   '{productName} was added to your cart.' once (../cartNoticeRoutes.tsx); the express button → 303 to checkout;
 * - a §5 refusal → 303 back with the alert's title and text; options still to choose from a card without selectors →
 *   303 to the product page, which names them;
 * - a gift card or a subscription → 303 to its own checkout (§4);
 * - a product with a custom form → its form as a page (./productForm.tsx: 200; refused answers 400 with each
 *   field's message), whose post adds with the answers;
 * - bad input → 400, an unknown product → 404 (an HTML page saying what was wrong); a post neither carrying the crumb
 *   nor sent by this site's own page (Sec-Fetch-Site / Origin) → 403 (§8).
 *
 * Rate-limited as the cart API is (each cart route's budget, and a share of the client's).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CART_NOTICE_ID } from '../../../core/cartNotice';
import { ROUTES } from '../../../core/purchaseRoute';
import { describeRoute, formBody, htmlAnswer, redirectAnswer } from '../../../platform/http/apiDescription';
import { secureCookiesFor, type AppContext } from '../../../platform/http/appContext';
import { ApiError } from '../../../platform/http/errors';
import { writeRouteConfig } from '../../../platform/http/rateLimits';
import { parseInput } from '../../../platform/http/validation';
import type { VisitorPages } from '../../../render/visitorPageKind';
import { ADD_FORM_FIELDS, ADD_TO_CART_FORM_PATH, OPTION_FIELD_PREFIX } from '../../../ui/addToCartForm';
import { readFormInputs } from '../../../ui/FormFields';
import { productPath } from '../../../ui/ProductCard';
import { getCollection } from '../../catalog';
import { siteOf, type Product, type Site } from '../../site';
import { addFromForm, type AddFromFormOutcome } from '../addToCartForm';
import { refusalNotice, setCartNotice } from '../cartNoticeRoutes';
import { cartToken } from '../cookies';
import { setCartCookies } from '../routes';
import type { productForm, ProductFormData } from './productForm';

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once, as text') })
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');

/** What the form posts besides the options, the answers and the crumb (src/ui/addToCartForm.ts). */
const addFormBody = z.looseObject(
  {
    [ADD_FORM_FIELDS.itemId]: text(200).optional(),
    [ADD_FORM_FIELDS.sku]: text(200).optional(),
    [ADD_FORM_FIELDS.quantity]: text(100).optional(),
    [ADD_FORM_FIELDS.subscriptionOptionId]: text(200).optional(),
    [ADD_FORM_FIELDS.express]: text(10).optional(),
    [ADD_FORM_FIELDS.pending]: text(4000).optional(),
  },
  { error: 'must be a form (application/x-www-form-urlencoded)' },
);

/** The product-form page's hidden add: written by this server, but it came back through the browser. */
const pendingAdd = z.object({
  itemId: z.string().min(1).max(200),
  sku: z.string().min(1).max(200),
  quantity: z.string().max(100).optional(),
  subscriptionOptionId: z.string().max(200).nullable().optional(),
  express: z.boolean().optional(),
  backTo: z.string().max(2000).optional(),
});

const PENDING_DAMAGED = "The form's hidden details are damaged. Please go back to the product and add it again.";

/** Where a page may send the shopper back: a path of this site that is a page (not the API, files or checkout). */
export function returnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000 || !/^\/(?![/\\])[^\s\\]*$/.test(value)) return null;
  const path = value.split(/[?#]/)[0] ?? '';
  if (/^\/(api|client|assets|checkout|commerce)(\/|$)/.test(path) || path === ADD_TO_CART_FORM_PATH) return null;
  return value.split('#')[0] ?? null;
}

/** The Referer's path and query when it is a page of this site (same host), else null. */
function refererPath(request: FastifyRequest): string | null {
  const referer = request.headers.referer;
  if (typeof referer !== 'string') return null;
  try {
    const url = new URL(referer);
    if (url.host.toLowerCase() !== (request.headers.host ?? '').toLowerCase()) return null;
    return returnPath(url.pathname + url.search);
  } catch {
    return null;
  }
}

export function addToCartAction(
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
  formPage: ReturnType<typeof productForm>,
): (scope: FastifyInstance, pages: VisitorPages) => void {
  const productPagePath = async (site: Site, product: Product): Promise<string> => {
    const collection = await getCollection(ctx.db, site.id, product.collectionId);
    return collection ? productPath(collection.slug, product.slug) : '/';
  };

  const seeOther = (reply: FastifyReply, location: string) =>
    reply.header('cache-control', 'no-store').redirect(location, 303);

  /** The product form page's data: where it goes back to, and what the shopper typed (to fill the fields in again). */
  const formData = async (
    site: Site,
    outcome: Extract<AddFromFormOutcome, { kind: 'form' }>,
    from: { backTo: string | null; posted: Record<string, unknown> | null },
  ): Promise<ProductFormData> => {
    const productHref = await productPagePath(site, outcome.product);
    // What the shopper typed, to fill the fields in again (React escapes it); the add's own fields left out.
    const posted: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(from.posted ?? {})) {
      if (name === ADD_FORM_FIELDS.pending) continue;
      posted[name] = (Array.isArray(value) ? value : [value])
        .filter((v): v is string => typeof v === 'string')
        .slice(0, 100);
    }
    const refused = from.posted !== null && Object.keys(outcome.errors).length > 0;
    return { outcome, productHref, backTo: from.backTo ?? productHref, posted, refused };
  };

  return (scope, pages) => {
    // The add forms sit on shared, cached pages (one copy for every visitor, compressed once): they carry no
    // per-visitor crumb, so the browser's Sec-Fetch-Site / Origin says the post is this site's own (src/platform/http/crumb.ts).
    scope.post(
      ADD_TO_CART_FORM_PATH,
      {
        config: { ...writeRouteConfig(options.rateLimitPerMinute), crumb: 'crumb-or-same-origin' },
        schema: addFormRoute,
      },
      async (request, reply) => {
        const body = parseInput(addFormBody, request.body ?? {}, 'body');
        const site = await siteOf(request);
        const values = (name: string): string[] => {
          const value = (body as Record<string, unknown>)[name];
          return Array.isArray(value)
            ? value.filter((v): v is string => typeof v === 'string')
            : typeof value === 'string'
              ? [value]
              : [];
        };

        let pending: z.output<typeof pendingAdd> | null = null;
        const pendingText = body[ADD_FORM_FIELDS.pending];
        if (pendingText !== undefined) {
          try {
            pending = pendingAdd.parse(JSON.parse(pendingText));
          } catch {
            throw new ApiError('invalid-input', PENDING_DAMAGED, { field: ADD_FORM_FIELDS.pending });
          }
        }
        const itemId = pending?.itemId ?? body[ADD_FORM_FIELDS.itemId];
        if (itemId === undefined || itemId === '')
          throw new ApiError('invalid-input', 'itemId is required: the form names no product.', {
            field: ADD_FORM_FIELDS.itemId,
          });

        // The options a detail page's selects posted (`option.Size`); none from a grid card.
        const optionNames = Object.keys(body).filter((name) => name.startsWith(OPTION_FIELD_PREFIX));
        const attributes =
          optionNames.length === 0
            ? null
            : Object.fromEntries(
                optionNames.map((name) => [name.slice(OPTION_FIELD_PREFIX.length), values(name)[0] ?? '']),
              );
        const sku = pending?.sku ?? (body[ADD_FORM_FIELDS.sku] || null);

        const outcome = await addFromForm(ctx.db, { id: site.id, currency: site.currency }, cartToken(request), {
          itemId,
          sku,
          attributes: pending ? null : attributes,
          quantity: pending ? pending.quantity : body[ADD_FORM_FIELDS.quantity],
          subscriptionOptionId:
            (pending ? pending.subscriptionOptionId : body[ADD_FORM_FIELDS.subscriptionOptionId]) || null,
          express: pending ? pending.express === true : body[ADD_FORM_FIELDS.express] !== undefined,
          ...(pending ? { answers: (form) => readFormInputs(form.fields, values) } : {}),
        });
        return answer(request, reply, site, outcome, {
          backTo: returnPath(pending?.backTo) ?? refererPath(request),
          posted: pending ? body : null,
        });
      },
    );

    async function answer(
      request: FastifyRequest,
      reply: FastifyReply,
      site: Site,
      outcome: AddFromFormOutcome,
      from: { backTo: string | null; posted: Record<string, unknown> | null },
    ) {
      switch (outcome.kind) {
        case 'not-found':
          throw new ApiError('product-not-found', 'Sorry, that item is no longer available.', {
            field: ADD_FORM_FIELDS.itemId,
          });
        case 'checkout':
          return seeOther(reply, outcome.url);
        case 'added': {
          setCartCookies(reply, outcome.token, secureCookiesFor(ctx, request));
          if (outcome.express) return seeOther(reply, ROUTES.gotoCheckout);
          setCartNotice(reply, ctx, request, { kind: 'added', itemId: outcome.product.id });
          return seeOther(reply, `${from.backTo ?? (await productPagePath(site, outcome.product))}#${CART_NOTICE_ID}`);
        }
        case 'refused': {
          setCartNotice(reply, ctx, request, refusalNotice(outcome.product, outcome.error));
          const back = outcome.choose ? null : from.backTo;
          return seeOther(reply, `${back ?? (await productPagePath(site, outcome.product))}#${CART_NOTICE_ID}`);
        }
        case 'form':
          return pages.send(formPage, { request, reply, site }, await formData(site, outcome, from));
      }
    }
  };
}

// ---------------------------------------------------------------- the routes described (docs/openapi.json)

const addFormRoute = describeRoute({
  operationId: 'addToCartForm',
  summary: 'Add to cart without JavaScript (form post)',
  description:
    'The add buttons’ form: `itemId`, `sku`, the selects as `option.{name}`, `quantity`, `subscriptionOptionId`, `express`, a product form’s answers and `vitrine.add`. Answered as pages are; see docs/api.md for each outcome.',
  tags: ['cart'],
  body: formBody(addFormBody),
  response: {
    200: htmlAnswer('A product with a custom form: the form as a page.'),
    303: redirectAnswer(
      'Added, or refused with a notice: back to the page (#cart-notice); Buy Now: /commerce/goto-checkout; a gift card: its checkout; a subscription: /checkout/subscribe.',
    ),
    400: htmlAnswer('A field missing, given twice or too long; the custom form again with its messages.'),
    404: htmlAnswer("'Sorry, that item is no longer available.'"),
  },
});
