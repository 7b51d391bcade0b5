/**
 * The products in /admin (issue 26): the list (search by name or SKU, filter by collection and stock state, paged)
 * and the saves — create, update, duplicate, delete — each an edit of the site (`editSite`: a new site version by the
 * staff member, with its audit entry in the same transaction). An update made from an older version of a product that
 * someone saved since is refused with what changed and by whom (never overwritten); an upload sent with the form is
 * stored as an image of the media library and added to the product in the same save.
 */
import type { Kysely } from 'kysely';
import {
  publicationRefusal,
  shownStatus,
  STATUS_LABELS,
  statusOf,
  type Publication,
  type PublicationStatus,
} from '../../core/publishing';
import { ok, err, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { recordAudit, type Staff } from '../admin';
import { groupBy, productFromRows } from '../catalog';
import { editSite, type EditFailure, type SiteContent } from './edit';
import { imageFromUpload, withLibraryImage, type Upload, type UploadRefusal } from './media';
import {
  createProduct,
  duplicateProduct,
  productFieldErrors,
  productRuleProblems,
  removeProduct,
  updateProduct,
  type ProductInput,
} from './productEdit';
import type { Collection, Product, Website } from './schema';
import { ensureVersions } from './sites';

export type StockState = 'all' | 'in-stock' | 'low' | 'sold-out';

export interface ProductListItem {
  id: string;
  name: string;
  slug: string;
  collectionId: string;
  collection: string;
  productType: number;
  variants: number;
  /** The lowest and highest price (minor units). */
  price: { min: number; max: number };
  /** Units in stock over the counted variants; null when every variant is unlimited. */
  stock: number | null;
  soldOut: boolean;
  low: boolean;
  image: string | null;
  /** The editor status the owner sees now (src/core/publishing.ts shownStatus). */
  status: PublicationStatus;
}

export interface ProductCatalog {
  version: number;
  collections: Collection[];
  products: Product[];
}

/** The stored products with their live stock, the product collections and the site's version (no images read). */
export async function readCatalog(db: Kysely<Database>, siteId: string): Promise<ProductCatalog | undefined> {
  const site = await db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirst();
  if (!site) return undefined;
  const [collections, products, variants] = await Promise.all([
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('products').selectAll().where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('variants').selectAll().where('site_id', '=', siteId).execute(),
  ]);
  const byProduct = groupBy(variants, (v) => v.product_id);
  return {
    version: site.version,
    collections: collections.map((c) => JSON.parse(c.data) as Collection).filter((c) => c.type === 'products'),
    products: products.map((r) => productFromRows(r, byProduct.get(r.id) ?? [])),
  };
}

/** The status and publish time of stored product `id` (undefined when there is none). */
export async function storedPublication(
  db: Kysely<Database>,
  siteId: string,
  id: string,
): Promise<Publication | undefined> {
  const row = await db
    .selectFrom('products')
    .select('data')
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { status, publishAt } = JSON.parse(row.data) as Publication;
  return { status, publishAt };
}

/** The site's forms a product may use (its product form, a subscription option's), by id and name. */
export async function readFormChoices(db: Kysely<Database>, siteId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db.selectFrom('forms').select('data').where('site_id', '=', siteId).orderBy('position').execute();
  return rows.map((r) => {
    const form = JSON.parse(r.data) as { id: string; name: string };
    return { id: form.id, name: form.name };
  });
}

export const PRODUCTS_PAGE_SIZE = 50;

/** A product as a row of the list. */
export function listItem(product: Product, collections: readonly Collection[], lowThreshold: number): ProductListItem {
  const prices = product.variants.map((v) => (v.salePrice !== undefined && v.onSale ? v.salePrice : v.price));
  const counted = product.variants.flatMap((v) => ('qtyInStock' in v.stock ? [v.stock.qtyInStock] : []));
  const unlimited = counted.length < product.variants.length;
  const stock = unlimited && counted.length === 0 ? null : counted.reduce((a, b) => a + b, 0);
  const soldOut = !unlimited && counted.every((q) => q === 0);
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    collectionId: product.collectionId,
    collection: collections.find((c) => c.id === product.collectionId)?.title ?? product.collectionId,
    productType: product.productType,
    variants: product.variants.length,
    price: { min: Math.min(...prices), max: Math.max(...prices) },
    stock,
    soldOut,
    low: !soldOut && counted.some((q) => q > 0 && q <= lowThreshold),
    image: product.images[0]?.file ?? null,
    status: shownStatus(product, Date.now()),
  };
}

