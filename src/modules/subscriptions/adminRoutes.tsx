/**
 * Subscriptions in the owner's area (issue 25, "what the storefront gathers"): 'gatherings.read' to see,
 * 'gatherings.edit' to change, through the admin module's helpers.
 *
 * - GET /admin/gathered/subscriptions[?status&offset] → the list: customer, plan, status, next billing
 * - GET /admin/gathered/subscriptions/:id → one subscription, its bills, and its actions
 * - POST /admin/gathered/subscriptions/:id/pause|resume|skip|cancel (form) → 303 back with a notice
 * - GET /api/admin/gathered/subscriptions[/:id], POST /api/admin/gathered/subscriptions/:id/pause|resume|skip|cancel
 *
 * Each change is ./ownerChanges.ts: one guarded update and its audit entry in one transaction.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { SUBSCRIPTION_STATUS_TEXT, SUBSCRIPTION_STATUSES } from '../../core/subscriptionSchedule';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import {
  ActionForm,
  BillsTable,
  Facts,
  GATHERED_PATH,
  GatheredNav,
  shownTime,
  SubscriptionsTable,
} from '../../ui/admin/Gathered';
import { backTo, doneOf, requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import {
  getSubscriptionRoute,
  listSubscriptionsRoute,
  subscriptionActionBody,
  subscriptionActionForm,
  subscriptionActionFormRoute,
  subscriptionActionParams,
  subscriptionActionRoute,
  subscriptionPage,
  subscriptionParams,
  subscriptionsPage,
  subscriptionsQuery,
} from './adminRoutes.schema';
import { changeSubscription, type OwnerChange } from './ownerChanges';
import { getSubscription, listBills, listSubscriptions, type Subscription } from './store';

export const SUBSCRIPTIONS_PATH = `${GATHERED_PATH}/subscriptions`;
const PAGE_SIZE = 50;
const section = { section: GATHERED_PATH, permission: 'gatherings.read' } as const;

const subscriptionPath = (id: string) => `${SUBSCRIPTIONS_PATH}/${encodeURIComponent(id)}`;

/** The API's view of a subscription. */
const apiView = (s: Subscription) => ({
  id: s.id,
  status: s.status,
  email: s.email,
  product: s.line.title,
  sku: s.sku,
  quantity: s.quantity,
  planText: s.planText,
  currency: s.currency,
  periodsBilled: s.periodsBilled,
  startedAt: s.startedAt,
  nextBillingAt: s.nextBillingAt,
  cancelledAt: s.cancelledAt,
});

const DONE: Record<OwnerChange, (s: Subscription) => string> = {
  pause: (s) => `Paused the subscription of ${s.email}: it is not billed until resumed.`,
  resume: (s) =>
    `Resumed the subscription of ${s.email}; next billing ${s.nextBillingAt ? `${shownTime(s.nextBillingAt)} UTC` : '— none (completed)'}.`,
  skip: (s) =>
    `Skipped the next billing of ${s.email}; next billing ${s.nextBillingAt ? `${shownTime(s.nextBillingAt)} UTC` : '— none (completed)'}.`,
  cancel: (s) => `Cancelled the subscription of ${s.email}.`,
};

/** Which changes a subscription in its state takes. */
const actionsFor = (s: Subscription): OwnerChange[] => {
  switch (s.status) {
    case 'active':
      return ['pause', 'skip', 'cancel'];
    case 'past_due':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    default:
      return [];
  }
};
const LABEL: Record<OwnerChange, string> = {
  pause: 'Pause',
  resume: 'Resume',
  skip: 'Skip next billing',
  cancel: 'Cancel subscription',
};

