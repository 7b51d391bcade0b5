/**
 * Refunds and cancel in the owner's area (issue 25), for staff with 'orders.refund':
 *
 * - POST /api/admin/orders/:number/refunds  JSON { lines?, amountCents?, reason, restock?, idempotencyKey? } (or the
 *   Idempotency-Key header) → 201 the refund; the same key again → the same refund (`repeated: true`)
 * - POST /api/admin/orders/:number/cancel   JSON { reason?, idempotencyKey? } → 201: everything left refunded, restocked
 * - GET  /admin/orders/:number/refund        the refund page (each line's quantity, an amount, a reason, restock)
 * - POST /admin/orders/:number/refund        its form → 303 /admin/orders/:number?done=… (or the page again)
 * - POST /admin/orders/:number/cancel        the order page's cancel form (reason, confirm) → 303 /admin/orders/:number?done=…
 *   (or the refund page with the error)
 *
 * The order's own page (/admin/orders/:number) belongs to the orders list's work; this page links back to it.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fractionDigits, parseCurrencyCode } from '../../core/currency';
import { formatMoney } from '../../core/money';
import { PAYMENT_LABELS, paymentState } from '../../core/orderStates';
import { parseAmount, refundableLeft } from '../../core/refundAmount';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { randomToken } from '../../platform/randomToken';
import { RefundForm, type RefundFormValues } from '../../ui/admin/RefundForm';
import { AdminTitle } from '../../ui/admin/AdminFrame';
import { requireStaff, type AdminPages, type AdminVisit } from '../admin';
import { siteOf, type Site } from '../site';
import type { PaymentProvider, PaymentProviderName } from '../payments';
import { getOrderByNumber } from './orders';
import type { Order } from './orderTypes';
import { listRefunds, refundOrderPart, type RefundFailure, type RefundRequest } from './refunds';
import {
  cancelBody,
  cancelRoute,
  orderNumberParams,
  refundBody,
  cancelFormRoute,
  refundFormRoute,
  refundPage,
  refundRoute,
} from './refundRoutes.schema';

export const ORDERS_ADMIN_PATH = '/admin/orders';
const orderPagePath = (number: number) => `${ORDERS_ADMIN_PATH}/${number}`;

/** The provider that took the order's payment (a site that moved to another since must not send it elsewhere). */
function providerOf(ctx: AppContext, site: Site, order: Order): PaymentProvider {
  const payments = site.settings.store.checkout.payments;
  return ctx.paymentsFor({
    ...site,
    settings: {
      ...site.settings,
      store: {
        ...site.settings.store,
        checkout: {
          ...site.settings.store.checkout,
          payments: { ...payments, provider: order.paymentProvider as PaymentProviderName },
        },
      },
    },
  });
}

const failureToApi = (failure: RefundFailure): ApiError => {
  switch (failure.type) {
    case 'ORDER_NOT_FOUND':
      return new ApiError('order-not-found', failure.message);
    case 'ALREADY_REFUNDED':
    case 'TOO_MUCH':
    case 'IN_PROGRESS':
    case 'KEY_REUSED':
    case 'NOT_CANCELABLE':
      return new ApiError('refund-conflict', failure.message);
    case 'PROVIDER_REFUSED':
      return new ApiError('payment-failed', failure.message);
    default:
      return new ApiError('refund-refused', failure.message);
  }
};

const money = (order: Order, minorUnits: number): string =>
  formatMoney({ minorUnits, currency: parseCurrencyCode(order.currency) ?? 'USD' });

const keyOf = (request: FastifyRequest, bodyKey: string | undefined): string | undefined => {
  const header = request.headers['idempotency-key'];
  return (typeof header === 'string' && header.trim() !== '' ? header : bodyKey)?.trim();
};

