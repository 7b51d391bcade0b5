/**
 * What the products' pages and calls take and answer (issue 26, /admin/products): 'products.read' looks,
 * 'products.edit' (admin, store manager, website manager) creates, changes, duplicates and deletes.
 */
import { z } from 'zod';
import { PUBLICATION_STATUSES } from '../../core/publishing';
import {
  component,
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const productsQuery = z.object({
  q: z.string().max(200, 'must be at most 200 characters').default(''),
  collection: z.string().max(64).default(''),
  stock: z
    .enum(['all', 'in-stock', 'low', 'sold-out'], { error: "must be 'all', 'in-stock', 'low' or 'sold-out'" })
    .default('all'),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  done: z.string().max(300).optional(),
});

export const productParams = z.object({ id: z.string().min(1).max(64) });

const minor = z
  .number({ error: 'must be a whole number of minor units (cents)' })
  .int('must be a whole number of minor units (cents)')
  .min(0, 'must not be negative');

export const productInput = z
  .object({
    name: z.string({ error: 'must be the product’s name' }).max(200),
    slug: z.string().max(64).optional().describe('Empty or absent: made from the name.'),
    description: z.string().max(20_000).default(''),
    collectionId: z.string({ error: 'must be a products collection’s id' }).max(64),
    productType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).default(1),
    options: z
      .array(z.object({ name: z.string().max(60), values: z.array(z.string().max(100)).max(100) }))
      .max(6)
      .default([]),
    variants: z
      .array(
        z.object({
          sku: z.string().max(64),
          attributes: z.record(z.string(), z.string().max(100)).default({}),
          price: minor,
          salePrice: minor.optional(),
          stock: z
            .union([z.number().int().min(0).max(1_000_000_000), z.literal('unlimited')])
            .optional()
            .describe(
              "A new variant's stock (default 0); a stored variant keeps its live stock (/api/admin/inventory).",
            ),
          originalSku: z
            .string()
            .max(64)
            .optional()
            .describe('A stored variant renamed: its SKU before (its stock moves).'),
          weight: z
            .number({ error: 'must be a number (the weight in the store’s unit)' })
            .nullable()
            .optional()
            .describe(
              'In the store’s weight unit (website.store.weightUnit, kg when absent), at most 3 decimals; null: none; absent: kept.',
            ),
        }),
      )
      .min(1, 'must have at least 1 item')
      .max(500),
    images: z
      .array(
        z.object({
          file: z.string().max(300),
          altText: z.string().max(250).default(''),
          focalPoint: z
            .object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) })
            .optional()
            .describe('Where to crop around, each 0–1 (0.5, 0.5: the middle); absent: kept.'),
          attributes: z
            .record(z.string().max(60), z.string().max(100))
            .nullable()
            .optional()
            .describe(
              'The option values it pictures ({ "Color": "Slate" }: the main image when the shopper chooses them); null or {}: none; absent: kept.',
            ),
        }),
      )
      .max(100)
      .optional()
      .describe('In order; each an image of the site (upload with POST /api/admin/media). Absent: kept as they are.'),
    additionalFieldsFormId: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .describe('The product form: a form of the site the shopper fills in before adding; null: none; absent: kept.'),
    subscription: z
      .object({
        billingPeriod: z.object({ value: z.number().int().min(1).max(52), unit: z.enum(['WEEK', 'MONTH', 'YEAR']) }),
        numBillingCycles: z.number().int().min(0).max(1000).default(0).describe('0: until cancelled.'),
        options: z
          .array(
            z.object({
              id: z.string().max(64),
              price: minor,
              salePrice: minor.optional().describe('Puts the option on sale.'),
              additionalFieldsFormId: z.string().max(64).optional(),
              customAddButtonText: z.string().max(60).optional(),
            }),
          )
          .max(20)
          .default([]),
      })
      .nullable()
      .optional()
      .describe('The subscription plan (not for gift cards); null: not a subscription; absent: kept.'),
    merchandising: z
      .object({
        scarcity: z
          .object({
            enabled: z.boolean(),
            text: z.string().max(200).default('').describe("With {qty}; '': 'Only {qty} left in stock'."),
            threshold: z.number().int().min(1).max(1000).describe('Shown at this many units or fewer.'),
            shownByDefault: z.boolean().optional(),
          })
          .optional(),
        customSoldOutText: z.string().max(60).nullable().optional(),
        restockNotifications: z
          .object({
            enabled: z.boolean(),
            message: z.string().max(500).nullable().optional(),
            successMessage: z.string().max(500).nullable().optional(),
            mailingListSignUpEnabled: z.boolean().default(false),
            mailingListOptInByDefault: z.boolean().default(false),
            hiddenByDefault: z.boolean().default(false),
          })
          .optional(),
      })
      .optional()
      .describe('Scarcity text, sold-out text, restock sign-up; each part absent: kept.'),
    relatedProductIds: z
      .array(z.string().max(64))
      .max(100)
      .nullable()
      .optional()
      .describe('Products of the site (at most 8), in order; null: the next ones of its collection; []: none.'),
    addOnProductIds: z
      .array(z.string().max(64))
      .max(100)
      .nullable()
      .optional()
      .describe('Products of the site (at most 6), in order; null or []: none.'),
    tags: z.array(z.string().max(60)).max(200).optional(),
    seo: z
      .object({ title: z.string().max(1000).optional(), description: z.string().max(2000).optional() })
      .nullable()
      .optional()
      .describe(
        'Title (≤ 70) and meta description (≤ 320) of its page; each empty or absent: its name, its description.',
      ),
    status: z
      .enum(PUBLICATION_STATUSES, { error: `must be one of ${PUBLICATION_STATUSES.map((s) => `'${s}'`).join(', ')}` })
      .optional()
      .describe(
        "The editor status (spec §4): 'published', 'draft', 'needs-review' (neither on the store), 'scheduled' (with publishAt). Absent: kept (a new product: published).",
      ),
    publishAt: z
      .string()
      .max(40)
      .optional()
      .describe(
        "With status 'scheduled': when it goes live, in the future — in the site's time zone (2026-06-01T10:00) or with its offset.",
      ),
  })
  .describe('A product as the editor gives it: prices in minor units; what it leaves out is kept, null removes it.');