export function registerSubscriptionAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const { db } = ctx;

  const listView = async (query: unknown, visit: AdminVisit): Promise<AdminView> => {
    const { status, offset, done } = parseInput(subscriptionsQuery, query, 'query');
    const rows = await listSubscriptions(db, {
      siteId: visit.site.id,
      limit: PAGE_SIZE + 1,
      offset,
      ...(status ? { status } : {}),
    });
    const link = (o: number) => {
      const p = new URLSearchParams();
      if (status) p.set('status', status);
      if (o > 0) p.set('offset', String(o));
      return p.size ? `${SUBSCRIPTIONS_PATH}?${p}` : SUBSCRIPTIONS_PATH;
    };
    return {
      title: 'Subscriptions',
      body: (
        <>
          <AdminTitle title="Subscriptions" />
          <GatheredNav current={SUBSCRIPTIONS_PATH} />
          {done ? <AdminNotice kind="done">{done}</AdminNotice> : null}
          <form className="admin-filters" method="get" action={SUBSCRIPTIONS_PATH}>
            <label>
              {'Status '}
              <select name="status" defaultValue={status ?? ''}>
                <option value="">All</option>
                {SUBSCRIPTION_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {SUBSCRIPTION_STATUS_TEXT[s]}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="admin-button">
              Apply
            </button>
          </form>
          <SubscriptionsTable
            rows={rows.slice(0, PAGE_SIZE).map((s) => ({
              id: s.id,
              email: s.email,
              product: s.line.title,
              planText: s.planText,
              status: SUBSCRIPTION_STATUS_TEXT[s.status],
              nextBillingAt: s.nextBillingAt,
            }))}
          />
          <nav className="admin-pager" aria-label="Pages">
            {offset > 0 ? <a href={link(Math.max(0, offset - PAGE_SIZE))}>Previous</a> : null}
            {rows.length > PAGE_SIZE ? <a href={link(offset + PAGE_SIZE)}>Next</a> : null}
          </nav>
        </>
      ),
    };
  };

  const oneView = async (
    visit: AdminVisit,
    id: string,
    notice?: { kind: 'done' | 'error'; text: string },
    status?: number,
  ): Promise<AdminView> => {
    const sub = await getSubscription(db, id, visit.site.id);
    if (!sub)
      return {
        title: 'Not found',
        status: 404,
        body: (
          <>
            <AdminTitle title="Not found" />
            <p>{`There is no subscription ${id}.`}</p>
            <p>
              <a href={SUBSCRIPTIONS_PATH}>Back to the subscriptions</a>
            </p>
          </>
        ),
      };
    const bills = await listBills(db, sub.id);
    const post = { crumb: visit.crumb, crumbField: visit.crumbField };
    const actions = visit.staff.can('gatherings.edit') ? actionsFor(sub) : [];
    return {
      title: `Subscription of ${sub.email}`,
      ...(status ? { status } : {}),
      body: (
        <>
          <p>
            <a href={SUBSCRIPTIONS_PATH}>Subscriptions</a>
          </p>
          <AdminTitle title={`Subscription of ${sub.email}`} />
          {notice ? <AdminNotice kind={notice.kind}>{notice.text}</AdminNotice> : null}
          <div className="admin-card">
            <Facts
              rows={[
                ['Status', SUBSCRIPTION_STATUS_TEXT[sub.status]],
                ['Customer', sub.email],
                ['Product', `${sub.line.title} × ${sub.quantity} (SKU ${sub.sku})`],
                ['Plan', sub.planText],
                ['Started (UTC)', shownTime(sub.startedAt)],
                ['Next billing (UTC)', shownTime(sub.nextBillingAt)],
                ...(sub.cancelledAt ? [['Cancelled (UTC)', shownTime(sub.cancelledAt)] as const] : []),
              ]}
            />
            {actions.length > 0 ? (
              <div className="admin-actions">
                {actions.map((a) => (
                  <ActionForm
                    key={a}
                    post={post}
                    action={`${subscriptionPath(sub.id)}/${a}`}
                    back={subscriptionPath(sub.id)}
                    label={LABEL[a]}
                    danger={a === 'cancel'}
                    {...(a === 'skip' ? { hidden: { period: String(sub.periodsBilled + 1) } } : {})}
                  />
                ))}
              </div>
            ) : null}
          </div>
          <h2>Bills</h2>
          <BillsTable currency={sub.currency} rows={bills} />
        </>
      ),
    };
  };

  app.get(SUBSCRIPTIONS_PATH, { schema: subscriptionsPage }, (request, reply) =>
    pages.answer(request, reply, section, (visit) => listView(request.query, visit)),
  );

  app.get(`${SUBSCRIPTIONS_PATH}/:id`, { schema: subscriptionPage }, (request, reply) =>
    pages.answer(request, reply, section, async (visit) => {
      const { id } = parseInput(subscriptionParams, request.params, 'params');
      const done = doneOf(request.query);
      return oneView(visit, id, done ? { kind: 'done', text: done } : undefined);
    }),
  );

  app.get('/api/admin/gathered/subscriptions', { schema: listSubscriptionsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { status, offset } = parseInput(subscriptionsQuery, request.query, 'query');
    const rows = await listSubscriptions(db, {
      siteId: staff.siteId,
      limit: PAGE_SIZE + 1,
      offset,
      ...(status ? { status } : {}),
    });
    return { subscriptions: rows.slice(0, PAGE_SIZE).map(apiView), offset, hasNextPage: rows.length > PAGE_SIZE };
  });

  app.get('/api/admin/gathered/subscriptions/:id', { schema: getSubscriptionRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { id } = parseInput(subscriptionParams, request.params, 'params');
    const sub = await getSubscription(db, id, staff.siteId);
    if (!sub) throw new ApiError('subscription-not-found', `There is no subscription ${id}.`);
    const bills = await listBills(db, sub.id);
    return {
      subscription: apiView(sub),
      bills: bills.map(({ periodNumber, status, amount, orderNumber, createdAt }) => ({
        periodNumber,
        status,
        amount,
        orderNumber,
        createdAt,
      })),
    };
  });

  void app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    scope.post(
      '/api/admin/gathered/subscriptions/:id/:action',
      { schema: subscriptionActionRoute },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const staff = await requireStaff(request, 'gatherings.edit');
        const { id, action } = parseInput(subscriptionActionParams, request.params, 'params');
        const { period } = parseInput(subscriptionActionBody, request.body ?? {}, 'body');
        const changed = await changeSubscription(db, staff.siteId, id, action, staff.actor, new Date(), {
          ...(period !== undefined ? { period } : {}),
        });
        if (!changed.ok)
          throw new ApiError(
            changed.error.type === 'not-found' ? 'subscription-not-found' : 'subscription-conflict',
            changed.error.message,
          );
        return { subscription: apiView(changed.value) };
      },
    );

    scope.post(`${SUBSCRIPTIONS_PATH}/:id/:action`, { schema: subscriptionActionFormRoute }, async (request, reply) => {
      const { id, action } = parseInput(subscriptionActionParams, request.params, 'params');
      const back = backTo((request.body as { back?: unknown } | undefined)?.back, SUBSCRIPTIONS_PATH);
      const asked = subscriptionActionForm.safeParse(request.body ?? {});
      const period = asked.success ? asked.data.period : undefined;
      return pages.action(request, reply, { section: GATHERED_PATH, permission: 'gatherings.edit' }, async (visit) => {
        const changed = await changeSubscription(db, visit.site.id, id, action, visit.staff.actor, new Date(), {
          ...(period !== undefined ? { period } : {}),
        });
        if (changed.ok) return withDone(back, DONE[action](changed.value));
        return oneView(
          visit,
          id,
          { kind: 'error', text: changed.error.message },
          changed.error.type === 'not-found' ? 404 : 409,
        );
      });
    });
  });
}