/** The list's page: `q` a part of the name or of a SKU (any case), a collection, a stock state. */
export function filterProducts(
  catalog: ProductCatalog,
  options: { q: string; collection: string; stock: StockState; offset: number; lowThreshold: number },
): { items: ProductListItem[]; total: number } {
  const q = options.q.trim().toLowerCase();
  const matches = catalog.products
    .filter((p) => options.collection === '' || p.collectionId === options.collection)
    .filter(
      (p) => q === '' || p.name.toLowerCase().includes(q) || p.variants.some((v) => v.sku.toLowerCase().includes(q)),
    )
    .map((p) => listItem(p, catalog.collections, options.lowThreshold))
    .filter(
      (item) =>
        options.stock === 'all' ||
        (options.stock === 'sold-out' && item.soldOut) ||
        (options.stock === 'low' && item.low) ||
        (options.stock === 'in-stock' && !item.soldOut),
    );
  return { items: matches.slice(options.offset, options.offset + PRODUCTS_PAGE_SIZE), total: matches.length };
}

export type ProductFailure =
  | EditFailure
  | UploadRefusal
  /** The input's problems by field ('name', 'variants.0.price' …; '' for the others). */
  | { type: 'FIELDS'; message: string; fields: Record<string, string> }
  /** The staff member's role may not give the product that status (src/core/publishing.ts publicationRefusal). */
  | { type: 'FORBIDDEN'; message: string };

/** What the audit entry keeps of a product: the fields the editor edits, in short. */
const summaryOf = (p: Product | undefined) =>
  p && {
    name: p.name,
    slug: p.slug,
    status: statusOf(p),
    ...(p.publishAt !== undefined ? { publishAt: p.publishAt } : {}),
    collectionId: p.collectionId,
    productType: p.productType,
    options: p.variantOptions.map((o) => `${o.name}: ${o.values.join(', ')}`),
    variants: p.variants.map((v) => ({
      sku: v.sku,
      price: v.price,
      ...(v.salePrice !== undefined ? { salePrice: v.salePrice } : {}),
    })),
    images: p.images.map((i) => i.file),
    ...(p.variants.some((v) => v.weight !== undefined) ? { weights: p.variants.map((v) => v.weight ?? null) } : {}),
    ...(p.additionalFieldsFormId ? { productForm: p.additionalFieldsFormId } : {}),
    ...(p.subscription
      ? {
          subscription: `every ${p.subscription.billingPeriod.value} ${p.subscription.billingPeriod.unit}; ${p.subscription.options.map((o) => `${o.id} ${o.price}`).join(', ')}`,
        }
      : {}),
    merchandising: [
      ...(p.merchandising.scarcity.enabled ? [`scarcity at ${p.merchandising.scarcity.threshold}`] : []),
      ...(p.merchandising.restockNotifications.enabled ? ['restock sign-up'] : []),
      ...(p.merchandising.customSoldOutText ? [`sold out: ${p.merchandising.customSoldOutText}`] : []),
    ],
    ...(p.relatedProductIds ? { relatedProducts: p.relatedProductIds } : {}),
    ...(p.addOnProductIds ? { addOns: p.addOnProductIds } : {}),
    tags: p.tags,
    ...(p.seo ? { seo: p.seo } : {}),
  };

/** The audit summary's words for a change of status (': status: Draft → Published'), or ''. */
const statusChange = (before: Product | undefined, after: Product | undefined): string =>
  before && after && statusOf(before) !== statusOf(after)
    ? `: status: ${STATUS_LABELS[statusOf(before)]} → ${STATUS_LABELS[statusOf(after)]}`
    : '';

/** The stored version (an edit's base when the caller gives none: a create, a duplicate). */
async function storedVersion(db: Kysely<Database>, siteId: string): Promise<number> {
  await ensureVersions(db, siteId);
  const row = await db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirst();
  return row?.version ?? 0;
}

/** An INVALID refusal about product `index` as the editor's field errors. */
function asFields(failure: EditFailure, index: number): ProductFailure {
  if (failure.type !== 'INVALID') return failure;
  const fields = productFieldErrors(failure.problems, index);
  const first = Object.entries(fields)[0];
  return {
    type: 'FIELDS',
    message: first ? `Not saved: ${first[0] ? `${first[0]}: ` : ''}${first[1]}` : failure.message,
    fields,
  };
}

export interface ProductSave {
  /** The version the form was made from (an update); absent: the stored one. */
  baseVersion?: number | undefined;
  input: ProductInput;
  /** An image sent with the form: stored in the media library and added after the product's images. */
  upload?: Upload | undefined;
  /** The upload's alt text. */
  uploadAltText?: string | undefined;
}

