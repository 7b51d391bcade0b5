/**
 * Gift cards: the cards (the code only as its sha256, and its last four characters for display — both null until the
 * card's e-mail is sent, since the code is made at delivery: services/giftCardDelivery.ts), their ledger
 * (issue, redeem, refund — one row per movement of a balance) and the outbox's `send_after`, so a gift card's e-mail
 * waits for its delivery date. See docs/architecture.md.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../connect';

export function giftCards(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('gift_cards')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .addColumn('code_hash', 'text')
        .addColumn('last_four', 'text')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('initial_balance', 'bigint', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('scheduled'))
        .addColumn('order_id', 'text')
        .addColumn('purchaser_email', 'text')
        .addColumn('recipient_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('recipient_email', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('delivery_date', 'text', (c) => c.notNull())
        .addColumn('send_after', 'text')
        // The outbox message that delivers the code, and how many codes were made for it (one per send tried).
        .addColumn('outbox_id', 'text')
        .addColumn('codes_made', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('delivered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('gift_cards_code_unique', ['site_id', 'code_hash'])
        .addCheckConstraint('gift_cards_balance_range', sql`balance >= 0 and balance <= initial_balance`)
        .execute();
      await db.schema.createIndex('gift_cards_by_site').on('gift_cards').columns(['site_id', 'created_at']).execute();
      await db.schema.createIndex('gift_cards_by_order').on('gift_cards').columns(['order_id']).execute();
      await db.schema.createIndex('gift_cards_by_outbox').on('gift_cards').columns(['outbox_id']).execute();

      await db.schema
        .createTable('gift_card_transactions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('gift_card_id', 'text', (c) => c.notNull().references('gift_cards.id').onDelete('cascade'))
        .addColumn('order_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('gift_card_transactions_amount_positive', sql`amount > 0`)
        .execute();
      await db.schema
        .createIndex('gift_card_transactions_by_card')
        .on('gift_card_transactions')
        .columns(['gift_card_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('gift_card_transactions_by_order')
        .on('gift_card_transactions')
        .columns(['order_id'])
        .execute();

      await db.schema.alterTable('outbox').addColumn('send_after', 'text').execute();
    },

    async down(db: Kysely<any>) {
      await db.schema.alterTable('outbox').dropColumn('send_after').execute();
      await db.schema.dropTable('gift_card_transactions').ifExists().execute();
      await db.schema.dropTable('gift_cards').ifExists().execute();
    },
  };
}
