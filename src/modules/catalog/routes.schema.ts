/** What the inventory call accepts (spec §7 `GET commerce/inventory/stock/?itemId={productId}`, repeatable). */
import { z } from 'zod';
import { INVENTORY_MAX_ITEMS } from '../../core/inventory';

/** A product id of the site file (src/modules/site/schema.ts): anything else names no product and is refused as such. */
const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

const productId = z
  .string({ error: 'must be text' })
  .regex(
    PRODUCT_ID,
    'must be a product id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit',
  );

/** `?itemId=a` or `?itemId=a&itemId=b` (one to INVENTORY_MAX_ITEMS ids); no other parameter is read. */
export const inventoryStockQuery = z.object(
  {
    itemId: z
      .union([productId, z.array(productId)], {
        error: (issue) =>
          issue.input === undefined
            ? 'is required: give the product id, e.g. ?itemId=speckled-mug (repeat it for several products)'
            : 'must be a product id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit',
      })
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .refine((ids) => ids.length >= 1, 'is required: give the product id, e.g. ?itemId=speckled-mug')
      .refine((ids) => ids.length <= INVENTORY_MAX_ITEMS, `may be given at most ${INVENTORY_MAX_ITEMS} times`),
  },
  { error: 'must be a query string' },
);
