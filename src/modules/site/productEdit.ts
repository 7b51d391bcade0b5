/**
 * The product editor's changes to a site's content (issue 26): create or update a product from the editor's input,
 * duplicate one, delete one. Pure over the content (src/modules/site/edit.ts applies them to the stored site and saves
 * a version). What the input leaves out (a JSON client that sends no `seo`, no `subscription`…) is kept as it was;
 * `null` removes it. Stock: a new variant takes the stock the editor gives; a variant already stored keeps its live
 * stock (the save keeps it: `replaceSite` with stock 'live'), also when its SKU is renamed (its stock moves to the new
 * SKU).
 */
import { publicationFields, type Publication, type PublicationStatus } from '../../core/publishing';
import { err, ok, type Result } from '../../core/result';
import { freeSlug, slugOf } from '../../core/slug';
import type { SiteContent } from './edit';
import type { Product, SiteFile, Stock } from './schema';
import { DEFAULT_SCARCITY_TEXT } from './productDefaults';

export interface VariantInput {
  sku: string;
  /** Option name → value. */
  attributes: Record<string, string>;
  /** Minor units. */
  price: number;
  salePrice?: number | undefined;
  /** A new variant's stock (a stored variant's live stock is kept whatever this says). */
  stock?: number | 'unlimited' | undefined;
  /** The SKU the variant had when the form was opened (a renamed SKU keeps its stock). */
  originalSku?: string | undefined;
  /** In the store's weight unit; null: none; absent: the stored variant's kept. */
  weight?: number | null | undefined;
}

export interface ImageInput {
  file: string;
  altText: string;
  /** Each from 0 to 1 (0.5, 0.5: the middle); absent: kept (the middle for a new image). */
  focalPoint?: { x: number; y: number } | undefined;
  /** The option values it pictures (`{ Color: 'Slate' }`); null or {}: none; absent: kept. */
  attributes?: Record<string, string> | null | undefined;
}

export interface SubscriptionInput {
  billingPeriod: { value: number; unit: 'WEEK' | 'MONTH' | 'YEAR' };
  /** 0: until cancelled. */
  numBillingCycles: number;
  options: {
    id: string;
    price: number;
    /** A sale price puts the option on sale. */
    salePrice?: number | undefined;
    additionalFieldsFormId?: string | undefined;
    customAddButtonText?: string | undefined;
  }[];
}

export interface MerchandisingInput {
  scarcity?: { enabled: boolean; text: string; threshold: number; shownByDefault?: boolean | undefined } | undefined;
  /** '' or null: the site's sold-out label. */
  customSoldOutText?: string | null | undefined;
  restockNotifications?:
    | {
        enabled: boolean;
        message?: string | null | undefined;
        successMessage?: string | null | undefined;
        mailingListSignUpEnabled: boolean;
        mailingListOptInByDefault: boolean;
        hiddenByDefault: boolean;
      }
    | undefined;
}

export interface ProductInput {
  name: string;
  /** Empty or absent: made from the name. */
  slug?: string | undefined;
  description: string;
  collectionId: string;
  productType: 1 | 2 | 3 | 4 | 5;
  options: { name: string; values: string[] }[];
  variants: VariantInput[];
  /** In the order shown; each an image of the site. Absent: the images are kept as they are. */
  images?: ImageInput[] | undefined;
  /** The product form (a form of the site) the shopper fills in before adding; null: none. */
  additionalFieldsFormId?: string | null | undefined;
  /** The subscription plan; null: not a subscription. */
  subscription?: SubscriptionInput | null | undefined;
  merchandising?: MerchandisingInput | undefined;
  /** Products of the site, in order; null: the next ones of its collection; []: none. */
  relatedProductIds?: string[] | null | undefined;
  /** Products of the site, in order; null or []: none. */
  addOnProductIds?: string[] | null | undefined;
  tags?: string[] | undefined;
  /** Each '' or absent: the product's name and description; null: both. */
  seo?: { title?: string | undefined; description?: string | undefined } | null | undefined;
  /** The editor status (src/core/publishing.ts); with 'scheduled', `publishAt` (ISO). Absent: both kept. */
  status?: PublicationStatus | undefined;
  publishAt?: string | undefined;
}

