/**
 * An order's page at /checkout/order/{id} (page type 202), made for whoever holds its address: the unguessable id is
 * the only key to it, so the address must not leak as a Referer, nor be kept.
 */
import { z } from 'zod';
import { PageType } from '../../../core/enums';
import { deliveryNote, todayIn } from '../../../core/giftCard';
import { billingDateText } from '../../../core/subscriptionSchedule';
import { htmlAnswer, pageRoute } from '../../../platform/http/apiDescription';
import { ANSWERED, visitorPageKind } from '../../../render/visitorPageKind';
import type { AppContext } from '../../../platform/http/appContext';
import { OrderConfirmedPage } from '../../../ui/checkout/CheckoutPages';
import { giftCardPaymentsOfOrder, giftCardsBoughtByOrder } from '../../giftCards';
import { getOrder, type Order } from '../../orders';
import { subscriptionOfOrder } from '../../subscriptions';
import { orderPath, ORDER_PATH_PREFIX } from '../paths';
import { shopPath } from './shared';

/** An order id as orders are made (random, base64url); anything else is not an order. */
const ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface OrderPageData {
  order: Order;
  subscription: Awaited<ReturnType<typeof subscriptionOfOrder>>;
  giftCards: Awaited<ReturnType<typeof giftCardPaymentsOfOrder>>;
  giftCardsBought: { recipientName: string; message: string; note: string }[];
  shop: string;
}

export const orderConfirmed = (ctx: AppContext) =>
  visitorPageKind<OrderPageData>({
    name: 'orderConfirmed',
    paths: [`${ORDER_PATH_PREFIX}:orderId`],
    route: {
      schema: pageRoute('orderPage', 'An order’s page (the address is the secret)', {
        params: z.object({ orderId: z.string() }),
        response: { 404: htmlAnswer('No such order.') },
      }),
      // After the app's own headers: the address is the secret, so it must not leak as a Referer, nor be kept.
      onSend: async (_request, reply, payload) => {
        reply
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'private, no-store')
          .header('x-robots-tag', 'noindex');
        return payload;
      },
    },
    headers: { 'cache-control': 'no-store' },
    load: async ({ request, reply, site }) => {
      const { orderId } = request.params as { orderId: string };
      const order = ORDER_ID.test(orderId) ? await getOrder(ctx.db, site.id, orderId) : undefined;
      if (!order) {
        await (ctx.notFoundPage ? ctx.notFoundPage(request, reply) : reply.callNotFound());
        return ANSWERED;
      }
      // An order of a subscription (its first period or a renewal) says which plan it belongs to.
      const subscription = await subscriptionOfOrder(ctx.db, site.id, order.id);
      const giftCards = await giftCardPaymentsOfOrder(ctx.db, order.id);
      const today = todayIn(site.settings.timeZone, new Date());
      const giftCardsBought = (await giftCardsBoughtByOrder(ctx.db, order.id, site.settings.timeZone)).map((card) => ({
        recipientName: card.recipientName,
        message: card.message,
        note: deliveryNote(card, today),
      }));
      return { order, subscription, giftCards, giftCardsBought, shop: await shopPath(ctx, site) };
    },
    view: ({ site }, { order, subscription, giftCards, giftCardsBought, shop }) => ({
      path: orderPath(order.id),
      pageType: PageType.ORDER_CONFIRMED,
      title: `Order ${order.number}`,
      description: `Your order at ${site.title}.`,
      noReferrer: true,
      body: (
        <OrderConfirmedPage
          order={order}
          siteId={site.id}
          manualInstructions={site.settings.store.checkout.payments.manualInstructions}
          shopPath={shop}
          giftCards={giftCards}
          giftCardsBought={giftCardsBought}
          {...(subscription
            ? {
                subscription: {
                  planText: subscription.planText,
                  nextBilling:
                    subscription.status === 'active' && subscription.nextBillingAt
                      ? billingDateText(new Date(subscription.nextBillingAt), site.settings.timeZone)
                      : null,
                },
              }
            : {})}
        />
      ),
    }),
  });
