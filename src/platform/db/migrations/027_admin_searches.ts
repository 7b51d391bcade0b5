/**
 * The owner's area without walks (issue 25): its searches by a part of a text served by a trigram index, and its
 * counts kept as they change rather than counted at each read.
 * - Searches by a part of a text (3 characters or more: src/core/adminSearch.ts), on each engine its own index of
 *   trigrams, matching the same rows:
 *   - PostgreSQL: the pg_trgm extension (PostgreSQL's contrib) and GIN trigram indexes on the texts searched — the
 *     orders' lower(email) and shipping name (an expression of shipping_address), the variants' lower(sku) and
 *     lower(product_name), the customers' email and lower(name);
 *   - SQLite: FTS5 tables with `tokenize='trigram'`, external content on a table of their own with an INTEGER PRIMARY
 *     KEY (a VACUUM never renumbers the rows they point at, as in 010): orders_search (an order's e-mail and shipping
 *     name) and variants_search (a variant's SKU and product name), each filled by triggers on its table, in the
 *     writing statement's transaction; the customers' own table has its id.
 * - variants.product_name: the product's name, copied onto its variants by the import (as 026's product_position),
 *   filled here from products' JSON.
 * - customers: one row per site and lower-cased e-mail — the latest order's shipping name, how many orders, the total
 *   of the paid orders in the site's currency, the last order — kept by triggers on orders (an order placed, its
 *   status or total changed by a refund, an order deleted) as deltas applied in SQL (an upsert: two orders by the
 *   same e-mail at once both count), filled here from the orders.
 * - form_counts: each form's submissions and the last one's time, kept by triggers on form_submissions, filled here.
 * It runs no module code: the triggers and the backfills are SQL of the schema of its day.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

/** The SQL of an order row's shipping name, `row` being NEW, OLD or the table's name. */
export const shippingName = (engine: Engine, row: string) =>
  engine === 'postgres'
    ? `trim(coalesce(${row}.shipping_address::json->>'firstName', '') || ' ' || coalesce(${row}.shipping_address::json->>'lastName', ''))`
    : `trim(coalesce(json_extract(${row}.shipping_address, '$.firstName'), '') || ' ' || coalesce(json_extract(${row}.shipping_address, '$.lastName'), ''))`;

/** What an order adds to its customer's total spent: its total when paid in the site's currency (as the page shows). */
export const spent = (row: string) =>
  `(CASE WHEN ${row}.status = 'paid' AND ${row}.currency = (SELECT s.currency FROM sites s WHERE s.id = ${row}.site_id) THEN ${row}.grand_total ELSE 0 END)`;

/**
 * The customer's row for an order: its e-mail's orders so far, from the order's own columns (`row`: NEW; or, with
 * `from`, a row of that FROM clause: `FROM orders o WHERE …`, as migration 032 counts an order later).
 */
export const customerUpsert = (engine: Engine, row: string, from?: string) => `
  INSERT INTO customers (site_id, email, name, orders_count, total_spent, last_order_at)
  ${from === undefined ? 'VALUES (' : 'SELECT '}${row}.site_id, lower(${row}.email), ${shippingName(engine, row)}, 1, ${spent(row)}, ${row}.created_at${from === undefined ? ')' : ` ${from}`}
  ON CONFLICT (site_id, email) DO UPDATE SET
    orders_count = customers.orders_count + 1,
    total_spent = customers.total_spent + excluded.total_spent,
    name = CASE WHEN excluded.name <> '' AND excluded.last_order_at >= customers.last_order_at
      THEN excluded.name ELSE customers.name END,
    last_order_at = CASE WHEN excluded.last_order_at > customers.last_order_at
      THEN excluded.last_order_at ELSE customers.last_order_at END`;

/** A customer's last order and name made again from their orders (index orders_by_site_email), `row` their order. */
const customerRecomputed = (engine: Engine, row: string) => `
  UPDATE customers SET
    last_order_at = coalesce((SELECT max(o.created_at) FROM orders o
      WHERE o.site_id = ${row}.site_id AND lower(o.email) = lower(${row}.email)), last_order_at),
    name = coalesce((SELECT ${shippingName(engine, 'o')} FROM orders o
      WHERE o.site_id = ${row}.site_id AND lower(o.email) = lower(${row}.email) AND ${shippingName(engine, 'o')} <> ''
      ORDER BY o.created_at DESC, o.number DESC LIMIT 1), '')
  WHERE site_id = ${row}.site_id AND email = lower(${row}.email)`;

