/**
 * The owner's orders (issue 25), pages and JSON calls; every one asks for a signed-in staff member with the
 * permission (orders.read to see, orders.fulfil to change) through the admin module's helpers.
 *
 * - GET /admin/orders[?payment&fulfilment&q&cursor] → the list; POST /admin/orders/fulfil → fulfil the ticked orders
 * - GET /admin/orders/:number → one order; POST …/unfulfil, …/notes (forms without JavaScript, 303 back)
 * - GET /api/admin/orders, GET /api/admin/orders/:number, POST /api/admin/orders/:number/fulfil|unfulfil|notes
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  normalTrackingNumber,
  trackingNumberProblem,
  type Carrier,
  type Fulfilment,
  type PaymentState,
} from '../../core/orderStates';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { FULFIL_PATH, OrderDetail, OrdersList, ORDERS_PATH } from '../../ui/admin/Orders';
import { CRUMB_FIELD } from '../../core/crumb';
import { pageCrumb } from '../../platform/http/crumb';
import { currentStaff, requireStaff, type AdminPages, type AdminVisit } from '../admin';
import { siteOf } from '../site';
import { SEARCH_TOO_SHORT } from '../../core/adminSearch';
import { getAdminOrder, listAdminOrders, type OrderListFilter } from './adminOrders';
import {
  adminFulfilForm,
  adminNoteForm,
  adminOrderPage,
  adminOrdersPage,
  adminUnfulfilForm,
  fulfilBody,
  fulfilForm,
  fulfilRoute,
  getOrderRoute,
  listOrdersRoute,
  noteBody,
  noteRoute,
  orderParams,
  ordersQuery,
  unfulfilRoute,
} from './adminRoutes.schema';
import { addOrderNote, fulfilOrder, unfulfilOrder, type FulfilmentFailure } from './fulfilment';
import { listRefunds } from './refunds';

const filterOf = (query: unknown): OrderListFilter => {
  const q = parseInput(ordersQuery, query, 'query');
  return {
    ...(q.payment ? { payment: q.payment as PaymentState } : {}),
    ...(q.fulfilment ? { fulfilment: q.fulfilment as Fulfilment } : {}),
    ...(q['to-fulfil'] ? { toFulfil: true } : {}),
    ...(q.q ? { q: q.q } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
  };
};

/** A page path of ours to come back to after a form (never another site). */
const backPath = (back: string | undefined): string =>
  back && /^\/admin\/orders(\/\d+)?(\?[^\s]*)?$/.test(back) ? back : ORDERS_PATH;

