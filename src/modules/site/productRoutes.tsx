/**
 * The products at /admin (issue 26), through the admin module's helpers: 'products.read' looks, 'products.edit'
 * (admin, store manager, website manager) changes.
 *
 * - GET /admin/products[?q&collection&stock&offset] → the list; GET /api/admin/products → JSON
 * - GET /admin/products/new → the form; POST /admin/products (multipart: the fields, an image to add) → 303 to the
 *   product, or the form again with the owner's input and each field's message; POST /api/admin/products (JSON)
 * - GET /admin/products/:id → the form; GET /admin/products/:id/preview → its page as staff see it (a draft too);
 *   POST /admin/products/:id → save (a save of it since the form was made: refused, with what
 *   changed, by whom); GET/PUT /api/admin/products/:id
 * - POST /admin/products/:id/duplicate, /delete (confirmed) → 303; POST /api/admin/products/:id/duplicate,
 *   DELETE /api/admin/products/:id
 *
 * Each save is a site version (./productAdmin.ts) with its audit entry. The form's Status fieldset and the JSON
 * calls' `status` and `publishAt` set the product's editor status (spec §4; ./statusForm.ts): a draft is previewed by
 * staff at GET /admin/products/:id/preview while the store answers 404 for it.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatStoredMoney } from '../../core/money';
import { shownStatus, type Publication, type PublicationStatus } from '../../core/publishing';
import { formatFileSize } from '../../core/media';
import { imageUrl } from '../../core/images';
import type { CurrencyCode } from '../../core/currency';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError, type ErrorCode } from '../../platform/http/errors';
import { registerUploadParsers } from '../../platform/http/uploads';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { ConfirmDelete } from '../../ui/admin/ConfirmDelete';
import {
  PRODUCTS_PATH,
  ProductFilters,
  ProductForm,
  ProductsTable,
  SaveButton,
  type ProductRow,
} from '../../ui/admin/Products';
import { assetUrl } from '../../ui/ResponsiveImage';
import { currentStaff, requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import { fileTooLargeFor, maxUploadBytes } from './media';
import {
  deleteStoredProduct,
  duplicateStoredProduct,
  filterProducts,
  PRODUCTS_PAGE_SIZE,
  readCatalog,
  readFormChoices,
  saveProduct,
  storedPublication,
  type ProductFailure,
} from './productAdmin';
import {
  formOfProduct,
  gridMatches,
  inputOfForm,
  layoutMatches,
  newProductForm,
  readProductForm,
  regridForm,
  relayoutForm,
  type FormContext,
  type ProductFormState,
} from './productForm';
import {
  createProductBody,
  createProductRoute,
  deleteFormBody,
  deleteProductRoute,
  deleteQuery,
  duplicateProductRoute,
  getProductRoute,
  listProductsRoute,
  newProductPage,
  createProductFormRoute,
  deleteProductFormRoute,
  duplicateProductFormRoute,
  productFormRoute,
  productPage,
  productParams,
  previewProductPage,
  productsPage,
  productsQuery,
  updateProductBody,
  updateProductRoute,
} from './productRoutes.schema';
import type { PageRenderer } from '../../render/renderPath';
import { siteOf } from './requestSite';
import { readStatusChange, statusFieldsOf, whereItIs } from './statusForm';
import { weightUnitOf } from '../../core/weight';
import type { Site } from './sites';

const looking = { section: PRODUCTS_PATH, permission: 'products.read' } as const;
const editing = { section: PRODUCTS_PATH, permission: 'products.edit' } as const;

const FAILURE_CODES: Readonly<Record<ProductFailure['type'], ErrorCode>> = {
  FIELDS: 'invalid-input',
  INVALID: 'invalid-input',
  NO_FILE_NAME: 'invalid-input',
  EMPTY: 'invalid-input',
  TOO_LARGE: 'payload-too-large',
  NOT_AN_IMAGE: 'unsupported-media-type',
  NOT_FOUND: 'product-not-found',
  STALE: 'site-edit-stale',
  REFUSED: 'site-edit-refused',
  DOMAIN_TAKEN: 'site-edit-refused',
  FORBIDDEN: 'role-not-allowed',
};
const statusOf = (failure: ProductFailure): number => new ApiError(FAILURE_CODES[failure.type], '').statusCode;

function apiFailure(failure: ProductFailure): ApiError {
  const code = FAILURE_CODES[failure.type];
  if (failure.type === 'FIELDS') {
    const field = Object.keys(failure.fields)[0];
    return new ApiError(code, failure.message, { fields: failure.fields, ...(field ? { field } : {}) });
  }
  if (failure.type === 'STALE') return new ApiError(code, failure.message, { changes: failure.changes });
  return new ApiError(code, failure.message);
}

/**
 * A JSON call's product with its status read (the publish time in the site's time zone or with its offset, only with
 * 'scheduled', after now): a 400 naming the field when wrong.
 */
