/**
 * Restock sign-ups in the owner's area (issue 25, "what the storefront gathers"): 'gatherings.read' to see,
 * 'gatherings.edit' to send, through the admin module's helpers.
 *
 * - GET /admin/gathered/restock[?cursor] → per variant: waiting, e-mailed, stock now, and 'Send now'
 * - POST /admin/gathered/restock/send (form: productId, variantId) → 303 back with how many were e-mailed
 * - GET /api/admin/gathered/restock, POST /api/admin/gathered/restock/send
 *
 * 'Send now' is the send of `vitrine restock send` (./send.ts): as many waiting shoppers as units in stock, oldest
 * first, each once whatever runs at once; its audit entry is written in each batch's transaction.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { GATHERED_PATH, GatheredNav, RestockTable } from '../../ui/admin/Gathered';
import { backTo, requireStaff, withDone, type Actor, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import { siteOf, type Site } from '../site';
import {
  listRestockRoute,
  restockPage,
  restockQuery,
  restockSendBody,
  restockSendForm,
  restockSendRoute,
} from './adminRoutes.schema';
import { listRestockGroups } from './lists';
import { sendRestockNotifications } from './send';
import { restockSentAudit } from './sendAudit';

export const RESTOCK_ADMIN_PATH = `${GATHERED_PATH}/restock`;
const section = { section: GATHERED_PATH, permission: 'gatherings.read' } as const;

/** The owner's send: the restock send, with its audit entry in each batch's transaction. */
function sendNow(ctx: AppContext, site: Site, target: { productId: string; variantId: string }, actor: Actor) {
  return sendRestockNotifications(ctx.db, site, target, {
    onBatch: restockSentAudit(site.id, target.variantId, actor),
  });
}

export function registerRestockAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const listView = async (
    query: unknown,
    visit: AdminVisit,
    error?: { text: string; status: number },
  ): Promise<AdminView> => {
    const { cursor, done } = parseInput(restockQuery, query, 'query');
    const page = await listRestockGroups(ctx.db, visit.site.id, { cursor });
    const groups = page.ok ? page.value : { signUpGroups: [], hasNextPage: false, nextPageCursor: null };
    const back = cursor ? `${RESTOCK_ADMIN_PATH}?cursor=${encodeURIComponent(cursor)}` : RESTOCK_ADMIN_PATH;
    return {
      title: 'Restock sign-ups',
      ...(error ? { status: error.status } : {}),
      body: (
        <>
          <AdminTitle title="Restock sign-ups" />
          <GatheredNav current={RESTOCK_ADMIN_PATH} />
          {error ? <AdminNotice kind="error">{error.text}</AdminNotice> : null}
          {!error && done ? <AdminNotice kind="done">{done}</AdminNotice> : null}
          {!page.ok ? <AdminNotice kind="error">{page.error.message}</AdminNotice> : null}
          <p className="admin-muted">
            Send now e-mails as many waiting shoppers as the variant has units in stock, oldest sign-up first.
          </p>
          <RestockTable
            rows={groups.signUpGroups}
            post={{ crumb: visit.crumb, crumbField: visit.crumbField }}
            back={back}
            canEdit={visit.staff.can('gatherings.edit')}
          />
          <nav className="admin-pager" aria-label="Pages">
            {cursor ? <a href={RESTOCK_ADMIN_PATH}>First page</a> : null}
            {groups.nextPageCursor ? (
              <a href={`${RESTOCK_ADMIN_PATH}?cursor=${encodeURIComponent(groups.nextPageCursor)}`}>Next</a>
            ) : null}
          </nav>
        </>
      ),
    };
  };

  app.get(RESTOCK_ADMIN_PATH, { schema: restockPage }, (request, reply) =>
    pages.answer(request, reply, section, (visit) => listView(request.query, visit)),
  );

  app.get('/api/admin/gathered/restock', { schema: listRestockRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { cursor } = parseInput(restockQuery, request.query, 'query');
    const page = await listRestockGroups(ctx.db, staff.siteId, { cursor });
    if (!page.ok) throw new ApiError('invalid-input', page.error.message, { field: 'cursor' });
    return page.value;
  });

  void app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    scope.post('/api/admin/gathered/restock/send', { schema: restockSendRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'gatherings.edit');
      const { productId, variantId } = parseInput(restockSendBody, request.body ?? {}, 'body');
      const sent = await sendNow(ctx, await siteOf(request), { productId, variantId }, staff.actor);
      if (!sent.ok) throw new ApiError('product-not-found', sent.error.message);
      const r = sent.value;
      return {
        productId: r.productId,
        variantId: r.variantId,
        sent: r.sent,
        waiting: r.waiting,
        qtyInStock: r.qtyInStock,
      };
    });

    scope.post(`${RESTOCK_ADMIN_PATH}/send`, { schema: restockSendForm }, async (request, reply) => {
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const back = backTo(raw.back, RESTOCK_ADMIN_PATH);
      return pages.action(request, reply, { section: GATHERED_PATH, permission: 'gatherings.edit' }, async (visit) => {
        const asked = restockSendBody.safeParse(raw);
        const again = (text: string, status: number) =>
          listView(Object.fromEntries(new URL(back, 'http://x').searchParams), visit, { text, status });
        if (!asked.success) return again('Choose a product and variant to send for.', 422);
        const sent = await sendNow(ctx, visit.site, asked.data, visit.staff.actor);
        if (!sent.ok) return again(sent.error.message, 404);
        const r = sent.value;
        const what = `${r.productName}${r.variantLabel && r.variantLabel !== r.variantId ? ` (${r.variantLabel})` : ''}`;
        const said =
          r.sent === 0
            ? `No e-mail sent for ${what}: ${r.qtyInStock === 0 ? 'it is out of stock' : 'its units are already promised to shoppers e-mailed before'}. ${r.waiting} still waiting.`
            : `E-mailed ${r.sent} waiting shopper${r.sent === 1 ? '' : 's'} that ${what} is back in stock. ${r.waiting} still waiting.`;
        return withDone(back, said);
      });
    });
  });
}
