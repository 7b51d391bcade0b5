/**
 * The cart's page made for one visitor (a per-visitor page kind: src/render/visitorPageKind.ts), with its form actions:
 *   GET  /cart          ./visitorCart.tsx: for a visitor with a cart cookie (the page route hands it those requests)
 *   POST /cart/update   ./actions.ts: a line's quantity, without JavaScript
 *   POST /cart/remove   ./actions.ts: a line removed, without JavaScript
 */
import fastifyFormbody from '@fastify/formbody';
import type { VisitorPageModule } from '../../../render/visitorPageKind';
import type { AppContext } from '../../../platform/http/appContext';
import { cartActions } from './actions';
import { visitorCart } from './visitorCart';

export { wantsVisitorCart } from './visitorCart';

export function cartPages(ctx: AppContext, options: { rateLimitPerMinute: number }): VisitorPageModule {
  return {
    name: 'cart',
    kinds: [visitorCart(ctx)],
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
    },
    actions: cartActions(ctx, options),
  };
}