/** A product's slug from its name ('product' when nothing is left). */
export const slugify = (text: string): string => slugOf(text, 'product');

/** `base`, or `base-2`, `base-3` … : the first one not in `taken` (at most 64 characters). */
export const freeId = freeSlug;

const stockOf = (stock: VariantInput['stock']): Stock =>
  stock === 'unlimited' ? { unlimited: true } : { qtyInStock: stock ?? 0 };

/** `value` under `key` when it is there, nothing when undefined: for optional keys of the site file. */
const maybe = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** A text as the site file keeps it: trimmed, and absent when empty. */
const filled = (text: string | null | undefined): string | undefined => (text?.trim() ? text.trim() : undefined);

/** The product's optional parts the input sets (kept when it leaves them out; removed by null). */
function optionalParts(input: ProductInput, existing: Product | undefined): Partial<Product> {
  const parts: Partial<Product> = {};
  const set = <K extends keyof Product>(key: K, value: Product[K] | undefined | null, given: boolean) => {
    if (!given) {
      if (existing?.[key] !== undefined) parts[key] = existing[key];
    } else if (value !== undefined && value !== null) parts[key] = value;
  };
  set(
    'additionalFieldsFormId',
    filled(input.additionalFieldsFormId ?? undefined),
    input.additionalFieldsFormId !== undefined,
  );
  set(
    'subscription',
    input.subscription ? subscriptionFrom(input.subscription, existing?.subscription) : null,
    input.subscription !== undefined,
  );
  // An empty list of add-ons shows as none, as no list does: kept as the file had it.
  const addOns = input.addOnProductIds;
  set(
    'addOnProductIds',
    addOns && (addOns.length > 0 || existing?.addOnProductIds !== undefined) ? addOns : null,
    addOns !== undefined,
  );
  set('relatedProductIds', input.relatedProductIds, input.relatedProductIds !== undefined);
  const seo = input.seo && {
    ...maybe('title', filled(input.seo.title)),
    ...maybe('description', filled(input.seo.description)),
  };
  set('seo', seo && Object.keys(seo).length > 0 ? seo : null, input.seo !== undefined);
  return parts;
}

function subscriptionFrom(
  input: SubscriptionInput,
  before: Product['subscription'],
): NonNullable<Product['subscription']> {
  return {
    billingPeriod: input.billingPeriod,
    numBillingCycles: input.numBillingCycles,
    options: input.options.map((o) => {
      const previous = before?.options.find((p) => p.id === o.id);
      return {
        id: o.id.trim(),
        price: o.price,
        ...maybe('salePrice', o.salePrice),
        onSale: o.salePrice !== undefined ? (previous?.onSale ?? true) : false,
        ...maybe('additionalFieldsFormId', filled(o.additionalFieldsFormId)),
        ...maybe('customAddButtonText', filled(o.customAddButtonText)),
      };
    }),
  };
}

function merchandisingFrom(input: MerchandisingInput | undefined, before: Product['merchandising']) {
  if (!input) return before;
  const { scarcity, restockNotifications: restock } = input;
  const soldOut = input.customSoldOutText === undefined ? before.customSoldOutText : filled(input.customSoldOutText);
  return {
    restockNotifications: restock
      ? {
          enabled: restock.enabled,
          ...maybe('message', filled(restock.message)),
          ...maybe('successMessage', filled(restock.successMessage)),
          mailingListSignUpEnabled: restock.mailingListSignUpEnabled,
          mailingListOptInByDefault: restock.mailingListOptInByDefault,
          hiddenByDefault: restock.hiddenByDefault,
        }
      : before.restockNotifications,
    scarcity: scarcity
      ? {
          enabled: scarcity.enabled,
          text: filled(scarcity.text) ?? DEFAULT_SCARCITY_TEXT,
          shownByDefault: scarcity.shownByDefault ?? before.scarcity.shownByDefault,
          threshold: scarcity.threshold,
        }
      : before.scarcity,
    ...maybe('customSoldOutText', soldOut),
  };
}