export const createProductBody = z.object({ product: productInput });
export const updateProductBody = z.object({
  baseVersion: z
    .number({ error: 'must be the site version the product was read from' })
    .int()
    .min(1)
    .describe('The site version the product was read from (GET answers it): a save of it since is refused.'),
  product: productInput,
});
export const deleteQuery = z.object({ baseVersion: z.coerce.number().int().min(1).optional() });

export const deleteFormBody = z.object({
  confirm: z.literal('yes').optional(),
  baseVersion: z.string().max(12).optional(),
});

const productListItem = component(
  'AdminProductListItem',
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    collectionId: z.string(),
    collection: z.string(),
    productType: z.number().int(),
    variants: z.number().int(),
    price: z.object({ min: z.number().int(), max: z.number().int() }),
    stock: z.number().int().nullable().describe('Units over its counted variants; null when every one is unlimited.'),
    soldOut: z.boolean(),
    low: z.boolean(),
    image: z.string().nullable(),
    status: z
      .enum(PUBLICATION_STATUSES)
      .describe('Its editor status now (a scheduled product whose time has come is published).'),
  }),
  'A product as a row of the list.',
);

const productAnswer = z.object({
  product: z.record(z.string(), z.unknown()).describe('The product as the site file has it, with live stock.'),
  version: z.number().int().describe('The site version (an update’s baseVersion).'),
});

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: a role without products.read (products.edit to change).'),
};
const saveRefusals = {
  400: errorAnswer(
    "invalid-input: `fields` names each wrong field ('name', 'slug', 'variants.0.price', 'variants.0.weight', 'images.0.attributes', 'subscription.options.0.id', 'merchandising.scarcity.text', 'relatedProductIds.1', 'tags.2', 'seo.title' …; 'This slug already exists', 'This SKU already exists', 'This tag already exists').",
  ),
  ...refusals,
  409: errorAnswer(
    'site-edit-stale: someone saved this product since `baseVersion` (`changes` says what, the message by whom); site-edit-refused: a page shows it, it was deleted…',
  ),
  413: errorAnswer(
    "payload-too-large: 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.'",
  ),
};

export const listProductsRoute = describeRoute({
  operationId: 'listAdminProducts',
  summary: 'The products (search by name or SKU, a collection, a stock state; 50 a page)',
  tags: ['admin'],
  querystring: productsQuery,
  response: {
    200: jsonAnswer(
      'A page of products.',
      z.object({
        products: z.array(productListItem),
        total: z.number().int(),
        offset: z.number().int(),
        version: z.number().int(),
      }),
    ),
    400: errorAnswer('invalid-input: a wrong stock state or offset.'),
    ...refusals,
  },
});

export const getProductRoute = describeRoute({
  operationId: 'getAdminProduct',
  summary: 'A product as the site file has it, with live stock, and the site version',
  tags: ['admin'],
  params: productParams,
  response: { 200: jsonAnswer('The product.', productAnswer), ...refusals, 404: errorAnswer('product-not-found') },
});

