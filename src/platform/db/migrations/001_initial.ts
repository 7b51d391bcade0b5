/** The first schema: sites and their catalog, assets, carts. See docs/architecture.md. */
import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function initial(engine: Engine): Migration {
  // Money needs 15 digits: BIGINT on PostgreSQL (pg returns it as a number, see connect.ts); SQLite integers are 64-bit.
  const binary = engine === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('domains', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('collections')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('collections_pk', ['site_id', 'id'])
        .addUniqueConstraint('collections_slug_unique', ['site_id', 'slug'])
        .execute();

      await db.schema
        .createTable('products')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('product_type', 'integer', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('products_pk', ['site_id', 'id'])
        .addUniqueConstraint('products_slug_unique', ['site_id', 'collection_id', 'slug'])
        .execute();
      await db.schema
        .createIndex('products_by_collection')
        .on('products')
        .columns(['site_id', 'collection_id', 'position'])
        .execute();

      await db.schema
        .createTable('variants')
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('sale_price', 'bigint')
        .addColumn('on_sale', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unlimited', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('qty_in_stock', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('variants_pk', ['site_id', 'sku'])
        .addForeignKeyConstraint(
          'variants_product_fk',
          ['site_id', 'product_id'],
          'products',
          ['site_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .addCheckConstraint('variants_stock_not_negative', sql`qty_in_stock >= 0`)
        .execute();
      await db.schema
        .createIndex('variants_by_product')
        .on('variants')
        .columns(['site_id', 'product_id', 'position'])
        .execute();

      for (const table of ['forms', 'pages', 'posts'] as const) {
        let builder: CreateTableBuilder<string, string> = db.schema
          .createTable(table)
          .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('id', 'text', (c) => c.notNull());
        if (table === 'pages') builder = builder.addColumn('path', 'text', (c) => c.notNull());
        if (table === 'posts') {
          builder = builder
            .addColumn('collection_id', 'text', (c) => c.notNull())
            .addColumn('slug', 'text', (c) => c.notNull());
        }
        builder = builder
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['site_id', 'id']);
        if (table === 'pages') builder = builder.addUniqueConstraint('pages_path_unique', ['site_id', 'path']);
        if (table === 'posts')
          builder = builder.addUniqueConstraint('posts_slug_unique', ['site_id', 'collection_id', 'slug']);
        await builder.execute();
      }

      await db.schema
        .createTable('assets')
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addPrimaryKeyConstraint('assets_pk', ['site_id', 'path'])
        .execute();

      await db.schema
        .createTable('carts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('is_purchased', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('carts_by_site').on('carts').columns(['site_id']).execute();

      // Entries keep item_id/sku without a foreign key: a re-import may remove a product, the entry must survive it.
      await db.schema
        .createTable('cart_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('cart_id', 'text', (c) => c.notNull().references('carts.id').onDelete('cascade'))
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('additional_fields', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('cart_entries_line_unique', ['cart_id', 'sku', 'additional_fields'])
        .addCheckConstraint('cart_entries_quantity_positive', sql`quantity > 0`)
        .execute();
    },

    async down(db: Kysely<any>) {
      for (const table of [
        'cart_entries',
        'carts',
        'assets',
        'posts',
        'pages',
        'forms',
        'variants',
        'products',
        'collections',
        'sites',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
