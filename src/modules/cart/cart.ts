/**
 * The shopping cart: reading it, adding an entry, changing an entry's additional fields or quantity, removing an entry. Each write runs inside one
 * transaction that first locks the cart row, so two requests for the same cart never interleave (no add can pass
 * the stock check on a count another add is about to change, and no update is lost). The rules are the core's.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type QueryCreator, type SqlBool } from 'kysely';
import { checkAddToCart } from '../../core/addToCart';
import { ProductType } from '../../core/enums';
import { isCartClaim } from '../../core/cartClaim';
import type { AddToCartError } from '../../core/addToCartErrors';
import {
  cartTotals,
  checkLineQuantityChange,
  mergedLineQuantity,
  purchasePriceCents,
  type CartTotals,
} from '../../core/cartRules';
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../../core/currency';
import { checkProductFormAnswers, parseProductFormAnswers } from '../../core/forms/productForm';
import { summarizeFormAnswers, type FormAnswerSummary } from '../../core/forms/summary';
import type { CoreProduct, CoreVariant } from '../../core/product';
import { findVariantBySku } from '../../core/variant';
import { err, ok, type Result } from '../../core/result';
import { engineOf } from '../../platform/db/connect';
import { inTransaction } from '../../platform/db/transaction';
import { compiledQuery } from '../../platform/db/sqlite/compiledQuery';
import type { Database } from '../../platform/db/tables';
import type { CartEntryRow, CartRow } from './tables';
import type { VariantRow } from '../catalog';
import type { Form, Product } from '../site';
import { toProductForm } from './coreForm';
import { toCoreProduct } from '../catalog';
import { getForm, getProductWithRows, liveAtCondition, parsedRecord } from '../catalog';
import { utcTime } from '../../core/publishing';
import { randomToken } from '../../platform/randomToken';
import { knownProduct, rememberProduct } from './knownProducts';

// ---------------------------------------------------------------- API types (spec §3)

export interface CartEntry {
  id: string;
  itemId: string;
  chosenVariant: { sku: string; attributes: Record<string, string> };
  quantity: number;
  title: string;
  /** purchasePriceCents × quantity, minor units. */
  subTotal: number;
  /** Price of one unit when it was last added, minor units. */
  purchasePriceCents: number;
  /** JSON text of the product form's answers, '' when none. */
  additionalFields: string;
  /**
   * The answers as the cart shows them (the core's summarizeFormAnswers): each field of the product's form with its
   * title and lines; [] when the entry has no answers or its product has no form (any more).
   */
  additionalFieldsSummary: FormAnswerSummary[];
  /** The product's type (§3 ProductType), null when the product was removed since: the cart page's pay-later check (§5). */
  productType: number | null;
}

export interface ShoppingCart extends CartTotals {
  /** A public id derived from the cart token (the token itself stays in the HttpOnly cookie); null before the first add. */
  id: string | null;
  websiteId: string;
  orderId: string | null;
  /** Epoch milliseconds; null before the first add. */
  created: number | null;
  isPurchased: boolean;
  entries: CartEntry[];
  shippingOptions: unknown[];
  selectedShippingOption: unknown | null;
  shippingLocation: unknown | null;
  applicableTaxRules: unknown[];
  coupons: unknown[];
  validCoupons: unknown[];
  invalidCoupons: unknown[];
}

/** The site a cart belongs to, as the service needs it. */
export interface CartSite {
  id: string;
  currency: string;
}

export type CartFailure =
  | AddToCartError
  | { type: 'PRODUCT_NOT_FOUND'; itemId: string }
  | { type: 'ENTRY_NOT_FOUND' }
  /** A gift card is bought on its own page (/checkout/giftcard), never through the cart (spec §4). */
  | { type: 'GIFT_CARD_NOT_IN_CART'; itemId: string; message: string }
  /** The product form's answers failed the core's form rules: each field's message, and one text naming them. */
  | { type: 'INVALID_FORM_ANSWERS'; fields: Record<string, string>; message: string };

type Db = Kysely<Database>;

/** The answer to a change of a cart line that is not in the visitor's cart (any more). */
export const ENTRY_NOT_FOUND_MESSAGE = 'That item is no longer in your cart.';

/** The answer to adding a gift card to the cart: its button goes to the gift-card checkout instead (spec §4). */
export const GIFT_CARD_NOT_IN_CART_MESSAGE =
  'Gift cards cannot be added to the cart. Please buy it from the gift card’s own page.';

// ---------------------------------------------------------------- reading

/** The shopper's cart, or the empty shape when the token names no open cart of this site (nothing is created). */
export async function getCart(db: Db, site: CartSite, token: string | undefined): Promise<ShoppingCart> {
  const cart = token ? await findOpenCart(db, site.id, token) : undefined;
  return cart ? readCart(db, site, cart) : emptyCart(site.id);
}

export function emptyCart(websiteId: string): ShoppingCart {
  return toShoppingCart(websiteId, null, []);
}

// ---------------------------------------------------------------- adding

export interface AddEntryInput {
  itemId: string;
  sku: string | null | undefined;
  quantity: unknown;
  /** Canonical JSON text, '' when none. */
  additionalFields: string;
}

export interface AddEntryOutcome {
  shoppingCart: ShoppingCart;
  newlyAdded: CartEntry;
  /** The cart's token: new when the add created the cart. */
  token: string;
  cartCreated: boolean;
}

/**
 * §5: runs the core's ordered checks against the stock read inside the transaction, counting what the cart already
 * holds of the sku, then merges into the line with the same sku and additional fields or starts a new line.
 * A refused add stores nothing (the transaction is rolled back, and a cart is only created by a successful add).
 * The cart is the token's open cart; without one, the cart of the page's `claim` (see claimCart), else a new one.
 *
 * On PostgreSQL an add that can only start a new cart (no cart token, no claim: a new visitor's first add) takes
 * two statements and no transaction (addToNewCart): issue 27 measured the five of the transaction (BEGIN, the product,
 * the cart, the line, COMMIT), each a round trip holding a pooled connection, as most of an add's cost there.
 */
