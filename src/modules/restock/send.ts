/**
 * Sending the restock e-mails of one variant (spec §7 send, `vitrine restock send`, the automatic send): to at most as
 * many waiting shoppers as there are units in stock now — less those already e-mailed since it came back, who have
 * the first claim on them — oldest sign-up first; to every waiting one when told to (`all`) or when stock is
 * unlimited. Each e-mail goes through the outbox with the product's link and an unsubscribe link.
 *
 * Each shopper is e-mailed once, whatever runs at once: a batch is one transaction that first locks the variant's
 * restock row (PostgreSQL: SELECT … FOR UPDATE; SQLite: BEGIN IMMEDIATE locks the database), so two sends of one
 * variant take turns and the second counts what the first e-mailed; inside it each sign-up is claimed with a
 * conditional update (`notified_at IS NULL`) in the transaction that writes its e-mail to the outbox.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { storedLinkOrigin } from '../../core/linkOrigin';
import { restockSendLimit, variantLabel } from '../../core/restock';
import { err, ok, type Result } from '../../core/result';
import { engineOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import * as catalog from '../catalog';
import { enqueueEmail } from '../../platform/mail/outbox';
import type { Site } from '../site';
import { restockEmail } from './mail';

type Db = Kysely<Database>;

export const RESTOCK_MAIL_KIND = 'restock-notification';
export const RESTOCK_UNSUBSCRIBE_PATH = '/restock/unsubscribe';
/** Sign-ups claimed per transaction: short transactions, and progress to show on long lines. */
export const RESTOCK_SEND_BATCH = 100;

