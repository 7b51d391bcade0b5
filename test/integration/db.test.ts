import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect, DatabaseUrlError, engineOf, parseDatabaseUrl } from '../../src/platform/db/connect';
import { migrateToLatest } from '../../src/platform/db/migrations';
import { forEachEngine } from '../support/engines';

describe('parseDatabaseUrl', () => {
  it('reads file paths and sqlite: URLs as SQLite', () => {
    expect(parseDatabaseUrl('./data/vitrine.db')).toEqual({ engine: 'sqlite', file: './data/vitrine.db' });
    expect(parseDatabaseUrl('/var/lib/vitrine.db')).toEqual({ engine: 'sqlite', file: '/var/lib/vitrine.db' });
    expect(parseDatabaseUrl('sqlite:./x.db')).toEqual({ engine: 'sqlite', file: './x.db' });
    expect(parseDatabaseUrl('sqlite:///tmp/x.db')).toEqual({ engine: 'sqlite', file: '/tmp/x.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ engine: 'sqlite', file: ':memory:' });
  });

  it('reads postgres:// and postgresql:// URLs as PostgreSQL', () => {
    expect(parseDatabaseUrl('postgres://u@h:5432/d')).toEqual({ engine: 'postgres', url: 'postgres://u@h:5432/d' });
    expect(parseDatabaseUrl('postgresql://h/d').engine).toBe('postgres');
  });

  it('refuses other forms, naming the accepted ones', () => {
    expect(() => parseDatabaseUrl('mysql://h/d')).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl('mysql://h/d')).toThrow(
      "unsupported database URL 'mysql://h/d'; use a SQLite file path (./data/vitrine.db), a sqlite: URL (sqlite:./data/vitrine.db, sqlite::memory:) or a PostgreSQL URL (postgres://user:password@host:5432/name)",
    );
    expect(() => parseDatabaseUrl('  ')).toThrow(/^the database URL is empty; use a SQLite file path/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/^'sqlite:' names no file/);
  });

  it('opens an in-memory SQLite database with foreign keys on', async () => {
    const handle = connect('sqlite::memory:');
    const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db);
    expect(rows[0]?.foreign_keys).toBe(1);
    await handle.close();
  });
});

