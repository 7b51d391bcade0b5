/**
 * The product editor's changes to a site's content (issue 26): create or update a product from the editor's input,
 * duplicate one, delete one. Pure over the content (src/modules/site/edit.ts applies them to the stored site and saves
 * a version). What the form does not edit (subscription plan, merchandising, tags, related products…) is kept as it
 * was. Stock: a new variant takes the stock the editor gives; a variant already stored keeps its live stock (the save
 * keeps it: `replaceSite` with stock 'live'), also when its SKU is renamed (its stock moves to the new SKU).
 */
import { err, ok, type Result } from '../../core/result';
import type { SiteContent } from './edit';
import type { Product, SiteFile, Stock } from './schema';

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
  images?: { file: string; altText: string }[] | undefined;
}

/** 'Speckled Mug (Large)' → 'speckled-mug-large'; at most 64 characters; 'product' when nothing is left. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? 'product' : slug;
}

/** `base`, or `base-2`, `base-3` … : the first one not in `taken` (at most 64 characters). */
export function freeId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${base.slice(0, 64 - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(id)) return id;
  }
}

const stockOf = (stock: VariantInput['stock']): Stock =>
  stock === 'unlimited' ? { unlimited: true } : { qtyInStock: stock ?? 0 };

/** The product as the input says, on top of what it was (`existing`, kept for the fields the editor does not edit). */
function productFrom(input: ProductInput, id: string, existing: Product | undefined, site: SiteFile): Product {
  const stored = new Map(site.products.flatMap((p) => p.variants.map((v) => [v.sku, v.stock] as const)));
  // An empty slug: the product's own (its address stays), or one made from the name for a new product.
  const slug = input.slug?.trim() ? input.slug.trim() : (existing?.slug ?? slugify(input.name));
  return {
    ...(existing ?? {
      images: [],
      onSale: false,
      merchandising: {
        restockNotifications: {
          enabled: false,
          mailingListSignUpEnabled: false,
          mailingListOptInByDefault: false,
          hiddenByDefault: false,
        },
        scarcity: { enabled: false, text: 'Only {qty} left in stock', shownByDefault: true, threshold: 3 },
      },
      tags: [],
    }),
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
      return {
        sku: v.sku.trim(),
        attributes: v.attributes,
        price: v.price,
        ...(v.salePrice !== undefined ? { salePrice: v.salePrice } : {}),
        onSale: v.salePrice !== undefined ? (previous?.onSale ?? true) : false,
        stock: kept ?? stockOf(v.stock),
      };
    }),
    images:
      input.images === undefined
        ? (existing?.images ?? [])
        : input.images.map((image) => {
            const before = existing?.images.find((i) => i.file === image.file);
            return {
              ...(before ?? { focalPoint: { x: 0.5, y: 0.5 } }),
              file: image.file,
              altText: image.altText,
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
];

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
    const field =
      path.startsWith('variants.') || path.startsWith('options.') || path.startsWith('images.')
        ? path.split('.').slice(0, 3).join('.')
        : (path.split('.')[0] ?? '');
    const message = SPEC_WORDS.find(([re]) => re.test(match[2] ?? ''))?.[1] ?? match[2] ?? problem;
    fields[field] ??= message;
  }
  return fields;
}