export async function addEntry(
  db: Kysely<Database>,
  site: CartSite,
  token: string | undefined,
  input: AddEntryInput,
  claim?: string,
): Promise<Result<AddEntryOutcome, CartFailure>> {
  if (!isCartToken(token) && !isCartClaim(claim) && engineOf(db) === 'postgres') return addToNewCart(db, site, input);
  return inTransaction<AddEntryOutcome, CartFailure>(db, async (trx) => {
    const now = new Date().toISOString();
    const tokenCart = token ? await lockOpenCart(trx, site.id, token, now) : undefined;
    const claimed = !tokenCart && isCartClaim(claim) ? await claimCart(trx, site.id, claim, now) : undefined;
    const existing = tokenCart ?? claimed?.cart;
    // A cart this add creates (or whose claim it just made) holds no line yet: nothing to read in it, before or after.
    const cartCreated = claimed ? claimed.created : !tokenCart;

    const loaded = await loadProduct(trx, site, input.itemId);
    if (!loaded) return err({ type: 'PRODUCT_NOT_FOUND', itemId: input.itemId });
    const entries =
      existing && !cartCreated ? (await selectCartEntries.execute(trx, { cartId: existing.id })).rows : [];
    const checked = await checkedAdd(trx, site, input, loaded, entries);
    if (!checked.ok) return checked;
    const { variant, line, lineQuantity, additionalFields, form } = checked.value;

    const cart = existing ?? (await createCart(trx, site.id, now));
    const unitPrice = purchasePriceCents(variant);
    let entry: CartEntryRow;
    if (line) {
      entry = { ...line, quantity: lineQuantity, unit_price: unitPrice };
      await updateCartEntry.execute(trx, { id: line.id, quantity: entry.quantity, unitPrice });
    } else {
      entry = newEntry(cart.id, loaded, variant.sku, lineQuantity, additionalFields, unitPrice, now);
      await insertCartEntry.execute(trx, entry);
    }

    // A new cart's answer is its one line, all of it known here (the same mapper as a read, fed the rows just read
    // and written); a cart with other lines is read again, with their products' names, attributes and forms.
    const shoppingCart = cartCreated ? newCartAnswer(site, cart, entry, loaded, form) : await readCart(trx, site, cart);
    const newlyAdded = shoppingCart.entries.find((e) => e.id === entry.id);
    if (!newlyAdded) throw new Error(`cart entry ${entry.id} vanished inside its own transaction`);
    return ok({ shoppingCart, newlyAdded, token: cart.id, cartCreated });
  });
}

/**
 * A new visitor's add on PostgreSQL: the product (and its form, when it has one) read without a transaction, the same
 * checks as any add against a cart that holds nothing, then the cart and its line written by one statement
 * (insertCartWithEntry), which stores both or, should the random token be taken, neither. The same guarantees as in a
 * transaction: a refused add stores nothing, and nothing else can see or write a cart before the answer names it.
 * The stock read is the same too: inside a READ COMMITTED transaction each statement reads what was committed when it
 * started, and an add locks no variant (the order checks and takes the stock).
 *
 * A product this process has read before is first tried without reading it again (addKnownProduct): one statement.
 */
async function addToNewCart(
  db: Kysely<Database>,
  site: CartSite,
  input: AddEntryInput,
): Promise<Result<AddEntryOutcome, CartFailure>> {
  const now = new Date().toISOString();
  const known = knownProduct<LoadedProduct>(db, site.id, site.currency, input.itemId);
  if (known) {
    const added = await addKnownProduct(db, site, input, known, now);
    if (added) return added;
  }
  const loaded = await loadProduct(db, site, input.itemId);
  if (!loaded) return err({ type: 'PRODUCT_NOT_FOUND', itemId: input.itemId });
  rememberProduct(db, site.id, site.currency, input.itemId, loaded);
  const checked = await checkedAdd(db, site, input, loaded, []);
  if (!checked.ok) return checked;
  const { variant, lineQuantity, additionalFields, form } = checked.value;
  for (;;) {
    const { cart, entry } = newCartWithEntry(site, loaded, variant, lineQuantity, additionalFields, now);
    const { numAffectedRows } = await insertCartWithEntry.execute(db, cartWithEntryValues(site, entry, now));
    // 128 random bits: a token already taken is not a case to expect, but it must never be an error.
    if (numAffectedRows === 1n) return ok(newCartOutcome(site, cart, entry, loaded, form));
  }
}

/**
 * The add of a product read before (knownProducts.ts): checked against it, then written by one statement that stores
 * the cart and its line only if the product's record and the chosen variant's row are still what was read — its
 * price, sale, stock and attributes, so the line and the answer are what a fresh read would have made. Undefined when
 * they are not (or the known product refuses the add, or has a form, whose answers are checked against the form as it
 * is now): the add is then made the two-statement way, on the rows as they are.
 */
async function addKnownProduct(
  db: Kysely<Database>,
  site: CartSite,
  input: AddEntryInput,
  loaded: LoadedProduct,
  now: string,
): Promise<Result<AddEntryOutcome, CartFailure> | undefined> {
  if (loaded.formId !== undefined || typeof input.sku !== 'string' || input.sku.trim() === '') return undefined;
  const checked = await checkedAdd(db, site, input, loaded, []);
  if (!checked.ok) return undefined;
  const { variant, lineQuantity, additionalFields } = checked.value;
  const row = loaded.variants.find((v) => v.sku === variant.sku);
  if (!row) return undefined;
  const { cart, entry } = newCartWithEntry(site, loaded, variant, lineQuantity, additionalFields, now);
  const { numAffectedRows } = await insertCartWithKnownEntry.execute(db, {
    ...cartWithEntryValues(site, entry, now),
    liveAt: utcTime(Date.now()),
    record: loaded.record,
    position: row.position,
    price: row.price,
    salePrice: row.sale_price,
    onSale: row.on_sale,
    unlimited: row.unlimited,
    qtyInStock: row.qty_in_stock,
    variantData: row.data,
  });
  return numAffectedRows === 1n ? ok(newCartOutcome(site, cart, entry, loaded, undefined)) : undefined;
}

/** A new cart's row and its one line, with a new random token. */
function newCartWithEntry(
  site: CartSite,
  loaded: LoadedProduct,
  variant: CoreVariant,
  lineQuantity: number,
  additionalFields: string,
  now: string,
): { cart: CartRow; entry: CartEntryRow } {
  const cart = newCartRow(site.id, now);
  const entry = newEntry(
    cart.id,
    loaded,
    variant.sku,
    lineQuantity,
    additionalFields,
    purchasePriceCents(variant),
    now,
  );
  return { cart, entry };
}

const cartWithEntryValues = (site: CartSite, entry: CartEntryRow, now: string): NewCartValues => ({
  cartId: entry.cart_id,
  siteId: site.id,
  now,
  entryId: entry.id,
  itemId: entry.item_id,
  sku: entry.sku,
  quantity: entry.quantity,
  additionalFields: entry.additional_fields,
  unitPrice: entry.unit_price,
});

