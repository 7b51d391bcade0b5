/**
 * The inventory call of spec §7: `GET /api/commerce/inventory/stock/?itemId={productId}` (repeat itemId for several
 * products) → `{ results: [{ itemId, variantId, unlimited, qtyInStock }] }`, one per variant, read now. The add
 * buttons ask it before a custom product form opens (§4). Never cached (`no-store`): stock changes with every sale.
 * Rate-limited as the cart routes are (its own budget, and a share of the client's).
 */
import type { FastifyInstance } from 'fastify';
import { INVENTORY_STOCK_PATH } from '../../core/inventory';
import { getInventoryStock } from './inventory';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { siteOf } from '../site';
import { writeRouteConfig } from '../../platform/http/rateLimits';
import { parseInput } from '../../platform/http/validation';
import { inventoryStockQuery, inventoryStockRoute } from './routes.schema';

export function registerInventoryRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: { rateLimitPerMinute: number },
): void {
  const config = writeRouteConfig(options.rateLimitPerMinute);
  // The spec's path ends with a slash; the same call without it answers the same.
  for (const url of [INVENTORY_STOCK_PATH, INVENTORY_STOCK_PATH.replace(/\/$/, '')]) {
    // The alias without the slash is not listed twice in docs/openapi.json.
    const schema = url === INVENTORY_STOCK_PATH ? inventoryStockRoute : { ...inventoryStockRoute, hide: true };
    app.get(url, { config, schema }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { itemId } = parseInput(inventoryStockQuery, request.query, 'query');
      const site = await siteOf(request);
      const stock = await getInventoryStock(ctx.db, site, itemId);
      if (!stock.ok) {
        const ids = stock.error.itemIds.map((id) => `'${id}'`).join(', ');
        throw new ApiError(
          'product-not-found',
          stock.error.itemIds.length === 1 ? `No product has the id ${ids}.` : `No products have the ids ${ids}.`,
          {
            field: 'itemId',
          },
        );
      }
      return { results: stock.value };
    });
  }
}
