/**
 * What changed between two site versions (issue 26), in words: per product, collection, page, post and form — added,
 * removed, or changed with the fields that changed (name, price, description, variants, images, blocks…) — and which
 * website settings changed. Things are named by their name and id, never by raw JSON. Live stock is not part of a
 * version's meaning: a variant's `stock` is ignored. Images are compared by their bytes' hashes when given (a
 * version's content maps each image path to its SHA-256), so a picture replaced under the same path is a change.
 */

/** A record of the site file, as far as the comparison needs it. */
export type DiffRecord = { readonly id: string } & Readonly<Record<string, unknown>>;

/** The parts of a site file that are compared (the site file's shape, src/modules/site/schema.ts). */
export interface SiteForDiff {
  readonly website: Readonly<Record<string, unknown>>;
  readonly collections: readonly DiffRecord[];
  readonly products: readonly DiffRecord[];
  readonly forms: readonly DiffRecord[];
  readonly pages: readonly DiffRecord[];
  readonly posts: readonly DiffRecord[];
}

/** An image path → the SHA-256 of its bytes. */
export type ImageHashes = Readonly<Record<string, string>>;

export type ThingKind = 'product' | 'collection' | 'page' | 'post' | 'form';

export interface ThingChange {
  kind: ThingKind;
  id: string;
  /** The thing's name (a product's or form's name, a title), as the newer version has it when it has it. */
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** What changed, in words ('name', 'price', 'variants', 'images', 'blocks'…); empty unless `change` is 'changed'. */
  fields: string[];
}

export interface SiteDiff {
  /** The website settings that changed, in words ('title', 'store settings'…). */
  settings: string[];
  /** The kinds whose order changed (the same things, another order: the navigation, the shop's list). */
  reordered: ThingKind[];
  things: ThingChange[];
}

const KINDS: readonly { kind: ThingKind; key: keyof Omit<SiteForDiff, 'website'>; plural: string }[] = [
  { kind: 'product', key: 'products', plural: 'products' },
  { kind: 'collection', key: 'collections', plural: 'collections' },
  { kind: 'page', key: 'pages', plural: 'pages' },
  { kind: 'post', key: 'posts', plural: 'posts' },
  { kind: 'form', key: 'forms', plural: 'forms' },
];

/** Field names as an owner says them; a field not listed is said as written. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  collectionId: 'collection',
  productType: 'product type',
  variantOptions: 'options',
  onSale: 'sale',
  additionalFieldsFormId: 'product form',
  addOnProductIds: 'add-ons',
  relatedProductIds: 'related products',
  subscription: 'subscription plan',
  seo: 'SEO title and description',
  pageType: 'page type',
  showInNavigation: 'navigation',
  publishedOn: 'date',
  commentState: 'comments',
  publicCommentCount: 'comment count',
  submitLabel: 'submit label',
  submissionMessage: 'submission message',
  submissionHtml: 'submission message',
  image: 'image',
  timeZone: 'time zone',
  default: 'default site',
  store: 'store settings',
  captcha: 'CAPTCHA',
  promoPopup: 'promo popup',
  social: 'social links',
  analytics: 'analytics',
  comments: 'comment settings',
};

const word = (field: string): string => FIELD_WORDS[field] ?? field;

/**
 * Deep equality of JSON values (a key holding undefined counts as absent); with `skipStock`, a `stock` key at any
 * depth is not compared (a product's variants' live stock). Faster than comparing JSON texts: nothing is built.
 */
function equal(a: unknown, b: unknown, skipStock = false): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i], skipStock)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let xKeys = 0;
  for (const key in x) {
    if (x[key] === undefined || (skipStock && key === 'stock')) continue;
    xKeys++;
    if (!equal(x[key], y[key], skipStock)) return false;
  }
  let yKeys = 0;
  for (const key in y) if (y[key] !== undefined && !(skipStock && key === 'stock')) yKeys++;
  return xKeys === yKeys;
}

const same = (a: unknown, b: unknown): boolean => equal(a, b);

function nameOf(thing: DiffRecord): string {
  for (const key of ['name', 'title']) {
    const value = thing[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return thing.id;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** A variant without its live stock and its prices (told apart as 'price'). */
function variantRest(variant: Record<string, unknown>): Record<string, unknown> {
  const { stock: _stock, price: _price, salePrice: _salePrice, onSale: _onSale, ...rest } = variant;
  return rest;
}

/** The image paths a record names, at any depth (`{ file: 'images/mug.jpg' }`). */
function imagePaths(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) imagePaths(item, into);
  else if (typeof value === 'object' && value !== null) {
    const file = (value as Record<string, unknown>).file;
    if (typeof file === 'string') into.push(file);
    for (const inner of Object.values(value)) if (typeof inner === 'object') imagePaths(inner, into);
  }
  return into;
}

/** Whether an image a record names has other bytes in the newer version. */
function imagesReplaced(thing: DiffRecord, from: ImageHashes, to: ImageHashes): boolean {
  return imagePaths(thing).some((path) => from[path] !== to[path]);
}

/** The fields of a product that changed, in words; 'price' for a variant's price, 'variants' for the rest. */
function productFields(a: DiffRecord, b: DiffRecord): string[] {
  const fields: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'variants') continue;
    if (!same(a[key], b[key])) fields.push(word(key));
  }
  const before = (Array.isArray(a.variants) ? a.variants : []).map(asRecord);
  const after = (Array.isArray(b.variants) ? b.variants : []).map(asRecord);
  const bySku = new Map(before.map((v) => [v.sku, v]));
  let price = false;
  let variants = before.length !== after.length;
  after.forEach((v, i) => {
    const old = bySku.get(v.sku);
    if (!old || before[i]?.sku !== v.sku) variants = true;
    if (!old) return;
    if (!same(old.price, v.price) || !same(old.salePrice, v.salePrice) || !same(old.onSale, v.onSale)) price = true;
    if (!same(variantRest(old), variantRest(v))) variants = true;
  });
  if (price) fields.push('price');
  if (variants) fields.push('variants');
  return fields;
}