export const unsubscribeTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
export const unsubscribeUrlOf = (baseUrl: string, token: string): string =>
  `${baseUrl}${RESTOCK_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;

export interface RestockTarget {
  productId: string;
  variantId: string;
}

export interface RestockSendOptions {
  /** E-mail every waiting shopper, whatever the stock. */
  all?: boolean;
  /** The clock (tests); the real time when absent. */
  now?: () => Date;
  batchSize?: number;
  /** Called after each batch with the number e-mailed so far. */
  onProgress?: (sent: number) => void;
  /**
   * Called inside each batch's transaction with the addresses it e-mailed (none: not called): the owner's send writes
   * its audit entry there, so the log tells exactly of the e-mails written.
   */
  onBatch?: (trx: Db, emails: readonly string[]) => Promise<void>;
}

export type RestockSendRefusal = { kind: 'not-found'; message: string };

export interface RestockSendResult {
  productId: string;
  variantId: string;
  productName: string;
  variantLabel: string;
  /** Units in stock when the send ended; null for unlimited stock. */
  qtyInStock: number | null;
  /** Shoppers e-mailed by this send (their e-mails are in the outbox). */
  sent: number;
  emails: string[];
  /** The outbox messages written (to send them at once). */
  outboxIds: string[];
  /** Shoppers still waiting after it. */
  waiting: number;
}

interface Batch {
  claimed: { email: string; outboxId: string }[];
  /** How many this batch could have e-mailed (the limit left, at most the batch size). */
  room: number;
  qtyInStock: number | null;
}

export async function sendRestockNotifications(
  db: Db,
  site: Site,
  target: RestockTarget,
  options: RestockSendOptions = {},
): Promise<Result<RestockSendResult, RestockSendRefusal>> {
  const product = await catalog.getProduct(db, site.id, target.productId);
  if (!product)
    return err({ kind: 'not-found', message: `There is no product '${target.productId}' in site '${site.id}'.` });
  const variant = product.variants.find((v) => v.sku === target.variantId);
  if (!variant)
    return err({
      kind: 'not-found',
      message: `The product '${target.productId}' has no variant '${target.variantId}'.`,
    });
  const collection = await catalog.getCollection(db, site.id, product.collectionId);
  const label = product.variantOptions.length > 0 ? variantLabel(variant) : null;
  const productPath = `/${collection?.slug ?? product.collectionId}/p/${product.slug}`;
  const clock = options.now ?? (() => new Date());
  const batchSize = Math.max(1, options.batchSize ?? RESTOCK_SEND_BATCH);
  const postgres = engineOf(db) === 'postgres';

  const emails: string[] = [];
  const outboxIds: string[] = [];
  let qtyInStock: number | null = null;
  for (;;) {
    const done = await inTransaction<Batch, never>(db, async (trx) => {
      const now = clock();
      await trx
        .insertInto('restock_variants')
        .values({
          site_id: site.id,
          sku: variant.sku,
          product_id: product.id,
          restocked_at: null,
          restock_source: null,
          restocked_qty: null,
          auto_send_pending: 0,
        })
        .onConflict((oc) => oc.columns(['site_id', 'sku']).doNothing())
        .execute();
      // One send of this variant at a time (SQLite's BEGIN IMMEDIATE already holds the database).
      const row = await trx
        .selectFrom('restock_variants')
        .select('restocked_at')
        .where('site_id', '=', site.id)
        .where('sku', '=', variant.sku)
        .$if(postgres, (q) => q.forUpdate())
        .executeTakeFirstOrThrow();
      // The stock now, read inside the transaction (a variant an import removed has none).
      const current = (await catalog.getVariants(trx, site.id, [product.id]))
        .get(product.id)
        ?.find((v) => v.sku === variant.sku);
      const level = {
        unlimited: current !== undefined && 'unlimited' in current.stock,
        qtyInStock: current && 'qtyInStock' in current.stock ? current.stock.qtyInStock : 0,
      };
      const told = await trx
        .selectFrom('restock_sign_ups')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('site_id', '=', site.id)
        .where('sku', '=', variant.sku)
        .where('notified_at', 'is not', null)
        .$if(row.restocked_at !== null, (q) => q.where('notified_at', '>=', row.restocked_at as string))
        .executeTakeFirstOrThrow();
      const room = Math.min(restockSendLimit(level, Number(told.n), { all: options.all === true }), batchSize);
      const batch: Batch = { claimed: [], room, qtyInStock: level.unlimited ? null : level.qtyInStock };
      if (room <= 0) return ok(batch);
      const waiting = await trx
        .selectFrom('restock_sign_ups')
        .select(['id', 'email', 'base_url'])
        .where('site_id', '=', site.id)
        .where('sku', '=', variant.sku)
        .where('notified_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .limit(room)
        .execute();
      for (const signUp of waiting) {
        const token = randomBytes(32).toString('base64url');
        const claimed = await trx
          .updateTable('restock_sign_ups')
          .set({ notified_at: now.toISOString(), unsubscribe_token_hash: unsubscribeTokenHash(token) })
          .where('id', '=', signUp.id)
          .where('notified_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) continue;
        // Stored at the sign-up; kept only if the site's own rule gives it again (an old row may hold a forged Host).
        const origin = storedLinkOrigin(signUp.base_url, site.domains);
        const mail = restockEmail({
          siteTitle: site.title,
          productName: product.name,
          variantLabel: label,
          productUrl: origin + productPath,
          unsubscribeUrl: unsubscribeUrlOf(origin, token),
        });
        const outboxId = await enqueueEmail(
          trx,
          { siteId: site.id, kind: RESTOCK_MAIL_KIND, to: signUp.email, ...mail },
          now,
        );
        batch.claimed.push({ email: signUp.email, outboxId });
      }
      if (batch.claimed.length > 0) {
        await options.onBatch?.(
          trx,
          batch.claimed.map((c) => c.email),
        );
        // The automatic send has nothing left to do for this restock once someone sent.
        await trx
          .updateTable('restock_variants')
          .set({ auto_send_pending: 0 })
          .where('site_id', '=', site.id)
          .where('sku', '=', variant.sku)
          .execute();
      }
      return ok(batch);
    });
    if (!done.ok) break;
    const batch = done.value;
    qtyInStock = batch.qtyInStock;
    for (const c of batch.claimed) {
      emails.push(c.email);
      outboxIds.push(c.outboxId);
    }
    if (batch.claimed.length > 0) options.onProgress?.(emails.length);
    // A short batch: the limit or the line ended.
    if (batch.room <= 0 || batch.claimed.length < batch.room) break;
  }
  const left = await db
    .selectFrom('restock_sign_ups')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('site_id', '=', site.id)
    .where('sku', '=', variant.sku)
    .where('notified_at', 'is', null)
    .executeTakeFirstOrThrow();
  return ok({
    productId: product.id,
    variantId: variant.sku,
    productName: product.name,
    variantLabel: variantLabel(variant),
    qtyInStock,
    sent: emails.length,
    emails,
    outboxIds,
    waiting: Number(left.n),
  });
}
