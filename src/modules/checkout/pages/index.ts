/**
 * The checkout's pages, made for one visitor (per-visitor page kinds: ../../../render/visitorPageKind.ts; never in the
 * page cache; `Cache-Control: no-store`):
 *   GET  /checkout                 ./checkoutForm.tsx: the form (page type 201) for the cart of the CART cookie
 *   POST /checkout                 ./actions.ts: the same form posted without JavaScript
 *   GET  /checkout/order/{id}      ./orderConfirmed.tsx: order confirmed (page type 202)
 *   GET  /commerce/goto-checkout   ./purchaseRefused.tsx: express checkout (§2): on to /checkout with a cart, else
 *                                  'Unable to Purchase Item'
 */
import fastifyFormbody from '@fastify/formbody';
import type { VisitorPageModule } from '../../../render/visitorPageKind';
import type { AppContext } from '../../../platform/http/appContext';
import { checkoutActions, type CheckoutPageOptions } from './actions';
import { checkoutForm } from './checkoutForm';
import { orderConfirmed } from './orderConfirmed';
import { purchaseRefused } from './purchaseRefused';

export type { CheckoutPageOptions } from './actions';

export function checkoutPages(ctx: AppContext, options: CheckoutPageOptions): VisitorPageModule {
  const form = checkoutForm(ctx);
  return {
    name: 'checkout',
    kinds: [form, orderConfirmed(ctx), purchaseRefused(ctx)],
    // Form posts are parsed here only: the JSON calls elsewhere keep refusing other media types. (The app's body
    // limit applies, so a refusal names the limit it enforces.)
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
    },
    actions: checkoutActions(ctx, options, form),
  };
}
