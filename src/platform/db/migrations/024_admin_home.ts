/**
 * The figures of the owner's home at /admin (issue 25), each counted from an index of exactly what it counts:
 * - the orders to fulfil: paid and pending (site, fulfilment, status), not every pending order of the site;
 * - the restock sign-ups waiting for their e-mail (site, notified_at null), not every sign-up ever e-mailed.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function adminHome(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('orders_to_fulfil')
        .on('orders')
        .columns(['site_id', 'fulfilment', 'status'])
        .execute();
      await db.schema
        .createIndex('restock_sign_ups_waiting')
        .on('restock_sign_ups')
        .columns(['site_id', 'notified_at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('restock_sign_ups_waiting').execute();
      await db.schema.dropIndex('orders_to_fulfil').execute();
    },
  };
}