export const createProductRoute = describeRoute({
  operationId: 'createAdminProduct',
  summary: 'Create a product (a new site version)',
  tags: ['admin'],
  body: createProductBody,
  response: { 201: jsonAnswer('Created.', productAnswer), ...saveRefusals },
});

export const updateProductRoute = describeRoute({
  operationId: 'updateAdminProduct',
  summary: 'Change a product (a new site version); refused when someone saved it since baseVersion',
  tags: ['admin'],
  params: productParams,
  body: updateProductBody,
  response: { 200: jsonAnswer('Saved.', productAnswer), ...saveRefusals, 404: errorAnswer('product-not-found') },
});

export const duplicateProductRoute = describeRoute({
  operationId: 'duplicateAdminProduct',
  summary: "Copy a product: '{name} (copy)', its SKUs with -copy, counted variants with no stock",
  tags: ['admin'],
  params: productParams,
  response: { 201: jsonAnswer('The copy.', productAnswer), ...refusals, 404: errorAnswer('product-not-found') },
});

export const deleteProductRoute = describeRoute({
  operationId: 'deleteAdminProduct',
  summary: 'Delete a product (its orders keep their lines)',
  tags: ['admin'],
  params: productParams,
  querystring: deleteQuery,
  response: {
    200: jsonAnswer('Deleted.', z.object({ deleted: z.string(), version: z.number().int() })),
    ...refusals,
    404: errorAnswer('product-not-found'),
    409: errorAnswer('site-edit-stale, or site-edit-refused: a page’s block shows it.'),
  },
});

const pageAnswers = (permission: string) => ({
  200: htmlAnswer('The page.'),
  303: redirectAnswer('Nobody signed in: to the sign-in.'),
  403: htmlAnswer(`A role without ${permission}.`),
});

export const productsPage = pageRoute('adminProducts', 'The products: search, filters, the list', {
  tags: ['admin'],
  querystring: productsQuery,
  response: pageAnswers('products.read'),
});
export const newProductPage = pageRoute('adminNewProduct', 'The form of a new product', {
  tags: ['admin'],
  response: pageAnswers('products.edit'),
});
export const productPage = pageRoute('adminProduct', 'A product’s form (its stock read-only: the inventory edits it)', {
  tags: ['admin'],
  params: productParams,
  response: { ...pageAnswers('products.read'), 404: htmlAnswer('No such product.') },
});
export const previewProductPage = pageRoute(
  'adminProductPreview',
  'A product’s page as staff see it: a draft, one that needs review or a scheduled one too (the store answers 404 for them)',
  {
    tags: ['admin'],
    params: productParams,
    response: { ...pageAnswers('products.read'), 404: htmlAnswer('No such product.') },
  },
);
const productFormAnswers = {
  303: redirectAnswer('Saved: to the product’s form with a notice.'),
  400: htmlAnswer('Wrong fields: the form again with the owner’s input and each field’s message.'),
  403: htmlAnswer('A role without products.edit.'),
  409: htmlAnswer('Saved by someone else since: the form with what changed, by whom, and the owner’s input.'),
  413: htmlAnswer("The image is too large: 'The file {fileName} is too large…' at its field."),
  422: htmlAnswer('“Update variants”: the form with its variant grid made again (nothing saved).'),
};
export const createProductFormRoute = pageRoute(
  'adminCreateProductForm',
  'Create a product (the form, multipart/form-data: fields, and an image to add)',
  { tags: ['admin'], response: productFormAnswers },
);
export const productFormRoute = pageRoute(
  'adminProductForm',
  'Save a product (the form, multipart/form-data: fields, and an image to add)',
  { tags: ['admin'], params: productParams, response: productFormAnswers },
);
const productActionAnswers = {
  303: redirectAnswer('Done: to the copy, or to the list with a notice.'),
  403: htmlAnswer('A role without products.edit.'),
  404: htmlAnswer('No such product.'),
  409: htmlAnswer('Refused (a page shows it; saved by someone else since): the form with the message.'),
  422: htmlAnswer('Delete not confirmed.'),
};
export const duplicateProductFormRoute = pageRoute('adminDuplicateProductForm', 'Duplicate a product (the form)', {
  tags: ['admin'],
  params: productParams,
  response: productActionAnswers,
});
export const deleteProductFormRoute = pageRoute('adminDeleteProductForm', 'Delete a product (the form, confirmed)', {
  tags: ['admin'],
  params: productParams,
  body: deleteFormBody,
  response: productActionAnswers,
});