/** The product as the input says, on top of what it was (`existing`, kept for the fields the editor does not edit). */
function productFrom(input: ProductInput, id: string, existing: Product | undefined, site: SiteFile): Product {
  const stored = new Map(site.products.flatMap((p) => p.variants.map((v) => [v.sku, v.stock] as const)));
  // An empty slug: the product's own (its address stays), or one made from the name for a new product.
  const slug = input.slug?.trim() ? input.slug.trim() : (existing?.slug ?? slugify(input.name));
  const base: Product = existing ?? {
    ...({} as Pick<Product, 'id' | 'collectionId' | 'slug' | 'name' | 'description' | 'productType'>),
    variantOptions: [],
    variants: [],
    images: [],
    onSale: false,
    merchandising: {
      restockNotifications: {
        enabled: false,
        mailingListSignUpEnabled: false,
        mailingListOptInByDefault: false,
        hiddenByDefault: false,
      },
      scarcity: { enabled: false, text: DEFAULT_SCARCITY_TEXT, shownByDefault: true, threshold: 3 },
    },
    tags: [],
  };
  const {
    additionalFieldsFormId: _form,
    subscription: _subscription,
    addOnProductIds: _addOns,
    relatedProductIds: _related,
    seo: _seo,
    status: _status,
    publishAt: _publishAt,
    ...kept
  } = base;
  const publication: Publication =
    input.status !== undefined
      ? publicationFields(input.status, input.publishAt)
      : { ...maybe('status', base.status), ...maybe('publishAt', base.publishAt) };
  return {
    ...kept,
    ...publication,
    ...optionalParts(input, existing),
    merchandising: merchandisingFrom(input.merchandising, base.merchandising),
    tags: input.tags ? input.tags.map((t) => t.trim()) : base.tags,
    id,
    name: input.name.trim(),
    slug,
    description: input.description,
    collectionId: input.collectionId,
    productType: input.productType,
    variantOptions: input.options.map((o) => ({ name: o.name.trim(), values: o.values.map((v) => v.trim()) })),
    variants: input.variants.map((v) => {
      const previous = existing?.variants.find((e) => e.sku === (v.originalSku ?? v.sku));
      // A stored variant's stock is live: the save keeps it; a renamed SKU carries it to its new name.
      const kept = v.originalSku !== undefined ? stored.get(v.originalSku) : stored.get(v.sku);
      const weight = v.weight === undefined ? previous?.weight : (v.weight ?? undefined);
      return {
        sku: v.sku.trim(),
        attributes: v.attributes,
        price: v.price,
        ...(v.salePrice !== undefined ? { salePrice: v.salePrice } : {}),
        onSale: v.salePrice !== undefined ? (previous?.onSale ?? true) : false,
        stock: kept ?? stockOf(v.stock),
        ...maybe('weight', weight),
      };
    }),
    images:
      input.images === undefined
        ? (existing?.images ?? [])
        : input.images.map((image) => {
            const before = existing?.images.find((i) => i.file === image.file);
            const { attributes: keptAttributes, ...rest } = before ?? { focalPoint: { x: 0.5, y: 0.5 } };
            const attributes = image.attributes === undefined ? keptAttributes : (image.attributes ?? undefined);
            return {
              ...rest,
              file: image.file,
              altText: image.altText,
              ...(image.focalPoint ? { focalPoint: image.focalPoint } : {}),
              ...(attributes && Object.keys(attributes).length > 0 ? { attributes } : {}),
            };
          }),
  };
}

