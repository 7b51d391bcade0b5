/**
 * Gift cards in the owner's area (issue 25, "what the storefront gathers"): 'gatherings.read' to see,
 * 'gatherings.edit' to disable, through the admin module's helpers.
 *
 * - GET /admin/gathered/gift-cards[?offset] → the list: code's last four, initial and current balance, recipient, state
 * - GET /admin/gathered/gift-cards/:id → one card and its history; POST …/:id/disable (form) → 303 back with a notice
 * - GET /api/admin/gathered/gift-cards[/:id], POST /api/admin/gathered/gift-cards/:id/disable
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import {
  ActionForm,
  cardName,
  Facts,
  GATHERED_PATH,
  GatheredNav,
  GiftCardHistory,
  GiftCardsTable,
  shownTime,
} from '../../ui/admin/Gathered';
import { money } from '../../ui/admin/Orders';
import { backTo, doneOf, requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import {
  disableGiftCardForm,
  disableGiftCardRoute,
  getGiftCardRoute,
  giftCardPage,
  giftCardParams,
  giftCardsPage,
  giftCardsQuery,
  listGiftCardsRoute,
} from './adminRoutes.schema';
import { giftCardState, type GiftCard } from './giftCards';
import { disableGiftCard, getGiftCard, giftCardHistory, pageOfGiftCards, shownCode } from './ownerGiftCards';

export const GIFT_CARDS_PATH = `${GATHERED_PATH}/gift-cards`;
const section = { section: GATHERED_PATH, permission: 'gatherings.read' } as const;
const cardPath = (id: string) => `${GIFT_CARDS_PATH}/${encodeURIComponent(id)}`;

const STATE_TEXT: Record<ReturnType<typeof giftCardState>, string> = {
  disabled: 'Disabled',
  scheduled: 'Scheduled',
  sending: 'Sending',
  'used up': 'Used up',
  active: 'Active',
};

const apiView = (c: GiftCard, now: Date) => ({
  id: c.id,
  lastFour: c.lastFour,
  currency: c.currency,
  initialBalanceCents: c.initialBalanceCents,
  balanceCents: c.balanceCents,
  status: c.status,
  state: giftCardState(c, now),
  recipientName: c.recipientName,
  recipientEmail: c.recipientEmail,
  purchaserEmail: c.purchaserEmail,
  orderId: c.orderId,
  deliveryDate: c.deliveryDate,
  createdAt: c.createdAt,
});

export function registerGiftCardAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const { db } = ctx;

  const cardView = async (
    visit: AdminVisit,
    id: string,
    notice?: { kind: 'done' | 'error'; text: string },
    status?: number,
  ): Promise<AdminView> => {
    const card = await getGiftCard(db, visit.site.id, id);
    if (!card)
      return {
        title: 'Not found',
        status: 404,
        body: (
          <>
            <AdminTitle title="Not found" />
            <p>{`There is no gift card ${id}.`}</p>
            <p>
              <a href={GIFT_CARDS_PATH}>Back to the gift cards</a>
            </p>
          </>
        ),
      };
    const history = await giftCardHistory(db, card.id);
    const title = `Gift card ${cardName(card.lastFour)}`;
    const canDisable = visit.staff.can('gatherings.edit') && card.status !== 'disabled';
    return {
      title,
      ...(status ? { status } : {}),
      body: (
        <>
          <p>
            <a href={GIFT_CARDS_PATH}>Gift cards</a>
          </p>
          <AdminTitle title={title} />
          {notice ? <AdminNotice kind={notice.kind}>{notice.text}</AdminNotice> : null}
          <div className="admin-card">
            <Facts
              rows={[
                ['State', STATE_TEXT[giftCardState(card, new Date())]],
                [
                  'Balance',
                  `${money(card.currency, card.balanceCents)} of ${money(card.currency, card.initialBalanceCents)}`,
                ],
                [
                  'Recipient',
                  card.recipientName ? `${card.recipientName} <${card.recipientEmail}>` : card.recipientEmail,
                ],
                ['Bought by', card.purchaserEmail ?? 'Issued by the shop'],
                ['Delivery date', card.deliveryDate],
                ['Issued (UTC)', shownTime(card.createdAt)],
              ]}
            />
            {canDisable ? (
              <div className="admin-actions">
                <ActionForm
                  post={{ crumb: visit.crumb, crumbField: visit.crumbField }}
                  action={`${cardPath(card.id)}/disable`}
                  back={cardPath(card.id)}
                  label="Disable"
                  detail={`the gift card ${cardName(card.lastFour)}`}
                  danger
                />
              </div>
            ) : null}
          </div>
          <h2>History</h2>
          <GiftCardHistory currency={card.currency} rows={history} />
        </>
      ),
    };
  };

  app.get(GIFT_CARDS_PATH, { schema: giftCardsPage }, (request, reply) =>
    pages.answer(request, reply, section, async (visit) => {
      const { offset, done } = parseInput(giftCardsQuery, request.query, 'query');
      const page = await pageOfGiftCards(db, visit.site.id, offset);
      const now = new Date();
      const link = (o: number) => (o > 0 ? `${GIFT_CARDS_PATH}?offset=${o}` : GIFT_CARDS_PATH);
      return {
        title: 'Gift cards',
        body: (
          <>
            <AdminTitle title="Gift cards" />
            <GatheredNav current={GIFT_CARDS_PATH} />
            {done ? <AdminNotice kind="done">{done}</AdminNotice> : null}
            <GiftCardsTable
              rows={page.cards.map((c) => ({
                id: c.id,
                lastFour: c.lastFour,
                currency: c.currency,
                initialBalanceCents: c.initialBalanceCents,
                balanceCents: c.balanceCents,
                recipientName: c.recipientName,
                recipientEmail: c.recipientEmail,
                state: STATE_TEXT[giftCardState(c, now)],
                createdAt: c.createdAt,
              }))}
            />
            <nav className="admin-pager" aria-label="Pages">
              {offset > 0 ? <a href={link(Math.max(0, offset - 50))}>Previous</a> : null}
              {page.hasNextPage ? <a href={link(offset + 50)}>Next</a> : null}
            </nav>
          </>
        ),
      };
    }),
  );

  app.get(`${GIFT_CARDS_PATH}/:id`, { schema: giftCardPage }, (request, reply) =>
    pages.answer(request, reply, section, async (visit) => {
      const { id } = parseInput(giftCardParams, request.params, 'params');
      const done = doneOf(request.query);
      return cardView(visit, id, done ? { kind: 'done', text: done } : undefined);
    }),
  );

  app.get('/api/admin/gathered/gift-cards', { schema: listGiftCardsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { offset } = parseInput(giftCardsQuery, request.query, 'query');
    const page = await pageOfGiftCards(db, staff.siteId, offset);
    const now = new Date();
    return { giftCards: page.cards.map((c) => apiView(c, now)), offset, hasNextPage: page.hasNextPage };
  });

  app.get('/api/admin/gathered/gift-cards/:id', { schema: getGiftCardRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { id } = parseInput(giftCardParams, request.params, 'params');
    const card = await getGiftCard(db, staff.siteId, id);
    if (!card) throw new ApiError('gift-card-not-found', `There is no gift card ${id}.`);
    return { giftCard: apiView(card, new Date()), history: await giftCardHistory(db, card.id) };
  });

  void app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    scope.post(
      '/api/admin/gathered/gift-cards/:id/disable',
      { schema: disableGiftCardRoute },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const staff = await requireStaff(request, 'gatherings.edit');
        const { id } = parseInput(giftCardParams, request.params, 'params');
        const done = await disableGiftCard(db, staff.siteId, id, staff.actor);
        if (!done.ok)
          throw new ApiError(
            done.error.type === 'not-found' ? 'gift-card-not-found' : 'gift-card-conflict',
            done.error.message,
          );
        return { giftCard: apiView(done.value, new Date()) };
      },
    );

    scope.post(`${GIFT_CARDS_PATH}/:id/disable`, { schema: disableGiftCardForm }, async (request, reply) => {
      const { id } = parseInput(giftCardParams, request.params, 'params');
      const back = backTo((request.body as { back?: unknown } | undefined)?.back, GIFT_CARDS_PATH);
      return pages.action(request, reply, { section: GATHERED_PATH, permission: 'gatherings.edit' }, async (visit) => {
        const done = await disableGiftCard(db, visit.site.id, id, visit.staff.actor);
        if (done.ok)
          return withDone(
            back,
            `Disabled the gift card ${shownCode(done.value)}: it can no longer be used at checkout.`,
          );
        return cardView(
          visit,
          id,
          { kind: 'error', text: done.error.message },
          done.error.type === 'not-found' ? 404 : 409,
        );
      });
    });
  });
}
