/**
 * The cart's pages made for one visitor (per-visitor page kinds: src/render/visitorPageKind.ts), with their form
 * actions (all without JavaScript):
 *   GET  /cart          ./visitorCart.tsx: for a visitor with a cart cookie (the page route hands it those requests)
 *   POST /cart/add      ./addToCart.ts: every add button's form; 303 back (a notice), or ./productForm.tsx: a
 *                       product's custom form as a page (shown by this action only)
 *   POST /cart/update   ./actions.ts: a line's quantity
 *   POST /cart/remove   ./actions.ts: a line removed
 */
import fastifyFormbody from '@fastify/formbody';
import type { VisitorPageModule } from '../../../render/visitorPageKind';
import type { AppContext } from '../../../platform/http/appContext';
import { cartActions } from './actions';
import { addToCartAction } from './addToCart';
import { productForm } from './productForm';
import { visitorCart } from './visitorCart';

export { wantsVisitorCart } from './visitorCart';

export function cartPages(ctx: AppContext, options: { rateLimitPerMinute: number }): VisitorPageModule {
  const formPage = productForm(ctx);
  const add = addToCartAction(ctx, options, formPage);
  const lines = cartActions(ctx, options);
  return {
    name: 'cart',
    kinds: [visitorCart(ctx), formPage],
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
    },
    actions: (scope, pages) => {
      add(scope, pages);
      lines(scope);
    },
  };
}