/**
 * An order changed (a refund's status, or any column the customer's row is made of): its old self taken out of its
 * customer, its new self put in (deltas, in SQL); the last order and name made again when its time, address or
 * e-mail changed; a customer left with no order removed.
 */
export const customerChange = (engine: Engine) => {
  const differs = (column: string) =>
    engine === 'postgres' ? `OLD.${column} IS DISTINCT FROM NEW.${column}` : `OLD.${column} IS NOT NEW.${column}`;
  const moved = `(${differs('created_at')} OR ${differs('shipping_address')} OR lower(OLD.email) <> lower(NEW.email))`;
  return [
    `UPDATE customers SET orders_count = orders_count - 1, total_spent = total_spent - ${spent('OLD')}
     WHERE site_id = OLD.site_id AND email = lower(OLD.email)`,
    customerUpsert(engine, 'NEW'),
    `${customerRecomputed(engine, 'NEW')} AND ${moved}`,
    `${customerRecomputed(engine, 'OLD')} AND lower(OLD.email) <> lower(NEW.email)`,
    `DELETE FROM customers WHERE site_id = OLD.site_id AND email = lower(OLD.email) AND orders_count <= 0`,
  ];
};

/** The columns of an order its customer's row is made of. */
export const CUSTOMER_COLUMNS = 'email, status, grand_total, currency, created_at, shipping_address';

export const customerRemoval = [
  `UPDATE customers SET orders_count = orders_count - 1, total_spent = total_spent - ${spent('OLD')},
     last_order_at = coalesce((SELECT max(o.created_at) FROM orders o
       WHERE o.site_id = OLD.site_id AND lower(o.email) = lower(OLD.email)), last_order_at)
   WHERE site_id = OLD.site_id AND email = lower(OLD.email)`,
  `DELETE FROM customers WHERE site_id = OLD.site_id AND email = lower(OLD.email) AND orders_count <= 0`,
];

const formCountUpsert = `
  INSERT INTO form_counts (site_id, form_id, form_name, submissions, last_at)
  VALUES (NEW.site_id, NEW.form_id, NEW.form_name, 1, NEW.created_at)
  ON CONFLICT (site_id, form_id) DO UPDATE SET
    submissions = form_counts.submissions + 1,
    form_name = CASE WHEN excluded.last_at >= form_counts.last_at THEN excluded.form_name ELSE form_counts.form_name END,
    last_at = CASE WHEN excluded.last_at > form_counts.last_at THEN excluded.last_at ELSE form_counts.last_at END`;

const formCountRemoval = [
  `UPDATE form_counts SET submissions = submissions - 1,
     last_at = coalesce((SELECT max(f.created_at) FROM form_submissions f
       WHERE f.site_id = OLD.site_id AND f.form_id = OLD.form_id), last_at)
   WHERE site_id = OLD.site_id AND form_id = OLD.form_id`,
  `DELETE FROM form_counts WHERE site_id = OLD.site_id AND form_id = OLD.form_id AND submissions <= 0`,
];

/** PostgreSQL: a trigger function running `statements`, and its trigger. */
async function pgTrigger(
  db: Kysely<any>,
  name: string,
  when: string,
  table: string,
  statements: readonly string[],
): Promise<void> {
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${statements.map((s) => `${s};`).join('\n')}
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql.raw(`CREATE TRIGGER ${name} ${when} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`).execute(db);
}

/** SQLite: a trigger running `statements`. */
const sqliteTrigger = (db: Kysely<any>, name: string, when: string, table: string, statements: readonly string[]) =>
  sql
    .raw(
      `CREATE TRIGGER ${name} ${when} ON ${table} FOR EACH ROW BEGIN ${statements.map((s) => `${s};`).join(' ')} END`,
    )
    .execute(db);

/** SQLite: an FTS5 trigram index of `columns` of `table` (its `id` the rowid), kept in step by triggers on `table`. */
async function sqliteTrigramIndex(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  const fts = `${table}_fts`;
  const list = columns.join(', ');
  const of = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
  await sql
    .raw(`CREATE VIRTUAL TABLE ${fts} USING fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram')`)
    .execute(db);
  await sqliteTrigger(db, `${table}_fts_ai`, 'AFTER INSERT', table, [
    `INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${of('new')})`,
  ]);
  await sqliteTrigger(db, `${table}_fts_ad`, 'AFTER DELETE', table, [
    `INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${of('old')})`,
  ]);
  await sqliteTrigger(db, `${table}_fts_au`, `AFTER UPDATE OF ${list}`, table, [
    `INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${of('old')})`,
    `INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${of('new')})`,
  ]);
}