const withDone = (path: string, done: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}done=${encodeURIComponent(done)}`;

const apiFailure = (failure: FulfilmentFailure): ApiError =>
  new ApiError(
    failure.type === 'ORDER_NOT_FOUND'
      ? 'order-not-found'
      : failure.type === 'BAD_NOTE'
        ? 'invalid-input'
        : 'order-conflict',
    failure.message,
  );

export function registerOrderAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const db = ctx.db;

  const listView = async (request: FastifyRequest, visit: AdminVisit, error?: { status: number; message: string }) => {
    const filter = filterOf(request.query);
    const { done } = parseInput(ordersQuery, request.query, 'query');
    const page = await listAdminOrders(db, visit.site.id, filter);
    return {
      title: 'Orders',
      ...(error ? { status: error.status } : {}),
      body: (
        <>
          <AdminTitle title="Orders" />
          {error ? <AdminNotice kind="error">{error.message}</AdminNotice> : null}
          {done ? <AdminNotice kind="done">{done}</AdminNotice> : null}
          {page.tooShort ? <AdminNotice kind="error">{SEARCH_TOO_SHORT}</AdminNotice> : null}
          <OrdersList
            orders={page.orders}
            canFulfil={visit.staff.can('orders.fulfil')}
            filter={filter}
            next={page.next}
            back={request.url.startsWith(ORDERS_PATH) ? request.url.replace(/[?&]done=[^&]*/, '') : ORDERS_PATH}
            visit={visit}
          />
        </>
      ),
    };
  };

  const orderView = async (
    visit: AdminVisit,
    number: number,
    notice?: { kind: 'done' | 'error'; message: string; status?: number },
    noteDraft?: string,
  ) => {
    const detail = await getAdminOrder(db, visit.site.id, number);
    if (!detail)
      return {
        title: 'Order not found',
        status: 404,
        body: (
          <>
            <AdminTitle title="Order not found" />
            <p>{`There is no order ${number}.`}</p>
            <p>
              <a href={ORDERS_PATH}>All orders</a>
            </p>
          </>
        ),
      };
    return {
      title: `Order #${number}`,
      ...(notice?.status ? { status: notice.status } : {}),
      body: (
        <>
          <p>
            <a href={ORDERS_PATH}>All orders</a>
          </p>
          <AdminTitle title={`Order #${number}`} />
          {notice ? <AdminNotice kind={notice.kind}>{notice.message}</AdminNotice> : null}
          <OrderDetail
            detail={detail}
            canFulfil={visit.staff.can('orders.fulfil')}
            canRefund={visit.staff.can('orders.refund')}
            refunds={(await listRefunds(db, detail.order))
              .filter((r) => r.status === 'succeeded')
              .map((r) => ({
                id: r.id,
                at: r.createdAt,
                amountCents: r.amountCents,
                reason: r.reason,
                by: r.createdBy,
                restock: r.restock,
                cancel: r.cancel,
              }))}
            visit={visit}
            {...(noteDraft !== undefined ? { noteDraft } : {})}
          />
        </>
      ),
    };
  };

  app.get(ORDERS_PATH, { schema: adminOrdersPage }, (request, reply) =>
    pages.answer(request, reply, { section: ORDERS_PATH, permission: 'orders.read' }, (visit) =>
      listView(request, visit),
    ),
  );

  app.get(`${ORDERS_PATH}/:number`, { schema: adminOrderPage }, (request, reply) =>
    pages.answer(request, reply, { section: ORDERS_PATH, permission: 'orders.read' }, (visit) => {
      const { number } = parseInput(orderParams, request.params, 'params');
      const { done } = parseInput(ordersQuery, request.query, 'query');
      return orderView(visit, number, done ? { kind: 'done', message: done } : undefined);
    }),
  );

  app.get('/api/admin/orders', { schema: listOrdersRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'orders.read');
    const page = await listAdminOrders(db, staff.siteId, filterOf(request.query));
    if (page.tooShort) throw new ApiError('invalid-input', `q: ${SEARCH_TOO_SHORT}`);
    return page;
  });

  app.get('/api/admin/orders/:number', { schema: getOrderRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'orders.read');
    const { number } = parseInput(orderParams, request.params, 'params');
    const detail = await getAdminOrder(db, staff.siteId, number);
    if (!detail) throw new ApiError('order-not-found', `There is no order ${number}.`);
    return detail;
  });

  /** The fulfil form's fields checked: the carrier and tracking number to store, or the message. */
  const shipment = (carrier: string | undefined, tracking: string | undefined) => {
    const trackingNumber = normalTrackingNumber(tracking);
    const problem = trackingNumberProblem(trackingNumber);
    return { carrier: (carrier ?? null) as Carrier | null, trackingNumber, problem };
  };

  void app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    scope.post(FULFIL_PATH, { schema: adminFulfilForm }, async (request, reply) => {
      const body = parseInput(fulfilForm, request.body ?? {}, 'body');
      const back = backPath(body.back);
      const numbers = [body.number ?? []]
        .flat()
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0);
      const onePage = /^\/admin\/orders\/(\d+)/.exec(back);
      const errorView = onePage ? Number(onePage[1]) : ('list' as const);
      return answerForm(request, reply, 'orders.fulfil', async (visit) => {
        if (numbers.length === 0)
          return { status: 422, message: 'Please select the orders to fulfil.', view: errorView };
        const { carrier, trackingNumber, problem } = shipment(body.carrier, body.trackingNumber);
        if (problem) return { status: 422, message: problem, view: errorView };
        const done: number[] = [];
        const refused: string[] = [];
        for (const number of [...new Set(numbers)]) {
          const result = await fulfilOrder(db, visit.site.id, number, {
            carrier,
            trackingNumber,
            notify: body.notify === true,
            actor: visit.staff.actor,
            siteTitle: visit.site.title,
          });
          if (result.ok) done.push(number);
          else refused.push(result.error.message);
        }
        if (done.length === 0) return { status: 409, message: refused.join(' '), view: errorView };
        const said = `Fulfilled ${done.length === 1 ? `order ${done[0]}` : `${done.length} orders (${done.join(', ')})`}.`;
        return withDone(back, [said, ...refused].join(' '));
      });
    });

    scope.post(`${ORDERS_PATH}/:number/unfulfil`, { schema: adminUnfulfilForm }, async (request, reply) => {
      const { number } = parseInput(orderParams, request.params, 'params');
      return answerForm(request, reply, 'orders.fulfil', async (visit) => {
        const result = await unfulfilOrder(db, visit.site.id, number, visit.staff.actor);
        if (!result.ok)
          return {
            status: result.error.type === 'ORDER_NOT_FOUND' ? 404 : 409,
            message: result.error.message,
            view: number,
          };
        return withDone(`${ORDERS_PATH}/${number}`, `Order ${number} is pending again.`);
      });
    });

    scope.post(`${ORDERS_PATH}/:number/notes`, { schema: adminNoteForm }, async (request, reply) => {
      const { number } = parseInput(orderParams, request.params, 'params');
      const { body } = parseInput(noteBody, request.body ?? {}, 'body');
      return answerForm(request, reply, 'orders.fulfil', async (visit) => {
        const result = await addOrderNote(db, visit.site.id, number, body, visit.staff.actor);
        if (!result.ok)
          return {
            status: result.error.type === 'ORDER_NOT_FOUND' ? 404 : 422,
            message: result.error.message,
            view: number,
            draft: body,
          };
        return withDone(`${ORDERS_PATH}/${number}`, 'Note added.');
      });
    });

    scope.post('/api/admin/orders/:number/fulfil', { schema: fulfilRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'orders.fulfil');
      const { number } = parseInput(orderParams, request.params, 'params');
      const body = parseInput(fulfilBody, request.body ?? {}, 'body');
      const { carrier, trackingNumber, problem } = shipment(body.carrier, body.trackingNumber);
      if (problem) throw new ApiError('invalid-input', problem, { field: 'trackingNumber' });
      const site = await siteOf(request);
      const result = await fulfilOrder(db, staff.siteId, number, {
        carrier,
        trackingNumber,
        notify: body.notify,
        actor: staff.actor,
        siteTitle: site.title,
      });
      if (!result.ok) throw apiFailure(result.error);
      return getAdminOrder(db, staff.siteId, number);
    });

    scope.post('/api/admin/orders/:number/unfulfil', { schema: unfulfilRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'orders.fulfil');
      const { number } = parseInput(orderParams, request.params, 'params');
      const result = await unfulfilOrder(db, staff.siteId, number, staff.actor);
      if (!result.ok) throw apiFailure(result.error);
      return getAdminOrder(db, staff.siteId, number);
    });

    scope.post('/api/admin/orders/:number/notes', { schema: noteRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'orders.fulfil');
      const { number } = parseInput(orderParams, request.params, 'params');
      const { body } = parseInput(noteBody, request.body ?? {}, 'body');
      const result = await addOrderNote(db, staff.siteId, number, body, staff.actor);
      if (!result.ok) throw apiFailure(result.error);
      return getAdminOrder(db, staff.siteId, number);
    });
  });

  /**
   * A form POST: a staff member with `permission` runs `act`, which answers the path to go back to (303 there) or the
   * error to show on the page again; nobody signed in → the sign-in; a role without it → the 403 page (no data).
   */
  async function answerForm(
    request: FastifyRequest,
    reply: FastifyReply,
    permission: 'orders.fulfil',
    act: (
      visit: AdminVisit,
    ) => Promise<string | { status: number; message: string; view: 'list' | number; draft?: string }>,
  ): Promise<FastifyReply> {
    const staff = await currentStaff(request);
    if (!staff || !staff.can(permission))
      return pages.answer(request, reply, { section: ORDERS_PATH, permission }, () => ({ title: '', body: null }));
    const visit: AdminVisit = {
      staff,
      site: await siteOf(request),
      crumb: pageCrumb(request, reply, ctx),
      crumbField: CRUMB_FIELD,
    };
    const outcome = await act(visit);
    if (typeof outcome === 'string') return reply.header('cache-control', 'no-store').redirect(outcome, 303);
    const view =
      outcome.view === 'list'
        ? await listView(request, visit, outcome)
        : await orderView(
            visit,
            outcome.view,
            { kind: 'error', message: outcome.message, status: outcome.status },
            outcome.draft,
          );
    return pages.send(reply, visit, ORDERS_PATH, view);
  }
}