/** Creates (id undefined) or updates product `id`: the product as saved and the version. */
export async function saveProduct(
  db: Kysely<Database>,
  siteId: string,
  website: Pick<Website, 'media'>,
  staff: Staff,
  id: string | undefined,
  save: ProductSave,
): Promise<Result<{ product: Product; version: number }, ProductFailure>> {
  let image: Awaited<ReturnType<typeof imageFromUpload>> | undefined;
  if (save.upload) {
    image = await imageFromUpload(website, save.upload, new Set());
    if (!image.ok) return image;
  }
  let index = -1;
  let savedId = id ?? '';
  let before: Product | undefined;
  let after: Product | undefined;
  let refusal: string | undefined;
  let forbidden: string | null = null;
  const result = await editSite(db, siteId, {
    baseVersion: save.baseVersion ?? (await storedVersion(db, siteId)),
    subjects: id === undefined ? [] : [{ kind: 'product', id }],
    author: { createdBy: staff.email },
    moreProblems: (site) => {
      const product = site.products[index];
      return product ? productRuleProblems(product, index) : [];
    },
    change: (content: SiteContent) => {
      const input: ProductInput = { ...save.input, images: save.input.images ? [...save.input.images] : undefined };
      if (image?.ok) {
        const added = withLibraryImage(content, image.value);
        const existing =
          input.images ??
          content.site.products.find((p) => p.id === id)?.images.map((i) => ({ file: i.file, altText: i.altText })) ??
          [];
        input.images = [...existing, { file: added.image.path, altText: save.uploadAltText ?? '' }];
      }
      if (id === undefined) {
        index = content.site.products.length;
        forbidden = publicationRefusal(staff.role, 'product', null, input.status ?? 'published');
        if (forbidden !== null) return err(forbidden);
        const made = createProduct(content, input);
        if (!made.ok) return ((refusal = made.error), made);
        savedId = made.value.id;
        after = structuredClone(made.value.content.site.products.find((p) => p.id === savedId));
        return ok(made.value.content);
      }
      index = content.site.products.findIndex((p) => p.id === id);
      before = structuredClone(content.site.products[index]);
      if (before) {
        const from = shownStatus(before, Date.now());
        forbidden = publicationRefusal(staff.role, 'product', from, input.status ?? from);
        if (forbidden !== null) return err(forbidden);
      }
      const updated = updateProduct(content, id, input);
      if (!updated.ok) refusal = updated.error;
      else after = structuredClone(updated.value.site.products[index]);
      return updated;
    },
    alsoInTransaction: async (trx, { version }) => {
      await recordAudit(trx, {
        siteId,
        actor: staff.actor,
        action: id === undefined ? 'product.create' : 'product.update',
        subject: { type: 'product', id: savedId },
        summary: `${id === undefined ? 'Created' : 'Changed'} product “${after?.name ?? savedId}” (version ${version.number})${statusChange(before, after)}`,
        ...(before ? { before: summaryOf(before) } : {}),
        after: summaryOf(after),
      });
    },
  });
  if (!result.ok) {
    if (forbidden !== null) return err({ type: 'FORBIDDEN', message: forbidden });
    if (result.error.type === 'REFUSED' && refusal) return err({ type: 'REFUSED', message: refusal });
    return err(asFields(result.error, index));
  }
  const catalog = await readCatalog(db, siteId);
  const product = catalog?.products.find((p) => p.id === savedId);
  if (!product) return err({ type: 'NOT_FOUND', message: 'The product was saved, then deleted by another save.' });
  return ok({ product, version: result.value.version.number });
}

/** Duplicates product `id`: the copy and the version. */
export async function duplicateStoredProduct(
  db: Kysely<Database>,
  siteId: string,
  staff: Staff,
  id: string,
): Promise<Result<{ product: Product; version: number }, ProductFailure>> {
  let copyId = '';
  const result = await editSite(db, siteId, {
    baseVersion: await storedVersion(db, siteId),
    subjects: [],
    author: { createdBy: staff.email },
    change: (content) => {
      const made = duplicateProduct(content, id);
      if (!made.ok) return made;
      copyId = made.value.id;
      return ok(made.value.content);
    },
    alsoInTransaction: async (trx, { version }) => {
      await recordAudit(trx, {
        siteId,
        actor: staff.actor,
        action: 'product.duplicate',
        subject: { type: 'product', id: copyId },
        summary: `Duplicated product ${id} as ${copyId} (version ${version.number})`,
        before: { from: id },
        after: { id: copyId },
      });
    },
  });
  if (!result.ok) return result;
  const product = (await readCatalog(db, siteId))?.products.find((p) => p.id === copyId);
  if (!product) return err({ type: 'NOT_FOUND', message: 'The copy was deleted by another save.' });
  return ok({ product, version: result.value.version.number });
}

/** Deletes product `id` (its orders keep their lines): the version. */
export async function deleteStoredProduct(
  db: Kysely<Database>,
  siteId: string,
  staff: Staff,
  id: string,
  baseVersion: number | undefined,
): Promise<Result<{ version: number }, ProductFailure>> {
  let before: Product | undefined;
  const result = await editSite(db, siteId, {
    baseVersion: baseVersion ?? (await storedVersion(db, siteId)),
    subjects: [{ kind: 'product', id }],
    author: { createdBy: staff.email },
    change: (content) => {
      before = structuredClone(content.site.products.find((p) => p.id === id));
      return removeProduct(content, id);
    },
    alsoInTransaction: async (trx, { version }) => {
      await recordAudit(trx, {
        siteId,
        actor: staff.actor,
        action: 'product.delete',
        subject: { type: 'product', id },
        summary: `Deleted product “${before?.name ?? id}” (version ${version.number})`,
        before: summaryOf(before),
      });
    },
  });
  if (!result.ok) return result;
  return ok({ version: result.value.version.number });
}