export async function registerRefundAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pages: AdminPages,
): Promise<void> {
  const run = async (request: FastifyRequest, number: number, ask: Omit<RefundRequest, 'actor'>) => {
    const staff = await requireStaff(request, 'orders.refund');
    const site = await siteOf(request);
    const order = await getOrderByNumber(ctx.db, site.id, number);
    if (!order) throw new ApiError('order-not-found', `There is no order #${number}.`);
    const done = await refundOrderPart(
      ctx.db,
      { siteId: site.id, siteTitle: site.title, provider: providerOf(ctx, site, order) },
      number,
      { ...ask, actor: staff.actor },
    );
    if (!done.ok) throw failureToApi(done.error);
    return done.value;
  };

  app.post('/api/admin/orders/:number/refunds', { schema: refundRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { number } = parseInput(orderNumberParams, request.params, 'params');
    const body = parseInput(refundBody, request.body ?? {}, 'body');
    const key = keyOf(request, body.idempotencyKey);
    if (!key) throw new ApiError('invalid-input', 'A refund needs an Idempotency-Key header (or idempotencyKey).');
    const outcome = await run(request, number, {
      idempotencyKey: key,
      ...(body.lines ? { lines: body.lines } : {}),
      ...(body.amountCents !== undefined ? { amount: body.amountCents } : {}),
      reason: body.reason,
      restock: body.restock === true,
    });
    return reply.code(201).send(outcome);
  });

  app.post('/api/admin/orders/:number/cancel', { schema: cancelRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { number } = parseInput(orderNumberParams, request.params, 'params');
    const body = parseInput(cancelBody, request.body ?? {}, 'body');
    const outcome = await run(request, number, {
      idempotencyKey: keyOf(request, body.idempotencyKey) ?? `cancel:${number}`,
      all: true,
      cancel: true,
      reason: body.reason?.trim() || 'Order canceled',
      restock: true,
    });
    return reply.code(201).send(outcome);
  });

  const section = { section: ORDERS_ADMIN_PATH, permission: 'orders.refund' } as const;

  const view = async (visit: AdminVisit, order: Order, values: RefundFormValues, error?: string, status?: number) => {
    const currency = parseCurrencyCode(order.currency) ?? 'USD';
    const money = (minorUnits: number) => formatMoney({ minorUnits, currency });
    const refunds = await listRefunds(ctx.db, order);
    const left = refundableLeft({
      subtotal: order.subtotalCents,
      discount: order.discountCents,
      tax: order.taxCents,
      shipping: order.shippingCents,
      pricesIncludeTax: order.pricesIncludeTax,
      grandTotal: order.grandTotalCents,
      refundedTotal: order.refundedTotalCents,
    });
    const state = PAYMENT_LABELS[paymentState(order.status, order.refundedTotalCents, order.grandTotalCents)];
    return {
      title: `Refund order ${order.number}`,
      ...(status ? { status } : {}),
      body: (
        <>
          <p>
            <a href={orderPagePath(order.number)}>{`← Order ${order.number}`}</a>
          </p>
          <AdminTitle title={`Refund order ${order.number}`} />
          <RefundForm
            action={`${orderPagePath(order.number)}/refund`}
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            order={{
              number: order.number,
              email: order.email,
              payment: state,
              total: money(order.grandTotalCents),
              refunded: money(order.refundedTotalCents),
              left: money(left),
              leftCents: left,
              shipping: order.shippingCents > 0 ? money(order.shippingCents) : null,
              decimals: fractionDigits(currency),
              lines: order.lines.map((l) => ({
                position: l.position,
                title: l.title,
                sku: l.sku,
                quantity: l.quantity,
                refunded: l.refundedQuantity,
                total: money(l.lineTotal),
              })),
              refunds: refunds
                .filter((r) => r.status === 'succeeded')
                .map((r) => ({
                  id: r.id,
                  at: r.createdAt,
                  amount: money(r.amountCents),
                  reason: r.reason,
                  by: r.createdBy,
                })),
            }}
            values={values}
            {...(error ? { error } : {})}
          />
        </>
      ),
    };
  };

  const notFound = (number: number) => ({
    title: 'No such order',
    status: 404,
    body: (
      <>
        <AdminTitle title="No such order" />
        <p>{`There is no order ${number}.`}</p>
        <p>
          <a href={ORDERS_ADMIN_PATH}>Orders</a>
        </p>
      </>
    ),
  });

  app.get('/admin/orders/:number/refund', { schema: refundPage }, (request, reply) =>
    pages.answer(request, reply, section, async (visit) => {
      const { number } = parseInput(orderNumberParams, request.params, 'params');
      const order = await getOrderByNumber(ctx.db, visit.site.id, number);
      if (!order) return notFound(number);
      return view(visit, order, { key: randomToken(16), quantities: {}, amount: '', reason: '', restock: true });
    }),
  );

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
    scope.post('/admin/orders/:number/refund', { schema: refundFormRoute }, async (request, reply) => {
      try {
        return await pages.answer(request, reply, section, async (visit) => {
          const { number } = parseInput(orderNumberParams, request.params, 'params');
          const order = await getOrderByNumber(ctx.db, visit.site.id, number);
          if (!order) return notFound(number);
          const form = (request.body ?? {}) as Record<string, string | undefined>;
          const values = formValues(form, order);
          const decimals = fractionDigits(parseCurrencyCode(order.currency) ?? 'USD');
          const amount = values.amount.trim() === '' ? 0 : parseAmount(values.amount, decimals);
          if (amount === undefined)
            return view(visit, order, values, 'Please enter the amount as a number, like 12.50.', 422);
          if (form.confirm !== 'yes')
            return view(visit, order, values, 'Please tick the box to confirm the refund.', 422);
          const lines = Object.entries(values.quantities)
            .map(([position, quantity]) => ({ position: Number(position), quantity: Number(quantity) }))
            .filter((l) => l.quantity > 0);
          const done = await refundOrderPart(
            ctx.db,
            { siteId: visit.site.id, siteTitle: visit.site.title, provider: providerOf(ctx, visit.site, order) },
            number,
            {
              idempotencyKey: values.key,
              lines,
              amount,
              reason: values.reason,
              restock: values.restock,
              actor: visit.staff.actor,
            },
          );
          if (!done.ok) {
            const again = (await getOrderByNumber(ctx.db, visit.site.id, number)) ?? order;
            const conflict = ['ALREADY_REFUNDED', 'TOO_MUCH', 'IN_PROGRESS', 'KEY_REUSED'].includes(done.error.type);
            return view(visit, again, { ...values, key: randomToken(16) }, done.error.message, conflict ? 409 : 422);
          }
          const said = `Refunded ${money(order, done.value.refund.amountCents)} of order ${number}.`;
          return redirectTo(reply, `${orderPagePath(number)}?done=${encodeURIComponent(said)}`);
        });
      } catch (error) {
        if (error instanceof Redirect) return reply.header('cache-control', 'no-store').redirect(error.location, 303);
        throw error;
      }
    });

    scope.post('/admin/orders/:number/cancel', { schema: cancelFormRoute }, async (request, reply) => {
      try {
        return await pages.answer(request, reply, section, async (visit) => {
          const { number } = parseInput(orderNumberParams, request.params, 'params');
          const order = await getOrderByNumber(ctx.db, visit.site.id, number);
          if (!order) return notFound(number);
          const form = (request.body ?? {}) as Record<string, string | undefined>;
          const reason = (form.reason ?? '').trim().slice(0, 500) || 'Order canceled';
          const fresh = { key: randomToken(16), quantities: {}, amount: '', reason: '', restock: true };
          if (form.confirm !== 'yes')
            return view(visit, order, fresh, `Please tick the box to cancel order ${number}.`, 422);
          const done = await refundOrderPart(
            ctx.db,
            { siteId: visit.site.id, siteTitle: visit.site.title, provider: providerOf(ctx, visit.site, order) },
            number,
            {
              idempotencyKey: `cancel:${number}`,
              all: true,
              cancel: true,
              reason,
              restock: true,
              actor: visit.staff.actor,
            },
          );
          if (!done.ok) {
            const again = (await getOrderByNumber(ctx.db, visit.site.id, number)) ?? order;
            const conflict = ['ALREADY_REFUNDED', 'IN_PROGRESS', 'KEY_REUSED', 'NOT_CANCELABLE'].includes(
              done.error.type,
            );
            return view(visit, again, fresh, done.error.message, conflict ? 409 : 422);
          }
          const said = `Canceled order ${number}: refunded ${money(order, done.value.refund.amountCents)} and put the stock back.`;
          return redirectTo(reply, `${orderPagePath(number)}?done=${encodeURIComponent(said)}`);
        });
      } catch (error) {
        if (error instanceof Redirect) return reply.header('cache-control', 'no-store').redirect(error.location, 303);
        throw error;
      }
    });
  });
}

/** A 303 from inside pages.answer's builder is not a view: it is thrown past it and answered here. */
class Redirect extends Error {
  constructor(readonly location: string) {
    super(location);
  }
}
function redirectTo(_reply: FastifyReply, location: string): never {
  throw new Redirect(location);
}

function formValues(form: Record<string, string | undefined>, order: Order): RefundFormValues {
  const quantities: Record<string, string> = {};
  for (const line of order.lines) {
    const raw = (form[`qty-${line.position}`] ?? '').trim();
    if (raw !== '') quantities[String(line.position)] = /^\d{1,6}$/.test(raw) ? raw : '0';
  }
  return {
    key: (form.key ?? '').slice(0, 200) || randomToken(16),
    quantities,
    amount: (form.amount ?? '').slice(0, 30),
    reason: (form.reason ?? '').slice(0, 500),
    restock: form.restock === 'yes',
  };
}
