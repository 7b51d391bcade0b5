/**
 * The inventory in the owner's area (issue 25): every /admin page and /api/admin call asks for a signed-in staff member
 * with 'inventory.read' (changes: 'inventory.edit') through the admin module's helpers.
 *
 * - GET /admin/inventory[?filter=all|sold-out|low&q&offset] → every variant with its live stock and, for editors, a
 *   small form per row; GET /api/admin/inventory → the same as JSON
 * - GET /admin/inventory/:sku → the variant and its history, newest first; GET /api/admin/inventory/:sku/history
 * - POST /admin/inventory/:sku (form: mode set|adjust, quantity, reason) → 303 back with a notice, or the page again
 *   with the refusal; POST /api/admin/inventory/:sku (JSON) → the stock before and after
 *
 * A change is one transaction: the stock (a delta applied in the database), its history row and its audit entry.
 * The storefront's cached pages follow at once through the stock watch (stock_seq moves).
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { SEARCH_TOO_SHORT } from '../../core/adminSearch';
import {
  InventoryFilters,
  InventoryTable,
  MovementTable,
  StockForm,
  stockText,
  variantLabel,
} from '../../ui/admin/Inventory';
import { currentStaff, requireStaff, type AdminPages, type AdminVisit } from '../admin';
import { siteOf, type Site } from '../site';
import {
  inventoryFormRoute,
  inventoryItemPage,
  inventoryPage,
  inventoryQuery,
  listInventoryRoute,
  changeStockRoute,
  skuParams,
  stockChangeBody,
  stockHistoryRoute,
} from './adminRoutes.schema';
import { changeStock, getInventoryItem, listInventory, stockHistory, type StockChange } from './inventoryAdmin';

export const INVENTORY_PATH = '/admin/inventory';

/** The order each list is in (src/modules/catalog/inventoryAdmin.ts). */
const ORDER_TEXT = {
  all: 'in the catalog’s order',
  'sold-out': 'in the catalog’s order',
  low: 'fewest in stock first',
} as const;

const thresholdOf = (site: Site): number => site.settings.store.lowStockThreshold;
const itemPath = (sku: string) => `${INVENTORY_PATH}/${encodeURIComponent(sku)}`;

/** Where a form goes back to: one of the inventory's own pages, else the list. */
const safeBack = (back: string | undefined): string =>
  back !== undefined &&
  (back === INVENTORY_PATH || back.startsWith(`${INVENTORY_PATH}?`) || back.startsWith(`${INVENTORY_PATH}/`)) &&
  !back.includes('//')
    ? back
    : INVENTORY_PATH;