/** A new cart's outcome: its one line, all of it known here (nothing read back). */
function newCartOutcome(
  site: CartSite,
  cart: CartRow,
  entry: CartEntryRow,
  loaded: LoadedProduct,
  form: Form | undefined,
): AddEntryOutcome {
  const shoppingCart = newCartAnswer(site, cart, entry, loaded, form);
  const newlyAdded = shoppingCart.entries[0];
  if (!newlyAdded) throw new Error(`cart entry ${entry.id} is missing from its new cart's answer`);
  return { shoppingCart, newlyAdded, token: cart.id, cartCreated: true };
}

/** What an add checks before it writes: the core's §5 rules, the product form's answers, the line it merges into. */
async function checkedAdd(
  db: Kysely<Database>,
  site: CartSite,
  input: AddEntryInput,
  loaded: LoadedProduct,
  entries: readonly CartEntryRow[],
): Promise<
  Result<
    {
      variant: CoreVariant;
      line: CartEntryRow | undefined;
      lineQuantity: number;
      additionalFields: string;
      form: Form | undefined;
    },
    CartFailure
  >
> {
  const { product } = loaded;
  // A blank sku is a selection with nothing chosen: the core then names the unselected options, or picks the
  // only variant of a product without options.
  const sku = typeof input.sku === 'string' && input.sku.trim() !== '' ? input.sku : null;
  const onlyVariant = product.variantOptions.length === 0 ? product.variants[0]?.sku : undefined;
  const countedSku = sku ?? onlyVariant;
  const quantityInCart = entries.filter((e) => e.sku === countedSku).reduce((sum, e) => sum + e.quantity, 0);

  const checked = checkAddToCart({
    product,
    selection: sku === null ? { attributes: {} } : { sku },
    quantityInput: input.quantity,
    quantityInCart,
  });
  if (!checked.ok) return checked;
  // §5's checks first (a gift card without a denomination asks for one); then a gift card goes to its own checkout.
  if (product.productType === ProductType.GIFT_CARD)
    return err({ type: 'GIFT_CARD_NOT_IN_CART', itemId: product.id, message: GIFT_CARD_NOT_IN_CART_MESSAGE });
  const { variant, quantity } = checked.value;
  // §4: the form comes after the stock check, in the browser and here.
  const answers = await checkedAdditionalFields(db, site, loaded.formId, input.additionalFields);
  if (!answers.ok) return answers;
  const { text: additionalFields, form } = answers.value;

  const line = entries.find((e) => e.sku === variant.sku && e.additional_fields === additionalFields);
  const lineQuantity = mergedLineQuantity(line?.quantity ?? 0, quantity);
  if (!lineQuantity.ok) return lineQuantity;
  return ok({ variant, line, lineQuantity: lineQuantity.value, additionalFields, form });
}

function newEntry(
  cartId: string,
  loaded: LoadedProduct,
  sku: string,
  quantity: number,
  additionalFields: string,
  unitPrice: number,
  now: string,
): CartEntryRow {
  return {
    id: randomToken(12),
    cart_id: cartId,
    item_id: loaded.product.id,
    sku,
    quantity,
    additional_fields: additionalFields,
    unit_price: unitPrice,
    created_at: now,
  };
}

/** The answer for a cart this add created: its one line, from the rows just read and written (nothing read back). */
function newCartAnswer(
  site: CartSite,
  cart: CartRow,
  entry: CartEntryRow,
  loaded: LoadedProduct,
  form: Form | undefined,
): ShoppingCart {
  return toShoppingCart(
    site.id,
    cart,
    [newLineRow(entry, loaded, entry.sku)],
    form && loaded.formId !== undefined ? new Map([[loaded.formId, form]]) : undefined,
  );
}

/** The row readCart would read for the one line of a cart created by this add: its product's record and its variant's attributes. */
function newLineRow(entry: CartEntryRow, loaded: LoadedProduct, sku: string): EntryWithCatalog {
  const variant = loaded.variants.find((v) => v.sku === sku);
  return {
    id: entry.id,
    cart_id: entry.cart_id,
    item_id: entry.item_id,
    sku: entry.sku,
    quantity: entry.quantity,
    additional_fields: entry.additional_fields,
    unit_price: entry.unit_price,
    created_at: entry.created_at,
    product_data: loaded.record,
    product_record: loaded.stored,
    product_type: loaded.product.productType,
    variant_data: variant?.data ?? null,
    variant_unlimited: variant?.unlimited ?? null,
    variant_qty_in_stock: variant?.qty_in_stock ?? null,
    // A subscription's cart is made by its own service (subscriptions/subscriptionCart.ts), never by an add.
    subscription_option_id: null,
  };
}

const selectCartEntries = compiledQuery((db, v: { cartId: string }) =>
  db.selectFrom('cart_entries').selectAll().where('cart_id', '=', v.cartId),
);
const updateCartEntry = compiledQuery((db, v: { id: string; quantity: number; unitPrice: number }) =>
  db.updateTable('cart_entries').set({ quantity: v.quantity, unit_price: v.unitPrice }).where('id', '=', v.id),
);
const insertCartEntry = compiledQuery((db, v: CartEntryRow) =>
  db.insertInto('cart_entries').values({
    id: v.id,
    cart_id: v.cart_id,
    item_id: v.item_id,
    sku: v.sku,
    quantity: v.quantity,
    additional_fields: v.additional_fields,
    unit_price: v.unit_price,
    created_at: v.created_at,
  }),
);

/** What a new cart and its first line are written with. */
type NewCartValues = {
  cartId: string;
  siteId: string;
  now: string;
  entryId: string;
  itemId: string;
  sku: string;
  quantity: number;
  additionalFields: string;
  unitPrice: number;
};

/** What a known product's add was checked against (addKnownProduct): the product's record and the variant's row. */
type KnownRowValues = {
  liveAt: string;
  record: string;
  position: number;
  price: number;
  salePrice: number | null;
  onSale: VariantRow['on_sale'];
  unlimited: VariantRow['unlimited'];
  qtyInStock: number;
  variantData: string;
};

/**
 * PostgreSQL only: a new cart and its first line in one statement. The line is inserted from the cart's RETURNING, so
 * a token already taken (ON CONFLICT DO NOTHING) inserts neither (0 rows affected). The values are cast: a parameter
 * in a SELECT list has no type of its own. With `known`, the cart is written only while the product is live with
 * that record and its variant holds that row (else neither is: 0 rows affected).
 */