const PG_TRIGGERS: [name: string, table: string][] = [
  ['orders_customer_added', 'orders'],
  ['orders_customer_changed', 'orders'],
  ['orders_customer_removed', 'orders'],
  ['form_submissions_counted', 'form_submissions'],
  ['form_submissions_uncounted', 'form_submissions'],
];

const SQLITE_TRIGGERS = [
  ...PG_TRIGGERS.map(([name]) => name),
  'orders_search_added',
  'orders_search_changed',
  'orders_search_removed',
  'variants_search_added',
  'variants_search_changed',
  'variants_search_removed',
  ...['orders_search', 'variants_search', 'customers'].flatMap((t) => [`${t}_fts_ai`, `${t}_fts_ad`, `${t}_fts_au`]),
];

export function adminSearches(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      const pg = engine === 'postgres';
      // The products' names on their variants.
      await db.schema
        .alterTable('variants')
        .addColumn('product_name', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql
        .raw(
          `UPDATE variants SET product_name = coalesce((SELECT ${
            pg ? `p.data::json->>'name'` : `json_extract(p.data, '$.name')`
          } FROM products p WHERE p.site_id = variants.site_id AND p.id = variants.product_id), '')`,
        )
        .execute(db);

      await db.schema
        .createTable('customers')
        .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('orders_count', 'integer', (c) => c.notNull())
        .addColumn('total_spent', 'bigint', (c) => c.notNull())
        .addColumn('last_order_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('customers_email', ['site_id', 'email'])
        .execute();
      await sql`CREATE INDEX customers_newest ON customers (site_id, last_order_at DESC, email)`.execute(db);

      await db.schema
        .createTable('form_counts')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('form_id', 'text', (c) => c.notNull())
        .addColumn('form_name', 'text', (c) => c.notNull())
        .addColumn('submissions', 'integer', (c) => c.notNull())
        .addColumn('last_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('form_counts_pk', ['site_id', 'form_id'])
        .execute();

      // The backfills, before the triggers (which would count again what is filled here).
      await sql
        .raw(
          `INSERT INTO customers (site_id, email, name, orders_count, total_spent, last_order_at)
           SELECT g.site_id, g.email, coalesce((SELECT ${shippingName(engine, 'n')} FROM orders n
               WHERE n.site_id = g.site_id AND lower(n.email) = g.email AND n.shipping_address IS NOT NULL
                 AND ${shippingName(engine, 'n')} <> ''
               ORDER BY n.created_at DESC, n.number DESC LIMIT 1), ''), g.orders_count, g.total_spent, g.last_order_at
           FROM (SELECT o.site_id, lower(o.email) AS email, count(*) AS orders_count, sum(${spent('o')}) AS total_spent,
               max(o.created_at) AS last_order_at
             FROM orders o GROUP BY o.site_id, lower(o.email)) g`,
        )
        .execute(db);
      await sql`INSERT INTO form_counts (site_id, form_id, form_name, submissions, last_at)
        SELECT site_id, form_id, max(form_name), count(*), max(created_at) FROM form_submissions
        GROUP BY site_id, form_id`.execute(db);

      if (pg) {
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
        await sql.raw(`CREATE INDEX orders_email_trigrams ON orders USING gin (lower(email) gin_trgm_ops)`).execute(db);
        await sql
          .raw(
            `CREATE INDEX orders_name_trigrams ON orders USING gin (lower(${shippingName(engine, 'orders')}) gin_trgm_ops)`,
          )
          .execute(db);
        await sql`CREATE INDEX variants_sku_trigrams ON variants USING gin (lower(sku) gin_trgm_ops)`.execute(db);
        await sql`CREATE INDEX variants_name_trigrams ON variants USING gin (lower(product_name) gin_trgm_ops)`.execute(
          db,
        );
        await sql`CREATE INDEX customers_email_trigrams ON customers USING gin (email gin_trgm_ops)`.execute(db);
        await sql`CREATE INDEX customers_name_trigrams ON customers USING gin (lower(name) gin_trgm_ops)`.execute(db);
        await pgTrigger(db, 'orders_customer_added', 'AFTER INSERT', 'orders', [customerUpsert(engine, 'NEW')]);
        await pgTrigger(
          db,
          'orders_customer_changed',
          `AFTER UPDATE OF ${CUSTOMER_COLUMNS}`,
          'orders',
          customerChange(engine),
        );
        await pgTrigger(db, 'orders_customer_removed', 'AFTER DELETE', 'orders', customerRemoval);
        await pgTrigger(db, 'form_submissions_counted', 'AFTER INSERT', 'form_submissions', [formCountUpsert]);
        await pgTrigger(db, 'form_submissions_uncounted', 'AFTER DELETE', 'form_submissions', formCountRemoval);
        return;
      }

      // SQLite: the searched texts in tables of their own, each with its FTS5 trigram index.
      await sql`CREATE TABLE orders_search (id INTEGER PRIMARY KEY, order_id TEXT NOT NULL UNIQUE,
        email TEXT NOT NULL, name TEXT NOT NULL)`.execute(db);
      await sqliteTrigramIndex(db, 'orders_search', ['email', 'name']);
      await sql
        .raw(
          `INSERT INTO orders_search (order_id, email, name)
           SELECT id, email, ${shippingName(engine, 'orders')} FROM orders ORDER BY rowid`,
        )
        .execute(db);
      await sqliteTrigger(db, 'orders_search_added', 'AFTER INSERT', 'orders', [
        `INSERT INTO orders_search (order_id, email, name)
         VALUES (NEW.id, NEW.email, ${shippingName(engine, 'NEW')})`,
      ]);
      await sqliteTrigger(db, 'orders_search_changed', 'AFTER UPDATE OF email, shipping_address', 'orders', [
        `UPDATE orders_search SET email = NEW.email, name = ${shippingName(engine, 'NEW')} WHERE order_id = NEW.id`,
      ]);
      await sqliteTrigger(db, 'orders_search_removed', 'AFTER DELETE', 'orders', [
        `DELETE FROM orders_search WHERE order_id = OLD.id`,
      ]);

      await sql`CREATE TABLE variants_search (id INTEGER PRIMARY KEY, site_id TEXT NOT NULL, sku TEXT NOT NULL,
        product_name TEXT NOT NULL, UNIQUE (site_id, sku))`.execute(db);
      await sqliteTrigramIndex(db, 'variants_search', ['sku', 'product_name']);
      await sql`INSERT INTO variants_search (site_id, sku, product_name)
        SELECT site_id, sku, product_name FROM variants`.execute(db);
      await sqliteTrigger(db, 'variants_search_added', 'AFTER INSERT', 'variants', [
        `INSERT INTO variants_search (site_id, sku, product_name)
         VALUES (NEW.site_id, NEW.sku, NEW.product_name)`,
      ]);
      await sqliteTrigger(db, 'variants_search_changed', 'AFTER UPDATE OF sku, product_name', 'variants', [
        `UPDATE variants_search SET sku = NEW.sku, product_name = NEW.product_name
         WHERE site_id = OLD.site_id AND sku = OLD.sku`,
      ]);
      await sqliteTrigger(db, 'variants_search_removed', 'AFTER DELETE', 'variants', [
        `DELETE FROM variants_search WHERE site_id = OLD.site_id AND sku = OLD.sku`,
      ]);

      await sqliteTrigramIndex(db, 'customers', ['email', 'name']);
      await sql`INSERT INTO customers_fts(customers_fts) VALUES ('rebuild')`.execute(db);
      await sqliteTrigger(db, 'orders_customer_added', 'AFTER INSERT', 'orders', [customerUpsert(engine, 'NEW')]);
      await sqliteTrigger(
        db,
        'orders_customer_changed',
        `AFTER UPDATE OF ${CUSTOMER_COLUMNS}`,
        'orders',
        customerChange(engine),
      );
      await sqliteTrigger(db, 'orders_customer_removed', 'AFTER DELETE', 'orders', customerRemoval);
      await sqliteTrigger(db, 'form_submissions_counted', 'AFTER INSERT', 'form_submissions', [formCountUpsert]);
      await sqliteTrigger(db, 'form_submissions_uncounted', 'AFTER DELETE', 'form_submissions', formCountRemoval);
    },

    async down(db: Kysely<any>) {
      if (engine === 'postgres') {
        for (const [name, table] of PG_TRIGGERS) {
          await sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`).execute(db);
          await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(db);
        }
        for (const index of [
          'orders_email_trigrams',
          'orders_name_trigrams',
          'variants_sku_trigrams',
          'variants_name_trigrams',
        ])
          await db.schema.dropIndex(index).ifExists().execute();
      } else {
        for (const name of SQLITE_TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
        for (const table of [
          'customers_fts',
          'variants_search_fts',
          'variants_search',
          'orders_search_fts',
          'orders_search',
        ])
          await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
      }
      await db.schema.dropTable('form_counts').ifExists().execute();
      await db.schema.dropTable('customers').ifExists().execute();
      await db.schema.alterTable('variants').dropColumn('product_name').execute();
    },
  };
}
