/**
 * A shopper's restock sign-up (spec §3, §5, §8): the payload read with the core's rules (the form's own), the product
 * and variant checked (restock offered, the variant sold out), the CAPTCHA when the site has one (action
 * PRODUCT_WAITLIST_SUBMISSION), then one transaction: the sign-up — one per e-mail and variant, so signing up again
 * changes nothing (a shopper already e-mailed joins the line again, at its end) — and, when the shopper asks and
 * the product offers it, the mailing list's double opt-in (../forms/newsletter.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { FIELD_MESSAGES } from '../../core/forms/validation';
import { RESTOCK_MESSAGES } from '../../core/forms/restock';
import { CAPTCHA_ACTIONS } from '../../core/forms/submission';
import { isVariantSoldOut } from '../../core/product';
import { normalizeRestockEmail, readRestockSignUp, type RestockField } from '../../core/restock';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import {
  captchaProviderOf,
  verifyCaptcha as defaultVerifier,
  type CaptchaVerifier,
  type CaptchaVisitor,
} from '../forms';
import * as catalog from '../catalog';
import { signUp as joinMailingList } from '../forms';
import type { Site } from '../site';

type Db = Kysely<Database>;

/** Why a sign-up was refused; the route maps each to its status, the message is what the shopper sees. */
export type RestockSignUpRefusal =
  /** The payload: 400, naming the field (the e-mail's texts are §5's). */
  | { kind: 'invalid'; field: RestockField | null; message: string }
  /** No such product or variant on this site: 404. */
  | { kind: 'not-found'; message: string }
  /** The product offers no sign-up, or the variant is not sold out (it can be bought): 409. */
  | { kind: 'not-offered'; message: string }
  /** The CAPTCHA was not completed, or its answer is not valid (forged, expired, already used): 400. */
  | { kind: 'captcha'; message: string }
  /** The CAPTCHA's provider could not tell: 503, nothing stored. */
  | { kind: 'captcha-unavailable'; message: string };

export const RESTOCK_REFUSALS = {
  notOffered: 'Restock notifications are not offered for this product.',
  inStock: 'This item is in stock now: reload the page to buy it.',
} as const;

export interface RestockSignedUp {
  email: string;
  productId: string;
  variantId: string;
  /** The address was already waiting for this variant: nothing changed. */
  alreadySignedUp: boolean;
  /** The mailing list's confirmation e-mail was queued (the shopper asked, the product offers it). */
  joinedMailingList: boolean;
}

export interface RestockSignUpContext {
  /** The origin of the links in its e-mails (core `linkOrigin`: the site's own address). */
  baseUrl: string;
  visitor?: CaptchaVisitor;
  now?: Date;
  verifyCaptcha?: CaptchaVerifier;
  /** A signed-in site user signs up with their account's address: no CAPTCHA is asked for. */
  signedInUser?: boolean;
}

/** The source the mailing list records for an address that joined through a product's restock form. */
export const restockMailingListSource = (productId: string): string => `restock:${productId}`;

export async function signUpForRestock(
  db: Db,
  site: Site,
  body: unknown,
  context: RestockSignUpContext,
): Promise<Result<RestockSignedUp, RestockSignUpRefusal>> {
  const read = readRestockSignUp(body);
  if (!read.ok) return err({ kind: 'invalid', ...read.error });
  const input = read.value;
  const product = await catalog.getProduct(db, site.id, input.productId);
  if (!product) return err({ kind: 'not-found', message: `There is no product '${input.productId}' in this shop.` });
  const variant = product.variants.find((v) => v.sku === input.variantId);
  if (!variant)
    return err({ kind: 'not-found', message: `The product '${input.productId}' has no variant '${input.variantId}'.` });
  const settings = product.merchandising.restockNotifications;
  if (!settings.enabled) return err({ kind: 'not-offered', message: RESTOCK_REFUSALS.notOffered });
  const stock = {
    unlimited: 'unlimited' in variant.stock,
    qtyInStock: 'qtyInStock' in variant.stock ? variant.stock.qtyInStock : 0,
  };
  if (!isVariantSoldOut({ productType: product.productType }, stock))
    return err({ kind: 'not-offered', message: RESTOCK_REFUSALS.inStock });

  if (!context.signedInUser && captchaProviderOf(site) !== 'none') {
    if (input.captchaToken === null) return err({ kind: 'captcha', message: FIELD_MESSAGES.captchaIncomplete });
    const check = await (context.verifyCaptcha ?? defaultVerifier)(
      db,
      site,
      input.captchaToken,
      CAPTCHA_ACTIONS.productWaitlist,
      context.visitor,
    );
    if (check === 'unavailable') return err({ kind: 'captcha-unavailable', message: RESTOCK_MESSAGES.unableToSubmit });
    if (check !== 'ok') return err({ kind: 'captcha', message: FIELD_MESSAGES.captchaIncomplete });
  }

  const email = normalizeRestockEmail(input.email);
  const now = context.now ?? new Date();
  const joins = input.isJoinMailingList && settings.mailingListSignUpEnabled;
  return inTransaction<RestockSignedUp, RestockSignUpRefusal>(db, async (trx) => {
    // The variant's row: what a send locks, and where a restock is recorded.
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
    const existing = await trx
      .selectFrom('restock_sign_ups')
      .select(['id', 'notified_at'])
      .where('site_id', '=', site.id)
      .where('sku', '=', variant.sku)
      .where('email', '=', email)
      .executeTakeFirst();
    const signedUp = (alreadySignedUp: boolean, joined: boolean) =>
      ok<RestockSignedUp>({
        email,
        productId: product.id,
        variantId: variant.sku,
        alreadySignedUp,
        joinedMailingList: joined,
      });
    if (existing && existing.notified_at === null) return signedUp(true, false);
    const fields = {
      product_id: product.id,
      joined_mailing_list: joins ? (1 as const) : (0 as const),
      base_url: context.baseUrl,
      created_at: now.toISOString(),
    };
    if (existing) {
      // E-mailed for an earlier restock, and sold out again: back in the line, at its end.
      await trx
        .updateTable('restock_sign_ups')
        .set({ ...fields, notified_at: null, unsubscribe_token_hash: null })
        .where('id', '=', existing.id)
        .execute();
    } else {
      const inserted = await trx
        .insertInto('restock_sign_ups')
        .values({
          id: randomBytes(12).toString('base64url'),
          site_id: site.id,
          sku: variant.sku,
          email,
          notified_at: null,
          unsubscribe_token_hash: null,
          ...fields,
        })
        // The same address at the same moment from another request: theirs stands.
        .onConflict((oc) => oc.columns(['site_id', 'sku', 'email']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return signedUp(true, false);
    }
    if (joins)
      await joinMailingList(
        trx,
        site,
        { email, formId: restockMailingListSource(product.id), baseUrl: context.baseUrl },
        now,
      );
    return signedUp(false, joins);
  });
}