function withStatus<T extends { status?: PublicationStatus | undefined; publishAt?: string | undefined }>(
  product: T,
  timeZone: string,
  stored?: Publication,
): T {
  const { status: typed, publishAt, ...rest } = product;
  if (publishAt !== undefined && typed !== 'scheduled')
    throw new ApiError('invalid-input', "product.publishAt is only for status 'scheduled'", {
      field: 'product.publishAt',
    });
  if (typed === undefined) return product;
  const status = readStatusChange(typed, publishAt, timeZone, Date.now(), stored);
  if (!status.ok)
    throw new ApiError('invalid-input', `product.${status.error.field}: ${status.error.message}`, {
      field: `product.${status.error.field}`,
    });
  return { ...rest, ...status.value } as T;
}

const productPath = (id: string) => `${PRODUCTS_PATH}/${encodeURIComponent(id)}`;
const currencyOf = (site: Site) => site.currency as CurrencyCode;

export function registerProductAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pages: AdminPages,
  renderer: PageRenderer,
): void {
  const listView = async (visit: AdminVisit, request: FastifyRequest): Promise<AdminView> => {
    const parsed = productsQuery.safeParse(request.query);
    const query = parsed.success ? parsed.data : productsQuery.parse({});
    const catalog = await readCatalog(ctx.db, visit.site.id);
    const page = catalog
      ? filterProducts(catalog, { ...query, lowThreshold: visit.site.settings.store.lowStockThreshold })
      : { items: [], total: 0 };
    const currency = visit.site.currency;
    const rows: ProductRow[] = page.items.map((p) => ({
      id: p.id,
      name: p.name,
      status: p.status,
      collection: p.collection,
      price:
        p.price.min === p.price.max
          ? formatStoredMoney(currency, p.price.min)
          : `${formatStoredMoney(currency, p.price.min)} – ${formatStoredMoney(currency, p.price.max)}`,
      variants: p.variants,
      stock: p.stock,
      soldOut: p.soldOut,
      low: p.low,
      thumbnail: p.image ? imageUrl(assetUrl(visit.site.id, p.image, catalog?.version), 100) : null,
    }));
    const link = (offset: number) => {
      const params = new URLSearchParams();
      if (query.q) params.set('q', query.q);
      if (query.collection) params.set('collection', query.collection);
      if (query.stock !== 'all') params.set('stock', query.stock);
      if (offset > 0) params.set('offset', String(offset));
      const s = params.toString();
      return s ? `${PRODUCTS_PATH}?${s}` : PRODUCTS_PATH;
    };
    return {
      title: 'Products',
      status: parsed.success ? 200 : 400,
      body: (
        <>
          <AdminTitle title="Products">
            {visit.staff.can('products.edit') ? (
              <a className="admin-button" href={`${PRODUCTS_PATH}/new`}>
                Add product
              </a>
            ) : null}
          </AdminTitle>
          {!parsed.success ? (
            <AdminNotice kind="error">The filters were not understood: all products are shown.</AdminNotice>
          ) : null}
          {query.done ? <AdminNotice kind="done">{query.done}</AdminNotice> : null}
          <ProductFilters
            q={query.q}
            collection={query.collection}
            stock={query.stock}
            collections={catalog?.collections ?? []}
          />
          <p className="admin-muted">
            {page.total === 0
              ? 'No products.'
              : `Products ${Math.min(query.offset + 1, page.total)}–${Math.min(query.offset + page.items.length, page.total)} of ${page.total}.`}
          </p>
          <ProductsTable rows={rows} />
          <nav className="admin-pager" aria-label="Pages">
            {query.offset > 0 ? <a href={link(Math.max(0, query.offset - PRODUCTS_PAGE_SIZE))}>Previous</a> : null}
            {query.offset + PRODUCTS_PAGE_SIZE < page.total ? (
              <a href={link(query.offset + PRODUCTS_PAGE_SIZE)}>Next</a>
            ) : null}
          </nav>
        </>
      ),
    };
  };

  /** The form page: a new product (id undefined) or product `id`, with the owner's input and what was refused. */
  const formView = async (
    visit: AdminVisit,
    id: string | undefined,
    state: ProductFormState | undefined,
    outcome: {
      status?: number;
      notice?: { kind: 'done' | 'error'; text: string };
      changes?: readonly string[];
      errors?: Record<string, string>;
    } = {},
  ): Promise<AdminView> => {
    const catalog = await readCatalog(ctx.db, visit.site.id);
    const product = id === undefined ? undefined : catalog?.products.find((p) => p.id === id);
    if (id !== undefined && !product && !state)
      return {
        title: 'No such product',
        status: 404,
        body: (
          <>
            <AdminTitle title="No such product" />
            <AdminNotice kind="error">{`This site has no product '${id.slice(0, 64)}'.`}</AdminNotice>
            <p>
              <a href={PRODUCTS_PATH}>Back to the products</a>
            </p>
          </>
        ),
      };
    const collections = catalog?.collections ?? [];
    const values =
      state ??
      (product
        ? formOfProduct(product, catalog?.version ?? 0, currencyOf(visit.site))
        : newProductForm(catalog?.version ?? 0, collections[0]?.id ?? ''));
    const canEdit = visit.staff.can('products.edit');
    const title = product ? product.name : 'New product';
    const typedStatus = state?.status ? { status: state.status, publishAt: state.publishAt ?? '' } : undefined;
    const statusFields = statusFieldsOf(
      product ?? null,
      visit.staff.role,
      'product',
      visit.site.settings.timeZone,
      Date.now(),
      typedStatus,
    );
    const version = catalog?.version;
    return {
      title,
      status: outcome.status ?? 200,
      body: (
        <>
          <p>
            <a href={PRODUCTS_PATH}>Products</a>
          </p>
          <AdminTitle title={title}>
            {canEdit ? <SaveButton label={product ? 'Save' : 'Create product'} /> : null}
            {product ? (
              <>
                <a className="admin-button admin-button-quiet" href={`${productPath(product.id)}/preview`}>
                  Preview
                </a>
                <a
                  className="admin-button admin-button-quiet"
                  href={`/${collections.find((c) => c.id === product.collectionId)?.slug ?? ''}/p/${product.slug}`}
                >
                  View in store
                </a>
              </>
            ) : null}
          </AdminTitle>
          {outcome.notice ? <AdminNotice kind={outcome.notice.kind}>{outcome.notice.text}</AdminNotice> : null}
          {outcome.changes?.length ? (
            <div className="admin-card" role="region" aria-label="What changed">
              <p>What changed since you opened it:</p>
              <ul>
                {outcome.changes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {outcome.errors?.[''] ? <AdminNotice kind="error">{outcome.errors['']}</AdminNotice> : null}
          {collections.length === 0 ? (
            <AdminNotice kind="error">
              This site has no products collection: add one to the site file first.
            </AdminNotice>
          ) : null}
          <ProductForm
            action={product || id !== undefined ? productPath(id ?? '') : PRODUCTS_PATH}
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            values={{
              ...values,
              images: values.images.map((i) => ({
                ...i,
                thumbnail: imageUrl(assetUrl(visit.site.id, i.file, version), 100),
              })),
            }}
            errors={outcome.errors ?? {}}
            choices={{
              collections,
              forms: await readFormChoices(ctx.db, visit.site.id),
              products: (catalog?.products ?? []).filter((p) => p.id !== id).map((p) => ({ id: p.id, name: p.name })),
              currency: visit.site.currency,
              weightUnit: weightUnitOf(visit.site.settings.store.weightUnit),
              maxUploadText: formatFileSize(maxUploadBytes(visit.site.settings)),
            }}
            submitLabel={product ? 'Save' : 'Create product'}
            status={statusFields}
          />
          {product && canEdit ? (
            <div className="admin-grid">
              <form className="admin-form admin-card" method="post" action={`${productPath(product.id)}/duplicate`}>
                <input type="hidden" name={visit.crumbField} value={visit.crumb} />
                <h2>Duplicate</h2>
                <p className="admin-muted">A copy named “{product.name} (copy)”, its SKUs with -copy and no stock.</p>
                <p>
                  <button type="submit" className="admin-button admin-button-quiet">
                    Duplicate
                  </button>
                </p>
              </form>
              <form className="admin-form admin-card" method="post" action={`${productPath(product.id)}/delete`}>
                <input type="hidden" name={visit.crumbField} value={visit.crumb} />
                <input type="hidden" name="baseVersion" value={String(values.baseVersion)} />
                <h2>Delete</h2>
                <p className="admin-muted">Its orders keep their lines; the storefront no longer shows it.</p>
                <ConfirmDelete name={product.name} button="Delete" />
              </form>
            </div>
          ) : null}
        </>
      ),
    };
  };

  const idOf = (request: FastifyRequest): string => (request.params as { id?: string }).id ?? '';

  app.get(PRODUCTS_PATH, { schema: productsPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => listView(visit, request)),
  );
  app.get(`${PRODUCTS_PATH}/new`, { schema: newProductPage }, (request, reply) =>
    pages.answer(request, reply, editing, (visit) => formView(visit, undefined, undefined)),
  );
  app.get(`${PRODUCTS_PATH}/:id`, { schema: productPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const done = (request.query as { done?: unknown }).done;
      return formView(
        visit,
        idOf(request),
        undefined,
        typeof done === 'string' && done ? { notice: { kind: 'done', text: done.slice(0, 300) } } : {},
      );
    }),
  );

  // A product's page as staff see it (issue 26): a draft too, which the store answers 404; never cached, never indexed.
  app.get(`${PRODUCTS_PATH}/:id/preview`, { schema: previewProductPage }, async (request, reply) => {
    await requireStaff(request, 'products.read');
    const site = await siteOf(request);
    const catalog = await readCatalog(ctx.db, site.id);
    const product = catalog?.products.find((p) => p.id === idOf(request));
    const slug = catalog?.collections.find((c) => c.id === product?.collectionId)?.slug;
    const rendered = product && slug ? await renderer.renderPreview(site, `/${slug}/p/${product.slug}`) : undefined;
    if (!rendered) throw new ApiError('product-not-found', `This site has no product '${idOf(request).slice(0, 64)}'.`);
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  });

  app.get('/api/admin/products', { schema: listProductsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'products.read');
    const site = await siteOf(request);
    const query = parseInput(productsQuery, request.query, 'query');
    const catalog = await readCatalog(ctx.db, site.id);
    if (!catalog) throw new ApiError('site-not-found', `There is no site '${site.id}'.`);
    const page = filterProducts(catalog, { ...query, lowThreshold: site.settings.store.lowStockThreshold });
    return { products: page.items, total: page.total, offset: query.offset, version: catalog.version };
  });

  app.get('/api/admin/products/:id', { schema: getProductRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'products.read');
    const site = await siteOf(request);
    const { id } = parseInput(productParams, request.params, 'params');
    const catalog = await readCatalog(ctx.db, site.id);
    const product = catalog?.products.find((p) => p.id === id);
    if (!catalog || !product) throw new ApiError('product-not-found', `This site has no product '${id}'.`);
    return { product, version: catalog.version };
  });

  app.register(async (scope) => {
    registerUploadParsers(scope, async (request) => {
      const staff = await currentStaff(request);
      return staff?.can('products.edit') ? maxUploadBytes((await siteOf(request)).settings) : 0;
    });
    await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });

    /** The product form's POST: save, or make the variant grid again (nothing saved). */
    const formPost =
      (id: string | undefined) => (request: FastifyRequest, reply: Parameters<AdminPages['action']>[1]) =>
        pages.action(request, reply, editing, async (visit) => {
          const form = (request.body ?? {}) as Record<string, unknown>;
          const { state, file, intent } = readProductForm(form);
          const currency = currencyOf(visit.site);
          if (!layoutMatches(state))
            return formView(visit, id, relayoutForm(state, currency), {
              status: 422,
              notice: {
                kind: 'error',
                text:
                  state.productType === '4'
                    ? 'Not saved: a gift card sells amounts. Check its amounts below, then save again.'
                    : 'Not saved: this is no gift card now. Check its options and variants below, then save again.',
              },
            });
          if (intent === 'variants' && state.layout === 'grid')
            return formView(visit, id, regridForm(state), {
              status: 422,
              notice: { kind: 'done', text: 'Variants updated from the options: check them, then save.' },
            });
          if (state.layout === 'grid' && !gridMatches(state))
            return formView(visit, id, regridForm(state), {
              status: 422,
              notice: {
                kind: 'error',
                text: 'Not saved: the options changed. Check the variants below, then save again.',
              },
            });
          if (file && !file.complete)
            return formView(visit, id, state, {
              status: 413,
              errors: { file: fileTooLargeFor(visit.site.settings, file.fileName).message },
              notice: { kind: 'error', text: fileTooLargeFor(visit.site.settings, file.fileName).message },
            });
          const catalog = await readCatalog(ctx.db, visit.site.id);
          const context: FormContext = {
            currency,
            choices: {
              forms: [],
              products: (catalog?.products ?? []).map((p) => ({ id: p.id, name: p.name })),
            },
            takenSkus: new Set(catalog?.products.flatMap((p) => p.variants.map((v) => v.sku))),
            timeZone: visit.site.settings.timeZone,
            now: Date.now(),
            stored: catalog?.products.find((p) => p.id === id),
          };
          const input = inputOfForm(state, context);
          if (!input.ok)
            return formView(visit, id, state, {
              status: 400,
              errors: input.error,
              notice: { kind: 'error', text: 'Not saved: check the fields marked below.' },
            });
          const saved = await saveProduct(ctx.db, visit.site.id, visit.site.settings, visit.staff, id, {
            baseVersion: state.baseVersion || undefined,
            input: input.value,
            ...(file ? { upload: { bytes: file.bytes, fileName: file.fileName }, uploadAltText: state.uploadAlt } : {}),
          });
          if (!saved.ok) {
            const failure = saved.error;
            const errors =
              failure.type === 'FIELDS'
                ? failure.fields
                : failure.type === 'FORBIDDEN'
                  ? { status: failure.message }
                  : failure.type === 'TOO_LARGE' ||
                      failure.type === 'NOT_AN_IMAGE' ||
                      failure.type === 'EMPTY' ||
                      failure.type === 'NO_FILE_NAME'
                    ? { file: failure.message }
                    : {};
            return formView(visit, id, state, {
              status: statusOf(failure),
              errors,
              notice: {
                kind: 'error',
                text: failure.type === 'FIELDS' ? 'Not saved: check the fields marked below.' : failure.message,
              },
              ...(failure.type === 'STALE' ? { changes: failure.changes } : {}),
            });
          }
          const product = saved.value.product;
          return withDone(
            productPath(product.id),
            `Saved “${product.name}” (version ${saved.value.version}). ${whereItIs(shownStatus(product, Date.now()), product.publishAt, visit.site.settings.timeZone)}`,
          );
        });

    scope.post(PRODUCTS_PATH, { schema: createProductFormRoute }, formPost(undefined));
    scope.post(`${PRODUCTS_PATH}/:id`, { schema: productFormRoute }, (request, reply) =>
      formPost(idOf(request))(request, reply),
    );

    scope.post(`${PRODUCTS_PATH}/:id/duplicate`, { schema: duplicateProductFormRoute }, (request, reply) =>
      pages.action(request, reply, editing, async (visit) => {
        const made = await duplicateStoredProduct(ctx.db, visit.site.id, visit.staff, idOf(request));
        if (!made.ok)
          return formView(visit, idOf(request), undefined, {
            status: statusOf(made.error),
            notice: { kind: 'error', text: made.error.message },
          });
        return withDone(productPath(made.value.product.id), `Duplicated as “${made.value.product.name}”.`);
      }),
    );

    scope.post(`${PRODUCTS_PATH}/:id/delete`, { schema: deleteProductFormRoute }, (request, reply) =>
      pages.action(request, reply, editing, async (visit) => {
        const id = idOf(request);
        const body = deleteFormBody.safeParse(request.body ?? {});
        if (!body.success || body.data.confirm !== 'yes')
          return formView(visit, id, undefined, {
            status: 422,
            notice: { kind: 'error', text: 'Tick “Yes, delete” to delete the product.' },
          });
        const base = Number(body.data.baseVersion);
        const deleted = await deleteStoredProduct(
          ctx.db,
          visit.site.id,
          visit.staff,
          id,
          Number.isInteger(base) && base > 0 ? base : undefined,
        );
        if (!deleted.ok)
          return formView(visit, id, undefined, {
            status: statusOf(deleted.error),
            notice: { kind: 'error', text: deleted.error.message },
            ...(deleted.error.type === 'STALE' ? { changes: deleted.error.changes } : {}),
          });
        return withDone(PRODUCTS_PATH, `Deleted the product (version ${deleted.value.version}).`);
      }),
    );

    scope.post('/api/admin/products', { schema: createProductRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'products.edit');
      const site = await siteOf(request);
      const { product } = parseInput(createProductBody, request.body, 'body');
      const input = withStatus(product, site.settings.timeZone);
      const saved = await saveProduct(ctx.db, site.id, site.settings, staff, undefined, { input });
      if (!saved.ok) throw apiFailure(saved.error);
      return reply.code(201).send(saved.value);
    });

    scope.put('/api/admin/products/:id', { schema: updateProductRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'products.edit');
      const site = await siteOf(request);
      const { id } = parseInput(productParams, request.params, 'params');
      const { baseVersion, product } = parseInput(updateProductBody, request.body, 'body');
      const input = withStatus(product, site.settings.timeZone, await storedPublication(ctx.db, site.id, id));
      const saved = await saveProduct(ctx.db, site.id, site.settings, staff, id, { baseVersion, input });
      if (!saved.ok) {
        if (saved.error.type === 'REFUSED' && /deleted meanwhile/.test(saved.error.message))
          throw new ApiError('product-not-found', `This site has no product '${id}'.`);
        throw apiFailure(saved.error);
      }
      return saved.value;
    });

    scope.post('/api/admin/products/:id/duplicate', { schema: duplicateProductRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'products.edit');
      const site = await siteOf(request);
      const { id } = parseInput(productParams, request.params, 'params');
      const made = await duplicateStoredProduct(ctx.db, site.id, staff, id);
      if (!made.ok)
        throw made.error.type === 'REFUSED'
          ? new ApiError('product-not-found', `This site has no product '${id}'.`)
          : apiFailure(made.error);
      return reply.code(201).send(made.value);
    });

    scope.delete('/api/admin/products/:id', { schema: deleteProductRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'products.edit');
      const site = await siteOf(request);
      const { id } = parseInput(productParams, request.params, 'params');
      const { baseVersion } = parseInput(deleteQuery, request.query, 'query');
      const deleted = await deleteStoredProduct(ctx.db, site.id, staff, id, baseVersion);
      if (!deleted.ok) {
        if (deleted.error.type === 'REFUSED' && /deleted meanwhile/.test(deleted.error.message))
          throw new ApiError('product-not-found', `This site has no product '${id}'.`);
        throw apiFailure(deleted.error);
      }
      return { deleted: id, version: deleted.value.version };
    });
  });
}
