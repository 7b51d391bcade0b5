/**
 * What the account area and `vitrine restock list` read (spec §7): the sign-up groups — one per product and variant,
 * with how many shoppers wait and were e-mailed, the stock now and the last restock — and a group's sign-ups, oldest
 * first. Both in pages with an opaque cursor (./cursor.ts): `hasNextPage`, `nextPageCursor`.
 */
import type { Kysely } from 'kysely';
import { variantLabel } from '../../core/restock';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import * as catalog from '../catalog';
import { decodeCursor, encodeCursor } from './cursor';
import { EVERYTHING } from '../../core/publishing';

type Db = Kysely<Database>;

export const RESTOCK_PAGE_SIZE = 50;
export const CURSOR_REFUSED =
  'The cursor is not valid: ask for the first page without one, then follow nextPageCursor.';

export interface RestockGroup {
  productId: string;
  variantId: string;
  /** null when the product is no longer in the catalog (removed by an import). */
  productName: string | null;
  /** The variant's option values ('Large / Charcoal'), else its SKU. */
  variantLabel: string;
  /** Shoppers waiting to be e-mailed. */
  waitingCount: number;
  /** Shoppers already e-mailed (kept until they unsubscribe). */
  notifiedCount: number;
  /** Units in stock now (0 when the variant is gone); null for unlimited stock. */
  qtyInStock: number | null;
  /** When it last came back in stock (import, refund), or null. */
  restockedAt: string | null;
  restockSource: string | null;
}

export interface RestockSignUp {
  productId: string;
  variantId: string;
  email: string;
  isJoinMailingList: boolean;
  createdAt: string;
  /** When its restock e-mail was queued, or null while it waits. */
  notifiedAt: string | null;
}

export interface GroupsPage {
  signUpGroups: RestockGroup[];
  hasNextPage: boolean;
  nextPageCursor: string | null;
}

export interface SignUpsPage {
  signUps: RestockSignUp[];
  hasNextPage: boolean;
  nextPageCursor: string | null;
}

export type CursorRefused = { kind: 'cursor'; message: string };

/** The groups of a site (optionally of one product), by product id then SKU. */
export async function listRestockGroups(
  db: Db,
  siteId: string,
  options: { cursor?: string | undefined; productId?: string | undefined; pageSize?: number } = {},
): Promise<Result<GroupsPage, CursorRefused>> {
  const after = options.cursor === undefined ? null : decodeCursor('groups', options.cursor);
  if (options.cursor !== undefined && after === null) return err({ kind: 'cursor', message: CURSOR_REFUSED });
  const pageSize = options.pageSize ?? RESTOCK_PAGE_SIZE;
  const rows = await db
    .selectFrom('restock_sign_ups')
    .select((eb) => [
      'product_id',
      'sku',
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.count<number | string>('notified_at').as('notified'),
    ])
    .where('site_id', '=', siteId)
    .$if(options.productId !== undefined, (q) => q.where('product_id', '=', options.productId as string))
    .$if(after !== null, (q) =>
      q.where((eb) => eb(eb.refTuple('product_id', 'sku'), '>', eb.tuple(after![0], after![1]))),
    )
    .groupBy(['product_id', 'sku'])
    .orderBy('product_id')
    .orderBy('sku')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  const productIds = [...new Set(page.map((r) => r.product_id))];
  const [products, restocks] = await Promise.all([
    // The staff's lists name every product signed up for, shown on the storefront or not (a draft: issue 26).
    catalog.getProducts(db, siteId, productIds, EVERYTHING),
    page.length === 0
      ? []
      : db
          .selectFrom('restock_variants')
          .select(['sku', 'restocked_at', 'restock_source'])
          .where('site_id', '=', siteId)
          .where(
            'sku',
            'in',
            page.map((r) => r.sku),
          )
          .execute(),
  ]);
  const productById = new Map(products.map((p) => [p.id, p]));
  const restockBySku = new Map(restocks.map((r) => [r.sku, r]));
  const signUpGroups = page.map((r): RestockGroup => {
    const product = productById.get(r.product_id);
    const variant = product?.variants.find((v) => v.sku === r.sku);
    const total = Number(r.total);
    const notified = Number(r.notified);
    const restock = restockBySku.get(r.sku);
    return {
      productId: r.product_id,
      variantId: r.sku,
      productName: product?.name ?? null,
      variantLabel: variant ? variantLabel(variant) : r.sku,
      waitingCount: total - notified,
      notifiedCount: notified,
      qtyInStock: variant ? ('unlimited' in variant.stock ? null : variant.stock.qtyInStock) : 0,
      restockedAt: restock?.restocked_at ?? null,
      restockSource: restock?.restock_source ?? null,
    };
  });
  const last = page[page.length - 1];
  const hasNextPage = rows.length > pageSize;
  return ok({
    signUpGroups,
    hasNextPage,
    nextPageCursor: hasNextPage && last ? encodeCursor('groups', [last.product_id, last.sku]) : null,
  });
}

/** The sign-ups for one variant of a product, oldest first (the order they are e-mailed in). */
export async function listRestockSignUps(
  db: Db,
  siteId: string,
  target: { productId: string; variantId: string },
  options: { cursor?: string | undefined; pageSize?: number } = {},
): Promise<Result<SignUpsPage, CursorRefused>> {
  const after = options.cursor === undefined ? null : decodeCursor('signUps', options.cursor);
  if (options.cursor !== undefined && after === null) return err({ kind: 'cursor', message: CURSOR_REFUSED });
  const pageSize = options.pageSize ?? RESTOCK_PAGE_SIZE;
  const rows = await db
    .selectFrom('restock_sign_ups')
    .select(['id', 'product_id', 'sku', 'email', 'joined_mailing_list', 'created_at', 'notified_at'])
    .where('site_id', '=', siteId)
    .where('product_id', '=', target.productId)
    .where('sku', '=', target.variantId)
    .$if(after !== null, (q) =>
      q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after![0], after![1]))),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  const hasNextPage = rows.length > pageSize;
  return ok({
    signUps: page.map((r) => ({
      productId: r.product_id,
      variantId: r.sku,
      email: r.email,
      isJoinMailingList: r.joined_mailing_list === 1,
      createdAt: r.created_at,
      notifiedAt: r.notified_at,
    })),
    hasNextPage,
    nextPageCursor: hasNextPage && last ? encodeCursor('signUps', [last.created_at, last.id]) : null,
  });
}