/** The images the input names that the site does not have. */
const missingImages = (content: SiteContent, input: ProductInput): string[] =>
  (input.images ?? []).map((i) => i.file).filter((file) => !content.assets.some((a) => a.path === file));

/** Adds a product made from `input` (its id from its slug, unique): the content and the product's id. */
export function createProduct(
  content: SiteContent,
  input: ProductInput,
): Result<{ content: SiteContent; id: string }, string> {
  const missing = missingImages(content, input);
  if (missing.length) return err(`The site has no image ${missing[0]}: upload it first.`);
  const id = freeId(
    input.slug?.trim() ? input.slug.trim() : slugify(input.name),
    new Set(content.site.products.map((p) => p.id)),
  );
  content.site.products.push(productFrom(input, id, undefined, content.site));
  return ok({ content, id });
}

/** Changes product `id` to what `input` says (its place in the list kept). */
export function updateProduct(content: SiteContent, id: string, input: ProductInput): Result<SiteContent, string> {
  const index = content.site.products.findIndex((p) => p.id === id);
  if (index === -1) return err('This product was deleted meanwhile: nothing was saved.');
  const missing = missingImages(content, input);
  if (missing.length) return err(`The site has no image ${missing[0]}: upload it first.`);
  content.site.products[index] = productFrom(input, id, content.site.products[index], content.site);
  return ok(content);
}

/**
 * A copy of product `id` after it: '{name} (copy)', a free slug and id, each SKU with '-copy' (made free), counted
 * variants with no stock (the copy is a new thing to stock, never units sold twice). The content and the copy's id.
 */
export function duplicateProduct(
  content: SiteContent,
  id: string,
): Result<{ content: SiteContent; id: string }, string> {
  const index = content.site.products.findIndex((p) => p.id === id);
  const original = content.site.products[index];
  if (!original) return err('This product was deleted meanwhile.');
  const ids = new Set(content.site.products.map((p) => p.id));
  const slugs = new Set(
    content.site.products.filter((p) => p.collectionId === original.collectionId).map((p) => p.slug),
  );
  const skus = new Set(content.site.products.flatMap((p) => p.variants.map((v) => v.sku)));
  const copyId = freeId(`${original.id.slice(0, 59)}-copy`, ids);
  const copy: Product = {
    ...structuredClone(original),
    id: copyId,
    name: `${original.name.slice(0, 193)} (copy)`,
    slug: freeId(`${original.slug.slice(0, 59)}-copy`, slugs),
    variants: original.variants.map((v) => {
      const sku = freeSku(`${v.sku.slice(0, 59)}-copy`, skus);
      skus.add(sku);
      return { ...structuredClone(v), sku, stock: 'unlimited' in v.stock ? { unlimited: true } : { qtyInStock: 0 } };
    }),
  };
  content.site.products.splice(index + 1, 0, copy);
  return ok({ content, id: copyId });
}

function freeSku(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Removes product `id`, and names of it in other products' related products and add-ons. Refused while a page's block
 * shows it (the page would break): the owner removes the block first. Orders keep their lines (they copy what was
 * bought: name, price, SKU).
 */
export function removeProduct(content: SiteContent, id: string): Result<SiteContent, string> {
  const product = content.site.products.find((p) => p.id === id);
  if (!product) return err('This product was deleted meanwhile.');
  const pages = content.site.pages.filter((page) =>
    page.blocks.some(
      (b) => (b.type === 'product' && b.productId === id) || (b.type === 'productWaitlist' && b.productId === id),
    ),
  );
  if (pages.length)
    return err(
      `“${product.name}” is shown on ${pages.map((p) => `page “${p.title}”`).join(', ')}: remove its block there first.`,
    );
  content.site.products = content.site.products.filter((p) => p.id !== id);
  for (const other of content.site.products) {
    if (other.relatedProductIds?.includes(id))
      other.relatedProductIds = other.relatedProductIds.filter((x) => x !== id);
    if (other.addOnProductIds?.includes(id)) other.addOnProductIds = other.addOnProductIds.filter((x) => x !== id);
  }
  return ok(content);
}

/** Every combination of the options' values, in the options' order (one empty combination without options). */
export function combinations(
  options: readonly { name: string; values: readonly string[] }[],
): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const option of options) {
    combos = combos.flatMap((combo) => option.values.map((value) => ({ ...combo, [option.name]: value })));
  }
  return combos;
}