function cartWithEntryInsert(db: Kysely<Database>, v: NewCartValues, known?: KnownRowValues) {
  const cartRow = db.selectNoFrom([
    sql<string>`cast(${v.cartId} as text)`.as('id'),
    sql<string>`cast(${v.siteId} as text)`.as('site_id'),
    sql<string>`cast(${v.now} as text)`.as('created_at'),
    sql<string>`cast(${v.now} as text)`.as('updated_at'),
  ]);
  return db
    .with('new_cart', (w) =>
      w
        .insertInto('carts')
        .columns(['id', 'site_id', 'created_at', 'updated_at'])
        .expression(
          known
            ? cartRow.where(({ exists, selectFrom }) =>
                exists(
                  selectFrom('products as p')
                    .innerJoin('variants as v', (join) =>
                      join.onRef('v.site_id', '=', 'p.site_id').onRef('v.product_id', '=', 'p.id'),
                    )
                    .select(sql<number>`1`.as('known'))
                    .where('p.site_id', '=', v.siteId)
                    .where('p.id', '=', v.itemId)
                    .where(liveAtCondition('p', known.liveAt))
                    .where('p.data', '=', known.record)
                    .where('v.sku', '=', v.sku)
                    .where('v.position', '=', known.position)
                    .where('v.price', '=', known.price)
                    .where(sql<SqlBool>`v.sale_price is not distinct from cast(${known.salePrice} as bigint)`)
                    .where('v.on_sale', '=', known.onSale)
                    .where('v.unlimited', '=', known.unlimited)
                    .where('v.qty_in_stock', '=', known.qtyInStock)
                    .where('v.data', '=', known.variantData),
                ),
              )
            : cartRow,
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id'),
    )
    .insertInto('cart_entries')
    .columns(['id', 'cart_id', 'item_id', 'sku', 'quantity', 'additional_fields', 'unit_price', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('new_cart')
        .select([
          sql<string>`cast(${v.entryId} as text)`.as('id'),
          'new_cart.id as cart_id',
          sql<string>`cast(${v.itemId} as text)`.as('item_id'),
          sql<string>`cast(${v.sku} as text)`.as('sku'),
          sql<number>`cast(${v.quantity} as integer)`.as('quantity'),
          sql<string>`cast(${v.additionalFields} as text)`.as('additional_fields'),
          sql<number>`cast(${v.unitPrice} as bigint)`.as('unit_price'),
          sql<string>`cast(${v.now} as text)`.as('created_at'),
        ]),
    );
}

const insertCartWithEntry = compiledQuery((db, v: NewCartValues) => cartWithEntryInsert(db, v));
const insertCartWithKnownEntry = compiledQuery((db, v: NewCartValues & KnownRowValues) =>
  cartWithEntryInsert(db, v, v),
);

// ---------------------------------------------------------------- changing the form answers

export interface UpdateAdditionalFieldsOutcome {
  shoppingCart: ShoppingCart;
  updatedEntry: CartEntry;
}

/**
 * Replaces an entry's additional fields, checked against the product's form as an add checks them. When another
 * line of the same sku already has exactly these answers, the two lines become one (the sum of both quantities), as
 * an add with those answers would have done.
 */
export async function updateAdditionalFields(
  db: Kysely<Database>,
  site: CartSite,
  token: string | undefined,
  entryId: string,
  sentAdditionalFields: string,
): Promise<Result<UpdateAdditionalFieldsOutcome, CartFailure>> {
  return inTransaction<UpdateAdditionalFieldsOutcome, CartFailure>(db, async (trx) => {
    const locked = await lockEntry(trx, site, token, entryId);
    if (!locked.ok) return locked;
    const { cart, entries, entry } = locked.value;
    const answers = await checkedAdditionalFields(
      trx,
      site,
      (await loadProduct(trx, site, entry.item_id))?.formId,
      sentAdditionalFields,
    );
    if (!answers.ok) return answers;
    const additionalFields = answers.value.text;

    let resultId = entry.id;
    const twin = entries.find(
      (e) => e.id !== entry.id && e.sku === entry.sku && e.additional_fields === additionalFields,
    );
    if (twin) {
      const merged = mergedLineQuantity(twin.quantity, entry.quantity);
      if (!merged.ok) return merged;
      await trx.deleteFrom('cart_entries').where('id', '=', entry.id).execute();
      await trx.updateTable('cart_entries').set({ quantity: merged.value }).where('id', '=', twin.id).execute();
      resultId = twin.id;
    } else if (entry.additional_fields !== additionalFields) {
      await trx
        .updateTable('cart_entries')
        .set({ additional_fields: additionalFields })
        .where('id', '=', entry.id)
        .execute();
    }

    const shoppingCart = await readCart(trx, site, cart);
    const updatedEntry = shoppingCart.entries.find((e) => e.id === resultId);
    if (!updatedEntry) throw new Error(`cart entry ${resultId} vanished inside its own transaction`);
    return ok({ shoppingCart, updatedEntry });
  });
}

// ---------------------------------------------------------------- the cart page: quantity and removal

export interface UpdateQuantityOutcome {
  shoppingCart: ShoppingCart;
  updatedEntry: CartEntry;
}

/**
 * Sets an entry's quantity (the core's checkLineQuantityChange: raising it re-checks stock inside the cart's
 * transaction, lowering it is always allowed). The unit price is kept: it is what the shopper saw when adding.
 */
export async function updateEntryQuantity(
  db: Kysely<Database>,
  site: CartSite,
  token: string | undefined,
  entryId: string,
  quantityInput: unknown,
): Promise<Result<UpdateQuantityOutcome, CartFailure>> {
  return inTransaction<UpdateQuantityOutcome, CartFailure>(db, async (trx) => {
    const locked = await lockEntry(trx, site, token, entryId);
    if (!locked.ok) return locked;
    const { cart, entries, entry } = locked.value;

    const product = (await loadProduct(trx, site, entry.item_id))?.product;
    const variant = product && findVariantBySku(product, entry.sku);
    const checked = checkLineQuantityChange({
      productType: product?.productType,
      stock: variant ?? undefined,
      quantityInLine: entry.quantity,
      quantityInOtherLines: entries
        .filter((e) => e.id !== entry.id && e.sku === entry.sku)
        .reduce((sum, e) => sum + e.quantity, 0),
      quantityInput,
    });
    if (!checked.ok) return checked;
    if (checked.value !== entry.quantity) {
      await trx.updateTable('cart_entries').set({ quantity: checked.value }).where('id', '=', entry.id).execute();
    }

    const shoppingCart = await readCart(trx, site, cart);
    const updatedEntry = shoppingCart.entries.find((e) => e.id === entry.id);
    if (!updatedEntry) throw new Error(`cart entry ${entry.id} vanished inside its own transaction`);
    return ok({ shoppingCart, updatedEntry });
  });
}

/** Removes an entry; the cart stays (empty when it was the last line). */
export async function removeEntry(
  db: Kysely<Database>,
  site: CartSite,
  token: string | undefined,
  entryId: string,
): Promise<Result<{ shoppingCart: ShoppingCart }, CartFailure>> {
  return inTransaction<{ shoppingCart: ShoppingCart }, CartFailure>(db, async (trx) => {
    const cart = token ? await lockOpenCart(trx, site.id, token, new Date().toISOString()) : undefined;
    if (!cart) return err({ type: 'ENTRY_NOT_FOUND' });
    const removed = await trx
      .deleteFrom('cart_entries')
      .where('cart_id', '=', cart.id)
      .where('id', '=', entryId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return err({ type: 'ENTRY_NOT_FOUND' });
    return ok({ shoppingCart: await readCart(trx, site, cart) });
  });
}

// ---------------------------------------------------------------- repository

/**
 * The cart of `token`, locked for the rest of the transaction, with all its entries and the one named `entryId`.
 * ENTRY_NOT_FOUND when there is no such open cart of this site or the entry is not in it.
 */
async function lockEntry(
  trx: Kysely<Database>,
  site: CartSite,
  token: string | undefined,
  entryId: string,
): Promise<Result<{ cart: CartRow; entries: CartEntryRow[]; entry: CartEntryRow }, CartFailure>> {
  const cart = token ? await lockOpenCart(trx, site.id, token, new Date().toISOString()) : undefined;
  if (!cart) return err({ type: 'ENTRY_NOT_FOUND' });
  const entries = await trx.selectFrom('cart_entries').selectAll().where('cart_id', '=', cart.id).execute();
  const entry = entries.find((e) => e.id === entryId);
  return entry ? ok({ cart, entries, entry }) : err({ type: 'ENTRY_NOT_FOUND' });
}

/** A token has the shape we issue (22 base64url characters); anything else cannot name a cart. */
export const isCartToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);

/** The id shown in the API: the token must not leak into page scripts, so the public id is derived from it. */
export const publicCartId = (token: string): string =>
  createHash('sha256').update(token).digest('base64url').slice(0, 22);

async function findOpenCart(db: Db, siteId: string, token: string): Promise<CartRow | undefined> {
  if (!isCartToken(token)) return undefined;
  return (await selectOpenCart.execute(db, { token, siteId })).rows[0];
}

const selectOpenCart = compiledQuery((db, v: { token: string; siteId: string }) =>
  db
    .selectFrom('carts')
    .selectAll()
    .where('id', '=', v.token)
    .where('site_id', '=', v.siteId)
    .where('is_purchased', '=', 0),
);

/**
 * Locks the cart row for the rest of the transaction by writing it (its updated_at): on PostgreSQL the UPDATE holds
 * the row lock (as SELECT … FOR UPDATE would) until commit, so a second request for the same cart waits, then reads
 * the committed entries. On SQLite the transaction already holds the database's write lock (BEGIN IMMEDIATE).
 * A token of another site, of a purchased cart or of no cart locks nothing: the caller treats it as no cart.
 */
async function lockOpenCart(
  trx: Kysely<Database>,
  siteId: string,
  token: string,
  now: string,
): Promise<CartRow | undefined> {
  if (!isCartToken(token)) return undefined;
  return (await updateOpenCart.execute(trx, { token, siteId, now })).rows[0];
}

const updateOpenCart = compiledQuery((db, v: { token: string; siteId: string; now: string }) =>
  db
    .updateTable('carts')
    .set({ updated_at: v.now })
    .where('id', '=', v.token)
    .where('site_id', '=', v.siteId)
    .where('is_purchased', '=', 0)
    .returningAll(),
);

/** A new open cart's row, with a new random token (128 bits), made at `now`. */
export const newCartRow = (siteId: string, now: string): CartRow => ({
  id: randomToken(16),
  site_id: siteId,
  created_at: now,
  updated_at: now,
  is_purchased: 0,
  order_id: null,
  claim: null,
});

/** A new open cart of the site, as stored (the row is the one written: nothing is read back). */
async function createCart(trx: Kysely<Database>, siteId: string, now: string): Promise<CartRow> {
  // 128 random bits: a collision is not a case to handle, but ON CONFLICT keeps it from ever being a 500 loop.
  for (;;) {
    const row = newCartRow(siteId, now);
    const { numAffectedRows } = await insertCart.execute(trx, row);
    if (numAffectedRows === 1n) return row;
  }
}

const insertCart = compiledQuery((db, v: CartRow) =>
  db
    .insertInto('carts')
    .values({
      id: v.id,
      site_id: v.site_id,
      created_at: v.created_at,
      updated_at: v.updated_at,
      is_purchased: v.is_purchased,
      order_id: v.order_id,
      claim: v.claim,
    })
    .onConflict((oc) => oc.column('id').doNothing()),
);

/**
 * How long after its creation a cart can be found by its claim: enough for the adds a new visitor's page sent at once
 * (and a retry of one whose answer was lost), short enough that the claim, which page scripts can read, is no lasting
 * second key to the cart (the CART cookie is HttpOnly).
 */
export const CART_CLAIM_WINDOW_MS = 5 * 60_000;

/**
 * The open cart of this site created with `claim` in the last CART_CLAIM_WINDOW_MS, locked for the rest of the
 * transaction; when there is none it is created now (and rolled back with a refused add). So adds sent at once with one
 * claim and no cookie make one cart: on PostgreSQL the second INSERT waits for the first transaction and, once it has
 * committed, does nothing (UNIQUE (site_id, claim)); the UPDATE that follows locks the committed cart and the add
 * reads its entries. On SQLite the transactions run one after another. A purchased or older cart lets go of its
 * claim first, so a claim used again later starts a new cart rather than reopening that one.
 */
async function claimCart(
  trx: Kysely<Database>,
  siteId: string,
  claim: string,
  now: string,
): Promise<{ cart: CartRow; created: boolean }> {
  const since = new Date(Date.parse(now) - CART_CLAIM_WINDOW_MS).toISOString();
  await trx
    .updateTable('carts')
    .set({ claim: null })
    .where('site_id', '=', siteId)
    .where('claim', '=', claim)
    .where((eb) => eb.or([eb('is_purchased', '=', 1), eb('created_at', '<', since)]))
    .execute();
  const row: CartRow = { ...newCartRow(siteId, now), claim };
  const inserted = await trx
    .insertInto('carts')
    .values(row)
    .onConflict((oc) => oc.columns(['site_id', 'claim']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { cart: inserted, created: true };
  const locked = await trx
    .updateTable('carts')
    .set({ updated_at: now })
    .where('site_id', '=', siteId)
    .where('claim', '=', claim)
    .where('is_purchased', '=', 0)
    .returningAll()
    .executeTakeFirst();
  // Bought in the instant between the two statements (on PostgreSQL): this add starts a cart of its own.
  return locked ? { cart: locked, created: false } : { cart: await createCart(trx, siteId, now), created: true };
}

/** The product as the cart's rules see it, the id of its form, and the rows it was read from (a new line's answer). */
interface LoadedProduct {
  product: CoreProduct;
  formId: string | undefined;
  /** The product's stored record (products.data), and as parsed. */
  record: string;
  stored: Product;
  variants: VariantRow[];
}

/**
 * The product with its variants and their stock, read inside the caller's transaction (after the cart lock), and the
 * id of its form (additional fields), if it has one.
 */
async function loadProduct(trx: Kysely<Database>, site: CartSite, itemId: string): Promise<LoadedProduct | undefined> {
  const read = await getProductWithRows(trx, site.id, itemId);
  if (!read) return undefined;
  const { product, record, variants } = read;
  return {
    product: toCoreProduct(product, parseCurrencyCode(site.currency) ?? DEFAULT_CURRENCY),
    formId: product.additionalFieldsFormId,
    record,
    stored: product,
    variants,
  };
}

/**
 * The additionalFields text to store, and the product's form when it has one. A product with a form: its answers
 * checked with the core's form rules (the browser checked them too), stored as the checked answers' canonical JSON.
 * A product without a form: the text as sent (already canonical JSON, or '').
 */
async function checkedAdditionalFields(
  trx: Kysely<Database>,
  site: CartSite,
  formId: string | undefined,
  additionalFields: string,
): Promise<Result<{ text: string; form: Form | undefined }, CartFailure>> {
  // An import refuses a product naming a missing form; a form that is gone anyway checks nothing.
  const form = formId === undefined ? undefined : await getForm(trx, site.id, formId);
  if (!form) return ok({ text: additionalFields, form });
  const checked = checkProductFormAnswers(toProductForm(form), parseProductFormAnswers(additionalFields));
  return checked.ok ? ok({ text: checked.value, form }) : err({ type: 'INVALID_FORM_ANSWERS', ...checked.error });
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

/** variants.data holds the attributes (option name → value). */
function attributesOf(variantData: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseJson<Record<string, unknown>>(variantData, {}))) {
    if (typeof value === 'string') attributes[name] = value;
  }
  return attributes;
}

interface EntryWithCatalog extends CartEntryRow {
  product_data: string | null;
  product_type: number | null;
  variant_data: string | null;
  /** The variant's stock as read with the line (null: no such variant any more): the checkout's check before paying. */
  variant_unlimited: number | null;
  variant_qty_in_stock: number | null;
  /** The subscription option chosen, for the one line of a subscription cart (its form may be the option's). */
  subscription_option_id: string | null;
  /** product_data already parsed, when the caller has it (an add's new line): not parsed again. */
  product_record?: StoredProductFields;
}

/** What a cart line reads of its product's stored record. */
interface StoredProductFields {
  name?: unknown;
  images?: unknown;
  additionalFieldsFormId?: unknown;
  subscription?: { options?: readonly { id?: unknown; additionalFieldsFormId?: unknown }[] };
}

/** The catalog's parsed record of a line's product; undefined for a record that is not JSON (read as empty, below). */
function cachedRecord(siteId: string, productId: string, text: string): StoredProductFields | undefined {
  try {
    return parsedRecord(siteId, productId, text);
  } catch {
    return undefined;
  }
}

const productRecordOf = (row: EntryWithCatalog): StoredProductFields =>
  row.product_record ?? (row.product_data === null ? {} : parseJson<StoredProductFields>(row.product_data, {}));

async function readCart(db: Db, site: CartSite, cart: CartRow): Promise<ShoppingCart> {
  return (await readCartWithRows(db, site, cart)).shoppingCart;
}

async function readCartWithRows(
  db: Db,
  site: CartSite,
  cart: CartRow,
): Promise<{ shoppingCart: ShoppingCart; rows: EntryWithCatalog[] }> {
  const liveAt = utcTime(Date.now());
  return cartWithRows(
    db,
    site,
    cart,
    (await selectCartLines.execute(db, { siteId: site.id, cartId: cart.id, liveAt })).rows,
  );
}

/** The cart as the API shows it from its lines as read (selectCartLines' rows), and the rows. */
async function cartWithRows(
  db: Db,
  site: CartSite,
  cart: CartRow,
  read: readonly EntryWithCatalog[],
): Promise<{ shoppingCart: ShoppingCart; rows: EntryWithCatalog[] }> {
  // Each product's record parsed once per stored text (shared with the catalog's reads), not once per use.
  const rows = read.map((row) =>
    row.product_data === null ? row : { ...row, product_record: cachedRecord(site.id, row.item_id, row.product_data) },
  );
  return { shoppingCart: toShoppingCart(site.id, cart, rows, await entryForms(db, site.id, rows)), rows };
}

// Entries keep their item and sku when a re-import removes the product: such a line still shows, by its sku. A
// product that is not live now (a draft, one scheduled later: src/core/publishing.ts) is read as removed.
const productIsLive = (liveAt: string) => sql<SqlBool>`(p.live_from is null or p.live_from <= ${liveAt})`;
/** What a line's read takes from its product (`p`), variant (`v`) and subscription choice (`sc`): both reads below. */
const LINE_CATALOG_COLUMNS = [
  'p.data as product_data',
  'p.product_type as product_type',
  'v.data as variant_data',
  'v.unlimited as variant_unlimited',
  'v.qty_in_stock as variant_qty_in_stock',
  'sc.subscription_option_id',
] as const;
const selectCartLines = compiledQuery((db, v: { siteId: string; cartId: string; liveAt: string }) =>
  db
    .selectFrom('cart_entries as e')
    .leftJoin('products as p', (join) =>
      join.on('p.site_id', '=', v.siteId).onRef('p.id', '=', 'e.item_id').on(productIsLive(v.liveAt)),
    )
    .leftJoin('variants as v', (join) => join.on('v.site_id', '=', v.siteId).onRef('v.sku', '=', 'e.sku'))
    .leftJoin('subscription_carts as sc', 'sc.cart_id', 'e.cart_id')
    .selectAll('e')
    .select(LINE_CATALOG_COLUMNS)
    .where('e.cart_id', '=', v.cartId)
    .orderBy('e.created_at')
    .orderBy('e.id'),
);

// ---------------------------------------------------------------- for the checkout

/** A cart line as the checkout needs it: the entry, its product's type (null when a re-import removed it) and first image. */
export interface CheckoutCartLine {
  entry: CartEntry;
  productType: number | null;
  image: { file: string; altText: string } | null;
  /**
   * The variant's stock as read with the cart (null: no such variant any more): what the checkout checks before the
   * payment, without a read of its own; the order's transaction decides for real.
   */
  stock: { unlimited: boolean; qtyInStock: number } | null;
}

export interface CheckoutCart {
  cart: CartRow;
  shoppingCart: ShoppingCart;
  lines: CheckoutCartLine[];
}

/**
 * The open cart of `token` with what the checkout needs of each line, unlocked (the quote, the checks before paying).
 * PostgreSQL: the cart and its lines in one statement (one snapshot); SQLite: the cart, then its lines.
 */
export async function readCheckoutCart(
  db: Db,
  site: CartSite,
  token: string | undefined,
): Promise<CheckoutCart | undefined> {
  if (!token) return undefined;
  if (engineOf(db) === 'postgres') {
    if (!isCartToken(token)) return undefined;
    const liveAt = utcTime(Date.now());
    const read = cartAndLines((await selectCartWithLines.execute(db, { token, siteId: site.id, liveAt })).rows);
    return read && checkoutCartOf(read.cart, await cartWithRows(db, site, read.cart, read.lines));
  }
  const cart = await findOpenCart(db, site.id, token);
  if (!cart) return undefined;
  return checkoutCartOf(cart, await readCartWithRows(db, site, cart));
}

/**
 * For placing an order, inside its transaction: the open cart of `token` locked, as every cart write locks it (an add
 * or change of the cart under way is waited for; one that comes later waits for the order), and marked bought by
 * `orderId` — undone with the transaction when the order is refused — with its lines as they are once it is locked.
 * undefined: the token names no open cart of the site now (bought or expired since it was read).
 *
 * PostgreSQL: one statement when no other transaction wrote the cart meanwhile (issue 27: the lock, the lines and the
 * purchase were three round trips). An UPDATE that waits for another transaction holding the row (an add to this
 * cart) then updates the row as that one committed it, but the rest of its statement reads what was committed when
 * the statement began: the lines joined to it would be those before the add. So the update matches only the version
 * of the row the statement's snapshot saw (same `xmin`, the transaction that wrote it): a cart written by another
 * transaction since — committed while this one waited, or just before it came to the row — matches nothing, and the
 * cart is then locked and read in two statements, the lines read after the lock with a snapshot that sees the
 * committed change. SQLite's transaction holds the database's write lock: the update, then the lines.
 */
export async function takeCheckoutCart(
  trx: Db,
  site: CartSite,
  token: string,
  orderId: string,
  now: string,
): Promise<CheckoutCart | undefined> {
  if (!isCartToken(token)) return undefined;
  if (engineOf(trx) === 'postgres') {
    const liveAt = utcTime(Date.now());
    const taken = cartAndLines(
      (await takeCartWithLines.execute(trx, { token, siteId: site.id, orderId, now, liveAt })).rows,
    );
    if (taken) return checkoutCartOf(taken.cart, await cartWithRows(trx, site, taken.cart, taken.lines));
  }
  const cart = (await takeOpenCart.execute(trx, { token, siteId: site.id, orderId, now })).rows[0];
  if (!cart) return undefined;
  return checkoutCartOf(cart, await readCartWithRows(trx, site, cart));
}

function checkoutCartOf(
  cart: CartRow,
  { shoppingCart, rows }: { shoppingCart: ShoppingCart; rows: EntryWithCatalog[] },
): CheckoutCart {
  const lines = rows.map((row, i) => ({
    entry: shoppingCart.entries[i]!,
    productType: row.product_type,
    image: firstImage(row),
    stock:
      row.variant_unlimited === null
        ? null
        : { unlimited: row.variant_unlimited === 1, qtyInStock: Number(row.variant_qty_in_stock) },
  }));
  return { cart, shoppingCart, lines };
}

/** The cart locked and marked bought (the checkout's lock: lockOpenCart's update, with the purchase). */
const takeOpenCart = compiledQuery((db, v: { token: string; siteId: string; orderId: string; now: string }) =>
  db
    .updateTable('carts')
    .set({ updated_at: v.now, is_purchased: 1, order_id: v.orderId })
    .where('id', '=', v.token)
    .where('site_id', '=', v.siteId)
    .where('is_purchased', '=', 0)
    .returningAll(),
);

/**
 * PostgreSQL: takeOpenCart's update guarded by the row's version (`xmin`) as the statement's snapshot saw it, and the
 * cart's lines, in one statement (takeCheckoutCart says why the guard).
 */
const takeCartWithLines = compiledQuery(
  (db, v: { token: string; siteId: string; orderId: string; now: string; liveAt: string }) =>
    cartWithLines(
      db.with('cart', (w) =>
        w
          .updateTable('carts')
          .set({ updated_at: v.now, is_purchased: 1, order_id: v.orderId })
          .where('id', '=', v.token)
          .where('site_id', '=', v.siteId)
          .where('is_purchased', '=', 0)
          .where((eb) =>
            eb(
              sql`xmin`,
              '=',
              eb
                .selectFrom('carts as seen')
                .select(sql<string>`seen.xmin`.as('version'))
                .where('seen.id', '=', v.token),
            ),
          )
          .returningAll(),
      ),
      v,
    ),
);

/** PostgreSQL: findOpenCart's read and the cart's lines in one statement (a round trip fewer than the two). */
const selectCartWithLines = compiledQuery((db, v: { token: string; siteId: string; liveAt: string }) =>
  cartWithLines(
    db.with('cart', (w) =>
      w
        .selectFrom('carts')
        .selectAll()
        .where('id', '=', v.token)
        .where('site_id', '=', v.siteId)
        .where('is_purchased', '=', 0),
    ),
    v,
  ),
);

/**
 * The cart of the CTE `cart` (one row or none) with its lines as selectCartLines reads them: a row per line, the
 * cart's columns on each (as cart_row_…); a cart without lines is one row whose entry columns are null.
 */
const cartWithLines = (db: QueryCreator<Database & { cart: CartRow }>, v: { siteId: string; liveAt: string }) =>
  db
    .selectFrom('cart')
    .leftJoin('cart_entries as e', 'e.cart_id', 'cart.id')
    .leftJoin('products as p', (join) =>
      join.on('p.site_id', '=', v.siteId).onRef('p.id', '=', 'e.item_id').on(productIsLive(v.liveAt)),
    )
    .leftJoin('variants as v', (join) => join.on('v.site_id', '=', v.siteId).onRef('v.sku', '=', 'e.sku'))
    .leftJoin('subscription_carts as sc', 'sc.cart_id', 'e.cart_id')
    .select([
      'cart.id as cart_row_id',
      'cart.site_id as cart_row_site_id',
      'cart.created_at as cart_row_created_at',
      'cart.updated_at as cart_row_updated_at',
      'cart.is_purchased as cart_row_is_purchased',
      'cart.order_id as cart_row_order_id',
      'cart.claim as cart_row_claim',
      'e.id',
      'e.cart_id',
      'e.item_id',
      'e.sku',
      'e.quantity',
      'e.additional_fields',
      'e.unit_price',
      'e.created_at',
      ...LINE_CATALOG_COLUMNS,
    ])
    .orderBy('e.created_at')
    .orderBy('e.id');

type CartWithLineRow = Awaited<ReturnType<typeof takeCartWithLines.execute>>['rows'][number];

/** The cart and its lines from the rows of a cart joined with its entries (none: no cart). */
function cartAndLines(rows: readonly CartWithLineRow[]): { cart: CartRow; lines: EntryWithCatalog[] } | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const cart: CartRow = {
    id: first.cart_row_id,
    site_id: first.cart_row_site_id,
    created_at: first.cart_row_created_at,
    updated_at: first.cart_row_updated_at,
    is_purchased: first.cart_row_is_purchased,
    order_id: first.cart_row_order_id,
    claim: first.cart_row_claim,
  };
  const lines: EntryWithCatalog[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    lines.push({
      id: row.id,
      cart_id: row.cart_id!,
      item_id: row.item_id!,
      sku: row.sku!,
      quantity: row.quantity!,
      additional_fields: row.additional_fields!,
      unit_price: row.unit_price!,
      created_at: row.created_at!,
      product_data: row.product_data,
      product_type: row.product_type,
      variant_data: row.variant_data,
      variant_unlimited: row.variant_unlimited,
      variant_qty_in_stock: row.variant_qty_in_stock,
      subscription_option_id: row.subscription_option_id,
    });
  }
  return { cart, lines };
}

function firstImage(row: EntryWithCatalog): { file: string; altText: string } | null {
  if (row.product_data === null) return null;
  const images = productRecordOf(row).images;
  const first: unknown = Array.isArray(images) ? images[0] : undefined;
  if (first === null || typeof first !== 'object') return null;
  const { file, altText } = first as { file?: unknown; altText?: unknown };
  return typeof file === 'string' ? { file, altText: typeof altText === 'string' ? altText : '' } : null;
}

/**
 * The product form's id of an entry that has answers (from its product's record), or undefined. A subscription cart's
 * line answers its option's form when the option has one (§3), else the product's.
 */
const entryFormId = (row: EntryWithCatalog): string | undefined => {
  if (row.additional_fields === '' || row.product_data === null) return undefined;
  const product = productRecordOf(row);
  const option =
    row.subscription_option_id === null
      ? undefined
      : product.subscription?.options?.find((o) => o.id === row.subscription_option_id);
  const formId = option?.additionalFieldsFormId ?? product.additionalFieldsFormId;
  return typeof formId === 'string' ? formId : undefined;
};

/** The forms of the entries' products that have answers to show: one query, none when no entry has answers. */
async function entryForms(
  db: Db,
  siteId: string,
  rows: readonly EntryWithCatalog[],
): Promise<ReadonlyMap<string, Form>> {
  const ids = [...new Set(rows.map(entryFormId).filter((id): id is string => id !== undefined))];
  if (ids.length === 0) return new Map();
  const forms = await db
    .selectFrom('forms')
    .select(['id', 'data'])
    .where('site_id', '=', siteId)
    .where('id', 'in', ids)
    .execute();
  return new Map(forms.map((f) => [f.id, JSON.parse(f.data) as Form]));
}

// ---------------------------------------------------------------- the one row ↔ API mapper

function toShoppingCart(
  websiteId: string,
  cart: CartRow | null,
  rows: readonly EntryWithCatalog[],
  forms: ReadonlyMap<string, Form> = new Map(),
): ShoppingCart {
  const entries = rows.map((row) => entryRowToCartEntry(row, forms));
  const totals = cartTotals(
    rows.map((row, i) => ({ productType: row.product_type, quantity: row.quantity, subTotal: entries[i]!.subTotal })),
  );
  return {
    id: cart ? publicCartId(cart.id) : null,
    websiteId,
    orderId: cart?.order_id ?? null,
    created: cart ? Date.parse(cart.created_at) : null,
    isPurchased: cart?.is_purchased === 1,
    entries,
    shippingOptions: [],
    selectedShippingOption: null,
    shippingLocation: null,
    applicableTaxRules: [],
    coupons: [],
    validCoupons: [],
    invalidCoupons: [],
    ...totals,
  };
}

function entryRowToCartEntry(row: EntryWithCatalog, forms: ReadonlyMap<string, Form>): CartEntry {
  const formId = entryFormId(row);
  const form = formId === undefined ? undefined : forms.get(formId);
  const product = productRecordOf(row);
  return {
    id: row.id,
    itemId: row.item_id,
    chosenVariant: { sku: row.sku, attributes: row.variant_data === null ? {} : attributesOf(row.variant_data) },
    quantity: row.quantity,
    title: typeof product.name === 'string' ? product.name : row.sku,
    subTotal: row.unit_price * row.quantity,
    purchasePriceCents: row.unit_price,
    additionalFields: row.additional_fields,
    additionalFieldsSummary: form
      ? summarizeFormAnswers(form, parseProductFormAnswers(row.additional_fields), form.noAnswerText)
      : [],
    productType: row.product_type === null ? null : Number(row.product_type),
  };
}
