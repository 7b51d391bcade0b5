/**
 * Carts: the page's cart claim (adds sent at once by a new visitor, before any of them set the cookie, make one cart)
 * and an index for the expiry of open carts. See docs/architecture.md.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function cartClaims(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('carts').addColumn('claim', 'text').execute();
      // NULLs are distinct on both engines: carts made without a claim never collide.
      await db.schema.createIndex('carts_claim_unique').on('carts').columns(['site_id', 'claim']).unique().execute();
      await db.schema.createIndex('carts_by_updated').on('carts').columns(['is_purchased', 'updated_at']).execute();
    },

    async down(db: Kysely<any>) {
      await db.schema.dropIndex('carts_by_updated').ifExists().execute();
      await db.schema.dropIndex('carts_claim_unique').ifExists().execute();
      await db.schema.alterTable('carts').dropColumn('claim').execute();
    },
  };
}