/** Words of the spec's editor messages for the cross-record refusals of the schema (§5 'This {tagType} already exists'). */
const SPEC_WORDS: readonly [RegExp, string][] = [
  [/^duplicate slug /, 'This slug already exists'],
  [/^duplicate sku /, 'This SKU already exists'],
  [/^duplicate option /, 'This option already exists'],
  [/^add-on '.*' is named twice$/, 'This add-on already exists'],
  [/^related product '.*' is named twice$/, 'This related product already exists'],
];

/** How many parts of a problem's path name the editor's field ('variants.0.price', 'seo.title', 'tags.2'…). */
const FIELD_DEPTH: Readonly<Record<string, number>> = {
  variants: 3,
  options: 3,
  images: 3,
  merchandising: 3,
  seo: 2,
  tags: 2,
  relatedProductIds: 2,
  addOnProductIds: 2,
};

const fieldOf = (path: string): string => {
  const parts = path.split('.');
  const root = parts[0] ?? '';
  const depth = root === 'subscription' ? (parts[1] === 'options' ? 4 : 2) : (FIELD_DEPTH[root] ?? 1);
  return parts.slice(0, depth).join('.');
};

/**
 * The editor's own rules beyond the site file's (which an import keeps as they are): tags and subscription options
 * named once (§5 'This {tagType} already exists'), no subscription for a gift card (its own checkout wins: the plan
 * would never be used). The problems of the product at `index`, as the site file's are written.
 */
export function productRuleProblems(product: Product, index: number): string[] {
  const problems: string[] = [];
  const at = (path: string, message: string) => problems.push(`products[${index}].${path}: ${message}`);
  const tags = new Set<string>();
  product.tags.forEach((tag, i) => {
    const key = tag.trim().toLowerCase();
    if (key === '') at(`tags[${i}]`, 'must not be empty');
    else if (tags.has(key)) at(`tags[${i}]`, 'This tag already exists');
    tags.add(key);
  });
  if (product.subscription && product.productType === 4)
    at(
      'subscription',
      'A gift card cannot be sold as a subscription: turn the subscription off, or choose another type.',
    );
  const ids = new Set<string>();
  product.subscription?.options.forEach((option, i) => {
    if (ids.has(option.id)) at(`subscription.options[${i}].id`, 'This subscription option already exists');
    ids.add(option.id);
  });
  return problems;
}

/**
 * The problems of a refused save that are about product `index` of the site, by the editor's field:
 * 'name', 'slug', 'variants.0.price', 'options.0.values', 'images.1.altText'…; a problem elsewhere is under ''.
 */
export function productFieldErrors(problems: readonly string[], index: number): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const problem of problems) {
    const match = new RegExp(
      `^products\\[${index}\\](?: \\(id '[^']*'(?:, ".*?")?\\))?((?:\\.[A-Za-z_$][\\w$]*|\\[\\d+\\]|\\["[^"]*"\\])*): (.+)$`,
    ).exec(problem);
    if (!match) {
      fields[''] ??= problem;
      continue;
    }
    const path = (match[1] ?? '')
      .replace(/\[(\d+)\]/g, '.$1')
      .replace(/\["([^"]*)"\]/g, '.$1')
      .replace(/^\./, '')
      .replace(/^variantOptions/, 'options');
    const field = fieldOf(path);
    const message = SPEC_WORDS.find(([re]) => re.test(match[2] ?? ''))?.[1] ?? match[2] ?? problem;
    fields[field] ??= message;
  }
  return fields;
}
