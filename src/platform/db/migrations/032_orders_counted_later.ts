/**
 * SQLite: an order's search row and its customer's counts are written a moment after the order, not in its
 * transaction (place order's time, issue 25). On SQLite every B-tree page an order changes is written to the WAL at
 * its commit; 027's triggers made each order also write orders_search (its table, its order_id index), its customer
 * (the row, its e-mail key, customers_newest) and two rows of trigram_pending (029): five more B-trees an order.
 *
 * - orders_pending (order_id): the orders not yet in orders_search and customers. An order's insert adds its id here
 *   (one small B-tree, emptied every minute) instead.
 * - Deleting a pending row counts its order (the trigger orders_pending_counted: 027's orders_search row and
 *   customer upsert, from the order as it is then). src/modules/orders/counted.ts `countPendingOrders` deletes them
 *   all, in one write transaction, before the customers or an order search are read, and a job does it every minute:
 *   a reader sees every order placed before it.
 * - A change of a pending order touches neither (it is counted as it is when its turn comes): 027's
 *   orders_customer_changed now runs only for counted orders (orders_search_changed updates no row of a pending one).
 *   An order removed while pending leaves the list uncounted; a counted one is taken out of its customer as before.
 * PostgreSQL keeps 027's triggers: its writes are not paid per page at a commit the same way, and its place order has
 * costs of its own (issue 27).
 * It runs no module code: the triggers are SQL of the schema of its day (027's, shared).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';
import { CUSTOMER_COLUMNS, customerChange, customerRemoval, customerUpsert, shippingName } from './027_admin_searches';

const trigger = (name: string, when: string, table: string, condition: string, statements: readonly string[]) =>
  sql.raw(`CREATE TRIGGER ${name} ${when} ON ${table} FOR EACH ROW${condition ? ` WHEN ${condition}` : ''}
   BEGIN ${statements.map((s) => `${s};`).join(' ')} END`);

const COUNTED = 'NOT EXISTS (SELECT 1 FROM orders_pending WHERE order_id = OLD.id)';

/** 027's search row of an order (`row`: NEW, or a row of `from`). */
const searchRow = (row: string, from?: string) =>
  `INSERT INTO orders_search (order_id, email, name) ${from === undefined ? 'VALUES (' : 'SELECT '}${row}.id, ${row}.email, ${shippingName('sqlite', row)}${from === undefined ? ')' : ` ${from}`}`;

export function ordersCountedLater(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') return;
      await sql`CREATE TABLE orders_pending (order_id TEXT PRIMARY KEY) WITHOUT ROWID`.execute(db);
      const order = 'FROM orders o WHERE o.id = OLD.order_id';
      await trigger('orders_pending_counted', 'AFTER DELETE', 'orders_pending', '', [
        searchRow('o', order),
        customerUpsert('sqlite', 'o', order),
      ]).execute(db);
      for (const name of ['orders_search_added', 'orders_customer_added', 'orders_customer_changed'])
        await sql.raw(`DROP TRIGGER ${name}`).execute(db);
      await sql.raw(`DROP TRIGGER orders_customer_removed`).execute(db);
      await trigger('orders_pending_added', 'AFTER INSERT', 'orders', '', [
        'INSERT INTO orders_pending (order_id) VALUES (NEW.id)',
      ]).execute(db);
      await trigger(
        'orders_customer_changed',
        `AFTER UPDATE OF ${CUSTOMER_COLUMNS}`,
        'orders',
        COUNTED,
        customerChange('sqlite'),
      ).execute(db);
      // One trigger, so that its statements run in this order: a counted order taken out of its customer, then a
      // pending one's row dropped (its trigger then finds no order to count).
      await trigger('orders_customer_removed', 'AFTER DELETE', 'orders', '', [
        ...customerRemoval.map((statement) => `${statement} AND ${COUNTED}`),
        'DELETE FROM orders_pending WHERE order_id = OLD.id',
      ]).execute(db);
    },
    async down(db: Kysely<any>) {
      if (engine === 'postgres') return;
      // The orders still waiting are counted, then 027's triggers come back.
      await sql`DELETE FROM orders_pending`.execute(db);
      for (const name of [
        'orders_pending_counted',
        'orders_pending_added',
        'orders_customer_changed',
        'orders_customer_removed',
      ])
        await sql.raw(`DROP TRIGGER ${name}`).execute(db);
      await sql`DROP TABLE orders_pending`.execute(db);
      await trigger('orders_search_added', 'AFTER INSERT', 'orders', '', [searchRow('NEW')]).execute(db);
      await trigger('orders_customer_added', 'AFTER INSERT', 'orders', '', [customerUpsert('sqlite', 'NEW')]).execute(
        db,
      );
      await trigger(
        'orders_customer_changed',
        `AFTER UPDATE OF ${CUSTOMER_COLUMNS}`,
        'orders',
        '',
        customerChange('sqlite'),
      ).execute(db);
      await trigger('orders_customer_removed', 'AFTER DELETE', 'orders', '', customerRemoval).execute(db);
    },
  };
}