function recordFields(a: DiffRecord, b: DiffRecord): string[] {
  const fields: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!same(a[key], b[key])) fields.push(word(key));
  }
  return fields;
}

/** The differences from the site `from` to the site `to` (older first). */
export function siteDiff(
  from: SiteForDiff,
  to: SiteForDiff,
  images: { from: ImageHashes; to: ImageHashes } = { from: {}, to: {} },
  /**
   * Products the caller already knows to be the same in both (their stored text is equal): not compared again, and
   * `from` may hold them as `{ id }` alone. Not for a comparison where an image has other bytes.
   */
  sameProducts: ReadonlySet<string> = new Set(),
): SiteDiff {
  const settings = [...new Set([...Object.keys(from.website), ...Object.keys(to.website)])]
    .filter((key) => !same(from.website[key], to.website[key]))
    .map(word);
  const things: ThingChange[] = [];
  const reordered: ThingKind[] = [];
  // Walking every record for its images only when an image has other bytes (or no known bytes) in the newer version.
  const anyReplaced = Object.keys(images.to).some((path) => images.from[path] !== images.to[path]);
  for (const { kind, key } of KINDS) {
    const before = from[key];
    const after = to[key];
    const old = new Map(before.map((t) => [t.id, t]));
    const kept = new Set<string>();
    for (const thing of after) {
      const previous = old.get(thing.id);
      if (!previous) {
        things.push({ kind, id: thing.id, name: nameOf(thing), change: 'added', fields: [] });
        continue;
      }
      kept.add(thing.id);
      if (kind === 'product' && sameProducts.has(thing.id)) continue;
      const replaced = anyReplaced && imagesReplaced(thing, images.from, images.to);
      const unchanged = equal(previous, thing, kind === 'product');
      if (unchanged && !replaced) continue;
      const fields = unchanged
        ? []
        : kind === 'product'
          ? productFields(previous, thing)
          : recordFields(previous, thing);
      if (replaced && !fields.includes('images') && !fields.includes('image')) fields.push('images');
      things.push({ kind, id: thing.id, name: nameOf(thing), change: 'changed', fields });
    }
    for (const thing of before) {
      if (!kept.has(thing.id)) things.push({ kind, id: thing.id, name: nameOf(thing), change: 'removed', fields: [] });
    }
    const orderBefore = before.filter((t) => kept.has(t.id)).map((t) => t.id);
    const orderAfter = after.filter((t) => kept.has(t.id)).map((t) => t.id);
    if (!same(orderBefore, orderAfter)) reordered.push(kind);
  }
  return { settings, reordered, things };
}

/** Whether two versions mean the same site. */
export const isEmptyDiff = (diff: SiteDiff): boolean =>
  diff.settings.length === 0 && diff.reordered.length === 0 && diff.things.length === 0;

const KIND_WORDS: Readonly<Record<ThingKind, string>> = {
  product: 'Product',
  collection: 'Collection',
  page: 'Page',
  post: 'Post',
  form: 'Form',
};

/** One change as a line: `Product “Speckled Mug” (mug): name, price changed`. */
export function describeThingChange(change: ThingChange): string {
  const what = `${KIND_WORDS[change.kind]} “${change.name}” (${change.id})`;
  if (change.change !== 'changed') return `${what} ${change.change}`;
  return `${what}: ${change.fields.join(', ')} changed`;
}

/** Every difference as lines a person reads, settings first. */
export function describeSiteDiff(diff: SiteDiff): string[] {
  const lines: string[] = [];
  if (diff.settings.length) lines.push(`Website settings: ${diff.settings.join(', ')} changed`);
  for (const kind of diff.reordered) lines.push(`${KIND_WORDS[kind]}s reordered`);
  for (const change of diff.things) lines.push(describeThingChange(change));
  return lines;
}

const count = (n: number, singular: string): string => `${n} ${n === 1 ? singular : `${singular}s`}`;

/** One line for a version's summary: the changes themselves when few, else how many of each. */
export function summarizeSiteDiff(diff: SiteDiff): string {
  if (isEmptyDiff(diff)) return 'No changes';
  const parts: string[] = [];
  if (diff.things.length <= 3) {
    for (const change of diff.things) {
      const what = `${change.kind} “${change.name}”`;
      parts.push(change.change === 'changed' ? `${what}: ${change.fields.join(', ')}` : `${change.change} ${what}`);
    }
  } else {
    for (const { kind } of KINDS) {
      for (const change of ['added', 'changed', 'removed'] as const) {
        const n = diff.things.filter((t) => t.kind === kind && t.change === change).length;
        if (n) parts.push(`${count(n, kind)} ${change}`);
      }
    }
  }
  if (diff.reordered.length) parts.push(`${diff.reordered.map((k) => `${k}s`).join(', ')} reordered`);
  if (diff.settings.length) parts.push(`settings: ${diff.settings.join(', ')}`);
  const line = parts.join('; ');
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/** The summary of a site's first version: what it holds. */
export function summarizeFirstVersion(site: SiteForDiff): string {
  const parts = KINDS.map(({ key, kind }) => count(site[key].length, kind));
  return `First version: ${parts.join(', ')}`;
}