const withDone = (path: string, done: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}done=${encodeURIComponent(done)}`;

const changeOf = (body: { mode: 'set' | 'adjust'; quantity: number }): StockChange =>
  body.mode === 'set' ? { set: body.quantity } : { adjust: body.quantity };

export function registerInventoryAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const listView = async (request: FastifyRequest, visit: AdminVisit, error?: string) => {
    const { filter, q, offset, done } = parseInput(inventoryQuery, request.query, 'query');
    const threshold = thresholdOf(visit.site);
    const page = await listInventory(ctx.db, visit.site.id, { filter, q, offset, lowStockThreshold: threshold });
    const query = (o: number) => {
      const p = new URLSearchParams();
      if (filter !== 'all') p.set('filter', filter);
      if (q) p.set('q', q);
      if (o > 0) p.set('offset', String(o));
      const s = p.toString();
      return s ? `${INVENTORY_PATH}?${s}` : INVENTORY_PATH;
    };
    const first = page.offset + 1;
    const last = page.offset + page.items.length;
    return {
      title: 'Inventory',
      status: error ? 409 : 200,
      body: (
        <>
          <AdminTitle title="Inventory" />
          {error ? <AdminNotice kind="error">{error}</AdminNotice> : null}
          {!error && done ? <AdminNotice kind="done">{done}</AdminNotice> : null}
          <InventoryFilters filter={filter} q={q} threshold={threshold} />
          {page.tooShort ? <AdminNotice kind="error">{SEARCH_TOO_SHORT}</AdminNotice> : null}
          <p className="admin-muted">
            {page.items.length === 0
              ? page.offset > 0
                ? 'No more variants.'
                : 'No variants.'
              : `Variants ${first}–${last}, ${ORDER_TEXT[filter]}.`}
          </p>
          <InventoryTable
            rows={page.items}
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            back={query(page.offset)}
            canEdit={visit.staff.can('inventory.edit')}
          />
          <nav className="admin-pager" aria-label="Pages">
            {page.offset > 0 ? <a href={query(Math.max(0, page.offset - page.limit))}>Previous</a> : null}
            {page.hasNextPage ? <a href={query(page.offset + page.limit)}>Next</a> : null}
          </nav>
        </>
      ),
    };
  };

  const itemView = async (visit: AdminVisit, sku: string, notice?: { kind: 'done' | 'error'; text: string }) => {
    const item = await getInventoryItem(ctx.db, visit.site.id, sku, thresholdOf(visit.site));
    if (!item)
      return {
        title: 'Not found',
        status: 404,
        body: (
          <>
            <AdminTitle title="Not found" />
            <p>{`There is no variant with SKU ${sku}.`}</p>
            <p>
              <a href={INVENTORY_PATH}>Back to the inventory</a>
            </p>
          </>
        ),
      };
    const movements = await stockHistory(ctx.db, visit.site.id, sku);
    const label = variantLabel(item.attributes);
    return {
      title: `${item.productName} ${sku}`,
      status: notice?.kind === 'error' ? 409 : 200,
      body: (
        <>
          <p>
            <a href={INVENTORY_PATH}>Inventory</a>
          </p>
          <AdminTitle title={label ? `${item.productName} (${label})` : item.productName} />
          {notice ? <AdminNotice kind={notice.kind}>{notice.text}</AdminNotice> : null}
          <div className="admin-card">
            <p>{`SKU ${sku} · In stock: ${stockText(item.qtyInStock)}`}</p>
            <StockForm
              sku={sku}
              crumb={visit.crumb}
              crumbField={visit.crumbField}
              back={itemPath(sku)}
              canEdit={visit.staff.can('inventory.edit')}
            />
          </div>
          <h2>History</h2>
          <MovementTable movements={movements} />
        </>
      ),
    };
  };

  app.get(INVENTORY_PATH, { schema: inventoryPage }, (request, reply) =>
    pages.answer(request, reply, { section: INVENTORY_PATH, permission: 'inventory.read' }, (visit) =>
      listView(request, visit),
    ),
  );

  app.get(`${INVENTORY_PATH}/:sku`, { schema: inventoryItemPage }, (request, reply) =>
    pages.answer(request, reply, { section: INVENTORY_PATH, permission: 'inventory.read' }, async (visit) => {
      const { sku } = parseInput(skuParams, request.params, 'params');
      const done = (request.query as { done?: unknown }).done;
      return itemView(visit, sku, typeof done === 'string' ? { kind: 'done', text: done.slice(0, 300) } : undefined);
    }),
  );

  app.get('/api/admin/inventory', { schema: listInventoryRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'inventory.read');
    const site = await siteOf(request);
    const { filter, q, offset } = parseInput(inventoryQuery, request.query, 'query');
    const threshold = thresholdOf(site);
    const page = await listInventory(ctx.db, site.id, { filter, q, offset, lowStockThreshold: threshold });
    if (page.tooShort) throw new ApiError('invalid-input', `q: ${SEARCH_TOO_SHORT}`);
    return { ...page, lowStockThreshold: threshold };
  });

  app.get('/api/admin/inventory/:sku/history', { schema: stockHistoryRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'inventory.read');
    const site = await siteOf(request);
    const { sku } = parseInput(skuParams, request.params, 'params');
    const item = await getInventoryItem(ctx.db, site.id, sku, thresholdOf(site));
    if (!item) throw new ApiError('variant-not-found', `There is no variant with SKU ${sku}.`);
    return { item, movements: await stockHistory(ctx.db, site.id, sku) };
  });

  app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    scope.post('/api/admin/inventory/:sku', { schema: changeStockRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'inventory.edit');
      const site = await siteOf(request);
      const { sku } = parseInput(skuParams, request.params, 'params');
      const body = parseInput(stockChangeBody, request.body, 'body');
      const done = await changeStock(ctx.db, site.id, sku, changeOf(body), { actor: staff.actor, reason: body.reason });
      if (!done.ok)
        throw new ApiError(
          done.error.type === 'UNKNOWN_SKU' ? 'variant-not-found' : 'stock-change-refused',
          done.error.message,
        );
      return done.value;
    });

    scope.post(`${INVENTORY_PATH}/:sku`, { schema: inventoryFormRoute }, async (request, reply) => {
      const access = { section: INVENTORY_PATH, permission: 'inventory.edit' } as const;
      const staff = await currentStaff(request);
      // Nobody, or a role without the permission: the admin's own answers (the sign-in, the 403 page); nothing changes.
      if (!staff || !staff.can('inventory.edit'))
        return pages.answer(request, reply, access, () => ({ title: '', body: null }));
      const site = await siteOf(request);
      const { sku } = parseInput(skuParams, request.params, 'params');
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const back = safeBack(typeof raw.back === 'string' ? raw.back : undefined);
      const refuse = (message: string, status: number) =>
        pages.answer(request, reply, access, async (visit) => {
          const view = back.startsWith(`${INVENTORY_PATH}/`)
            ? await itemView(visit, sku, { kind: 'error', text: message })
            : await listView(requestFor(request, back), visit, message);
          return { ...view, status };
        });
      const parsed = stockChangeBody.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path[0] === 'mode' ? 'Choose Set or Adjust:' : 'The number of units';
        return refuse(`${field} ${issue?.message ?? 'is not valid'}.`, 422);
      }
      const body = parsed.data;
      const done = await changeStock(ctx.db, site.id, sku, changeOf(body), { actor: staff.actor, reason: body.reason });
      if (!done.ok) return refuse(done.error.message, done.error.type === 'UNKNOWN_SKU' ? 404 : 409);
      const e = done.value;
      return reply
        .header('cache-control', 'no-store')
        .redirect(withDone(back, `The stock of ${sku} is now ${e.after} (was ${stockText(e.before)}).`), 303);
    });
  });
}

/** The request as if it had asked for `path` (the list's filters, to show the page again after a refused form). */
function requestFor(request: FastifyRequest, path: string): FastifyRequest {
  const query = Object.fromEntries(new URL(path, 'http://x').searchParams);
  return { ...request, query } as unknown as FastifyRequest;
}