forEachEngine((engine, getDb, getFresh) => {
  it('connects to the right engine and creates every table', async () => {
    expect(getFresh().handle.engine).toBe(engine);
    expect(engineOf(getDb())).toBe(engine);
    const all = (await getDb().introspection.getTables()).map((t) => t.name).sort();
    // SQLite's full-text indexes are FTS5 tables with shadow tables of their own: the search's (migration 010) and
    // the owner's searches by a part of a text (migration 027; PostgreSQL uses trigram indexes instead).
    const fts = all.filter((name) => /_fts(_|$)/.test(name));
    const shadows = (table: string) => ['', '_config', '_data', '_docsize', '_idx'].map((s) => `${table}_fts${s}`);
    expect(fts).toEqual(
      engine === 'sqlite'
        ? [
            ...shadows('customers'),
            ...shadows('orders_search'),
            ...shadows('search_documents'),
            ...shadows('variants_search'),
          ]
        : [],
    );
    // SQLite numbers stock changes from a one-row table (migration 016), PostgreSQL from a sequence; the FTS5 tables of
    // migration 027 index side tables with integer keys of their own; the rows waiting for their index (029); the
    // orders not yet counted in their customer and search rows (032).
    const sqliteOnly = ['orders_pending', 'orders_search', 'stock_clock', 'trigram_pending', 'variants_search'];
    expect(all.filter((name) => sqliteOnly.includes(name))).toEqual(engine === 'sqlite' ? sqliteOnly : []);
    const tables = all.filter((name) => !fts.includes(name) && !sqliteOnly.includes(name));
    expect(tables).toEqual([
      'analytics_daily',
      'analytics_events',
      'analytics_report_tokens',
      'analytics_salts',
      'assets',
      'audit_log',
      'captcha_secrets',
      'captcha_solutions',
      'cart_entries',
      'carts',
      'collections',
      'coupon_email_uses',
      'coupon_usage',
      'customers',
      'form_counts',
      'form_keys',
      'form_submissions',
      'forms',
      'fulfilments',
      'gift_card_transactions',
      'gift_cards',
      'low_stock_notices',
      'mailing_list',
      'order_counters',
      'order_lines',
      'order_notes',
      'orders',
      'outbox',
      'page_lock_secrets',
      'pages',
      'payments',
      'post_likes',
      'posts',
      'products',
      'refunds',
      'restock_sign_ups',
      'restock_variants',
      'search_documents',
      'site_user_sessions',
      'site_users',
      'site_version_assets',
      'site_versions',
      'sites',
      'staff_invites',
      'stock_movements',
      'subscription_bills',
      'subscription_carts',
      'subscription_links',
      'subscriptions',
      'variants',
    ]);
  });

  it('is idempotent: migrating again applies nothing', async () => {
    expect(await migrateToLatest(getDb())).toEqual({ applied: [] });
  });

  it('stores big money amounts, blobs and cascades deletes', async () => {
    const db = getDb();
    const now = new Date().toISOString();
    await db
      .insertInto('sites')
      .values({
        id: 's',
        title: 'S',
        domains: '[]',
        is_default: 0,
        currency: 'USD',
        settings: '{}',
        version: 1,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('products')
      .values({ site_id: 's', id: 'p', collection_id: 'c', slug: 'p', position: 0, product_type: 1, data: '{}' })
      .execute();
    await db
      .insertInto('variants')
      .values({
        site_id: 's',
        sku: 'A',
        product_id: 'p',
        position: 0,
        price: 999_999_999_999_999,
        sale_price: null,
        on_sale: 0,
        unlimited: 0,
        qty_in_stock: 3,
        data: '{}',
      })
      .execute();
    await db
      .insertInto('assets')
      .values({
        site_id: 's',
        path: 'a.jpg',
        content_type: 'image/jpeg',
        width: 1,
        height: 1,
        bytes: Buffer.from([0, 1, 255]),
      })
      .execute();
    const variant = await db.selectFrom('variants').selectAll().executeTakeFirstOrThrow();
    expect(variant.price).toBe(999_999_999_999_999);
    expect(variant.sale_price).toBeNull();
    const asset = await db.selectFrom('assets').select('bytes').executeTakeFirstOrThrow();
    expect([...asset.bytes]).toEqual([0, 1, 255]);
    await expect(db.updateTable('variants').set({ qty_in_stock: -1 }).execute()).rejects.toThrow();
    await db.deleteFrom('sites').where('id', '=', 's').execute();
    expect(await db.selectFrom('variants').select('sku').execute()).toEqual([]);
    expect(await db.selectFrom('assets').select('path').execute()).toEqual([]);
  });

  it("finds a site's carts by an index once carts_by_site is gone (migration 015), and a site's deletion takes its carts", async () => {
    const db = getDb();
    const now = new Date().toISOString();
    await db
      .insertInto('sites')
      .values({
        id: 's2',
        title: 'S',
        domains: '[]',
        is_default: 0,
        currency: 'USD',
        settings: '{}',
        version: 1,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('carts')
      .values({
        id: 'c2',
        site_id: 's2',
        created_at: now,
        updated_at: now,
        is_purchased: 0,
        order_id: null,
        claim: null,
      })
      .execute();
    await db
      .insertInto('cart_entries')
      .values({
        id: 'e2',
        cart_id: 'c2',
        item_id: 'p',
        sku: 'A',
        quantity: 1,
        additional_fields: '',
        unit_price: 100,
        created_at: now,
      })
      .execute();
    let plan: string;
    if (engine === 'sqlite') {
      const { rows } = await sql<{
        detail: string;
      }>`explain query plan select id from carts where site_id = 's2'`.execute(db);
      plan = rows.map((row) => row.detail).join('\n');
    } else {
      plan = await db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from carts where site_id = 's2'`.execute(
          connection,
        );
        await sql`reset enable_seqscan`.execute(connection);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    }
    expect(plan).toContain('carts_claim_unique');
    expect(plan).not.toContain('carts_by_site');
    await db.deleteFrom('sites').where('id', '=', 's2').execute();
    expect(await db.selectFrom('carts').select('id').where('id', '=', 'c2').execute()).toEqual([]);
    expect(await db.selectFrom('cart_entries').select('id').where('id', '=', 'e2').execute()).toEqual([]);
  });
});
