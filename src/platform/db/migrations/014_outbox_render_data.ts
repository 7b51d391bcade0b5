/**
 * The outbox's `render_data`: an order's e-mails are written in the order's transaction as a few facts (JSON: the
 * site's title, the order's URL and status as placed, the manual-payment instructions then) instead of their rendered
 * text and HTML, which are rendered from the stored order when the message is sent or shown (src/modules/orders/mail.tsx).
 * Null for every other message, and for those already in the outbox: their stored text and HTML are the message.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../connect';

export function outboxRenderData(_engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('outbox').addColumn('render_data', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('outbox').dropColumn('render_data').execute();
    },
  };
}
