/**
 * The owner's customers (src/modules/orders/customers.ts): orders grouped and looked up by the site and the lower-cased
 * e-mail. Without this index a customer's page read all of the site's orders.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function ordersByEmail(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`CREATE INDEX orders_by_site_email ON orders (site_id, lower(email))`.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('orders_by_site_email').ifExists().execute();
    },
  };
}
