/**
 * The product form without JavaScript (issue 26): its fields (flat names: `o0.name`, `v1.price`, `img0.alt` …) read
 * into what the form shows again (the owner's input, kept on every refusal) and into the editor's input
 * (./productEdit.ts), and a stored product made into the form. Prices are written as decimals in the site's
 * currency ('12.50'; JPY whole yen) and stored in minor units; weights as decimals in the store's unit; focal points in
 * %. A gift card's form shows its amounts ('25, 50, 100', ./giftCardAmounts.ts) instead of options and variants. The
 * sections beyond the basics (subscription, merchandising, related products, SEO) are read by ./productFormMore.ts.
 */
import type { CurrencyCode } from '../../core/currency';
import { fractionDigits } from '../../core/currency';
import type { Publication } from '../../core/publishing';
import { parseMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import { parseWeight, weightText } from '../../core/weight';
import { isUploadedFile, type UploadedFile } from '../../platform/http/uploads';
import { amountsText, giftCardVariants, parseAmounts } from './giftCardAmounts';
import { combinations, slugify, type ImageInput, type ProductInput, type VariantInput } from './productEdit';
import {
  formOfMore,
  inputOfMore,
  newMoreForm,
  readMoreForm,
  type MoreFormState,
  type ProductChoices,
} from './productFormMore';
import type { Product } from './schema';
import { readStatusChange } from './statusForm';

export type { ProductChoices } from './productFormMore';

export const MAX_FORM_OPTIONS = 3;
export const MAX_FORM_VARIANTS = 100;
export const MAX_FORM_IMAGES = 50;
const GIFT_CARD_TYPE = '4';

export interface VariantRowState {
  sku: string;
  price: string;
  salePrice: string;
  /** A new variant's stock as typed ('' = 0, 'unlimited'). */
  stock: string;
  /** In the store's unit, as typed ('' = none). */
  weight: string;
  /** True: posted without a weight field (a script's post): the stored weight stays. */
  keepWeight?: boolean | undefined;
  attributes: Record<string, string>;
  /** A stored variant: its SKU when the form was made, and its live stock (null: unlimited). */
  original?: { sku: string; qtyInStock: number | null } | undefined;
}

export interface ImageState {
  file: string;
  alt: string;
  /** The focal point in % as typed ('50'). */
  focusX: string;
  focusY: string;
  /** The option values it pictures, by option name ('' or absent: any). */
  values: Record<string, string>;
  /** False: a post without the image's focal point and values (a script's): they stay as stored. */
  detailed?: boolean | undefined;
}

export interface ProductFormState extends MoreFormState {
  baseVersion: number;
  name: string;
  slug: string;
  description: string;
  collectionId: string;
  productType: string;
  /** What the form shows for the variants: options and their grid, or a gift card's amounts. */
  layout: 'grid' | 'amounts';
  options: { name: string; values: string }[];
  variants: VariantRowState[];
  /** A gift card's amounts as typed ('25, 50, 100'). */
  amounts: string;
  images: ImageState[];
  /** The alt text for an image sent with the form. */
  uploadAlt: string;
  /** The Status fieldset as sent ('' or absent: not sent, the stored status stays; ./statusForm.ts). */
  status?: string;
  /** Its Publish at, as typed (a `datetime-local` value in the site's time zone). */
  publishAt?: string;
}

const amountText = (minor: number | undefined, currency: CurrencyCode): string => {
  if (minor === undefined) return '';
  const digits = fractionDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
};

/** A focal point's coordinate (0–1) as the form shows it, in % ('25', '33.3'). */
const percentText = (value: number): string => String(Math.round(value * 1000) / 10);

const layoutOf = (productType: string): ProductFormState['layout'] =>
  productType === GIFT_CARD_TYPE ? 'amounts' : 'grid';

/** A stored product as the form shows it. */
export function formOfProduct(product: Product, baseVersion: number, currency: CurrencyCode): ProductFormState {
  return {
    baseVersion,
    name: product.name,
    slug: product.slug,
    description: product.description,
    collectionId: product.collectionId,
    productType: String(product.productType),
    layout: layoutOf(String(product.productType)),
    options: product.variantOptions.map((o) => ({ name: o.name, values: o.values.join(', ') })),
    variants: product.variants.map((v) => ({
      sku: v.sku,
      price: amountText(v.price, currency),
      salePrice: amountText(v.salePrice, currency),
      stock: 'unlimited' in v.stock ? 'unlimited' : String(v.stock.qtyInStock),
      weight: weightText(v.weight),
      attributes: v.attributes,
      original: { sku: v.sku, qtyInStock: 'unlimited' in v.stock ? null : v.stock.qtyInStock },
    })),
    amounts: amountsText(
      product.variants.map((v) => v.price),
      currency,
    ),
    images: product.images.map((i) => ({
      file: i.file,
      alt: i.altText,
      focusX: percentText(i.focalPoint.x),
      focusY: percentText(i.focalPoint.y),
      values: { ...i.attributes },
    })),
    uploadAlt: '',
    ...formOfMore(product, currency),
  };
}

/** An empty form for a new product (one variant, no options). */
export function newProductForm(baseVersion: number, collectionId: string): ProductFormState {
  return {
    baseVersion,
    name: '',
    slug: '',
    description: '',
    collectionId,
    productType: '1',
    layout: 'grid',
    options: [],
    variants: [{ sku: '', price: '', salePrice: '', stock: '0', weight: '', attributes: {} }],
    amounts: '',
    images: [],
    uploadAlt: '',
    ...newMoreForm(),
  };
}

const text = (form: Record<string, unknown>, name: string, max = 20_000): string => {
  const value = form[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/** The options as typed: 'S, M, L' → the values (empty ones dropped); options without a name are left out. */
export const optionsOf = (state: Pick<ProductFormState, 'options'>): { name: string; values: string[] }[] =>
  state.options
    .filter((o) => o.name.trim() !== '')
    .map((o) => ({
      name: o.name.trim(),
      values: [
        ...new Set(
          o.values
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean),
        ),
      ],
    }));

/** The posted form as the form shows it again, the file sent with it, and what the owner asked ('save' or 'variants'). */
export function readProductForm(form: Record<string, unknown>): {
  state: ProductFormState;
  file: UploadedFile | undefined;
  intent: 'save' | 'variants';
} {
  const options: ProductFormState['options'] = [];
  for (let i = 0; i < MAX_FORM_OPTIONS; i++) {
    const name = text(form, `o${i}.name`, 60);
    const values = text(form, `o${i}.values`, 2000);
    if (name !== '' || values !== '') options.push({ name, values });
  }
  const named = optionsOf({ options });
  const variants: VariantRowState[] = [];
  for (let i = 0; i < MAX_FORM_VARIANTS && `v${i}.sku` in form; i++) {
    if (text(form, `v${i}.remove`) === 'yes') continue;
    const attributes: Record<string, string> = {};
    named.forEach((option, j) => {
      const value = text(form, `v${i}.a${j}`, 100);
      if (value !== '') attributes[option.name] = value;
    });
    const originalSku = text(form, `v${i}.original`, 64);
    const originalStock = text(form, `v${i}.live`, 20);
    variants.push({
      sku: text(form, `v${i}.sku`, 64).trim(),
      price: text(form, `v${i}.price`, 30).trim(),
      salePrice: text(form, `v${i}.salePrice`, 30).trim(),
      stock: text(form, `v${i}.stock`, 20).trim(),
      weight: text(form, `v${i}.weight`, 30).trim(),
      ...(`v${i}.weight` in form ? {} : { keepWeight: true }),
      attributes,
      ...(originalSku
        ? {
            original: {
              sku: originalSku,
              qtyInStock: originalStock === 'unlimited' || originalStock === '' ? null : Number(originalStock),
            },
          }
        : {}),
    });
  }
  const images: (ImageState & { position: number })[] = [];
  for (let i = 0; i < MAX_FORM_IMAGES && `img${i}.file` in form; i++) {
    if (text(form, `img${i}.remove`) === 'yes') continue;
    const position = Number(text(form, `img${i}.position`, 10));
    const values: Record<string, string> = {};
    named.forEach((option, j) => {
      const value = text(form, `img${i}.a${j}`, 100);
      if (value !== '') values[option.name] = value;
    });
    images.push({
      file: text(form, `img${i}.file`, 300),
      alt: text(form, `img${i}.alt`, 250),
      focusX: text(form, `img${i}.focusX`, 12).trim(),
      focusY: text(form, `img${i}.focusY`, 12).trim(),
      values,
      ...(`img${i}.focusX` in form ? {} : { detailed: false }),
      position: Number.isFinite(position) ? position : i + 1,
    });
  }
  images.sort((a, b) => a.position - b.position);
  const file = isUploadedFile(form.file) && (form.file.fileName !== '' || form.file.size > 0) ? form.file : undefined;
  const base = Number(text(form, 'baseVersion', 12));
  const productType = text(form, 'productType', 2) || '1';
  return {
    state: {
      baseVersion: Number.isInteger(base) && base > 0 ? base : 0,
      name: text(form, 'name', 200),
      slug: text(form, 'slug', 64).trim(),
      description: text(form, 'description'),
      collectionId: text(form, 'collectionId', 64),
      productType,
      layout: text(form, 'layout') === 'amounts' ? 'amounts' : 'grid',
      options,
      variants,
      amounts: text(form, 'amounts', 2000),
      images: images.map(({ position: _position, ...image }) => image),
      uploadAlt: text(form, 'uploadAlt', 250),
      status: text(form, 'status', 20),
      publishAt: text(form, 'publishAt', 40),
      ...readMoreForm(form),
    },
    file,
    intent: text(form, 'intent') === 'variants' ? 'variants' : 'save',
  };
}

/**
 * The form with its variant grid made again for its options: a row per combination of their values; a row kept for
 * the combination it had, else a row that lost its combination (a value renamed: its SKU and stock go on), else a new
 * row with a suggested SKU ({slug}-{values}) and the first row's prices. An image keeps the values still offered.
 */
export function regridForm(state: ProductFormState): ProductFormState {
  const options = optionsOf(state);
  const key = (attributes: Record<string, string>) => JSON.stringify(options.map((o) => attributes[o.name] ?? ''));
  const combos = combinations(options);
  const wanted = new Set(combos.map(key));
  const byCombo = new Map(
    state.variants.filter((v) => wanted.has(key(v.attributes))).map((v) => [key(v.attributes), v]),
  );
  const unmatched = state.variants.filter((v) => !wanted.has(key(v.attributes)));
  const slug = state.slug || slugify(state.name || 'product');
  const first = state.variants[0];
  return {
    ...state,
    variants: combos.slice(0, MAX_FORM_VARIANTS).map((attributes) => {
      const kept = byCombo.get(key(attributes)) ?? unmatched.shift();
      if (kept) return { ...kept, attributes };
      const suffix = slugify(Object.values(attributes).join('-'));
      return {
        sku: (options.length ? `${slug}-${suffix}` : slug).slice(0, 64),
        price: first?.price ?? '',
        salePrice: first?.salePrice ?? '',
        stock: '0',
        weight: first?.weight ?? '',
        attributes,
      };
    }),
    images: state.images.map((image) => ({
      ...image,
      values: Object.fromEntries(
        Object.entries(image.values).filter(([name, value]) =>
          options.some((o) => o.name === name && o.values.includes(value)),
        ),
      ),
    })),
  };
}

/** Whether every row's option values are a combination of the options as typed (else the grid must be made again). */
export function gridMatches(state: ProductFormState): boolean {
  const options = optionsOf(state);
  return state.variants.every(
    (v) =>
      Object.keys(v.attributes).length === options.length &&
      options.every((o) => o.values.includes(v.attributes[o.name] ?? '')),
  );
}

/** Whether the form shows what its product type needs (a gift card's amounts, or options and variants). */
export const layoutMatches = (state: ProductFormState): boolean => state.layout === layoutOf(state.productType);

/**
 * The form made again for its product type: a gift card's amounts from the variants' prices, or the amounts as an
 * option and variants (unlimited, as a gift card's were).
 */
export function relayoutForm(state: ProductFormState, currency: CurrencyCode): ProductFormState {
  const layout = layoutOf(state.productType);
  if (layout === 'amounts') {
    const prices = state.variants.flatMap((v) => {
      const parsed = parseMoney({ decimalValue: v.price.replace(/,/g, ''), currencyCode: currency }, currency);
      return parsed.ok && parsed.value.minorUnits > 0 ? [parsed.value.minorUnits] : [];
    });
    return { ...state, layout, amounts: amountsText(prices, currency) };
  }
  const grid = amountsGrid(state, currency);
  if (!grid) return { ...state, layout };
  return {
    ...state,
    layout,
    options: [{ name: grid.option.name, values: grid.option.values.join(', ') }],
    variants: grid.variants.map((v) => ({
      sku: v.sku,
      price: amountText(v.price, currency),
      salePrice: '',
      stock: 'unlimited',
      weight: '',
      attributes: v.attributes,
      ...(v.originalSku ? { original: { sku: v.originalSku, qtyInStock: null } } : {}),
    })),
  };
}

/** The gift card's amounts as its option and variants (null when the amounts are not readable). */
function amountsGrid(state: ProductFormState, currency: CurrencyCode, takenSkus: ReadonlySet<string> = new Set()) {
  const amounts = parseAmounts(state.amounts, currency);
  if (!amounts.ok) return null;
  const rows = state.variants.flatMap((v) => {
    const parsed = parseMoney({ decimalValue: v.price.replace(/,/g, ''), currencyCode: currency }, currency);
    return parsed.ok ? [{ sku: v.sku, price: parsed.value.minorUnits, originalSku: v.original?.sku }] : [];
  });
  const named = optionsOf(state);
  return giftCardVariants(amounts.value, rows, {
    slug: state.slug || slugify(state.name || 'gift-card'),
    currency,
    optionName: named.length === 1 ? named[0]?.name : undefined,
    takenSkus,
  });
}

/** What the form's reading needs besides the form: the site's currency and its records to choose from. */
export interface FormContext {
  currency: CurrencyCode;
  choices: ProductChoices;
  /** The site's SKUs (a new gift-card amount's SKU is made free among them). */
  takenSkus: ReadonlySet<string>;
  /** The site's time zone (Publish at is typed in it) and the time of the save (Publish at must be after it). */
  timeZone: string;
  now: number;
  /** The product as saved (absent for a new one): its publish time sent back as shown stays. */
  stored?: Publication | undefined;
}

/** The form as the editor's input, or the fields that are not what they should be. */
export function inputOfForm(
  state: ProductFormState,
  context: FormContext,
): Result<ProductInput, Record<string, string>> {
  const { currency } = context;
  const errors: Record<string, string> = {};
  const money = (value: string, field: string): number | undefined => {
    const parsed = parseMoney({ decimalValue: value.replace(/,/g, ''), currencyCode: currency }, currency);
    if (!parsed.ok) {
      errors[field] =
        fractionDigits(currency) === 0
          ? 'must be an amount like 1200'
          : `must be an amount like 12.50 (at most ${fractionDigits(currency)} decimals)`;
      return undefined;
    }
    return parsed.value.minorUnits;
  };
  let options = optionsOf(state);
  let variants: VariantInput[];
  if (state.layout === 'amounts') {
    const amounts = parseAmounts(state.amounts, currency);
    const grid = amounts.ok ? amountsGrid(state, currency, context.takenSkus) : null;
    if (!amounts.ok) errors.amounts = amounts.error;
    options = grid ? [grid.option] : [];
    variants = (grid?.variants ?? []).map((v) => ({
      sku: v.sku,
      attributes: v.attributes,
      price: v.price,
      stock: 'unlimited' as const,
      ...(v.originalSku ? { originalSku: v.originalSku } : {}),
    }));
  } else {
    variants = state.variants.map((v, i) => {
      const price =
        v.price === ''
          ? ((errors[`variants.${i}.price`] = 'must not be empty'), 0)
          : (money(v.price, `variants.${i}.price`) ?? 0);
      const salePrice = v.salePrice === '' ? undefined : money(v.salePrice, `variants.${i}.salePrice`);
      let stock: VariantInput['stock'];
      if (/^unlimited$/i.test(v.stock)) stock = 'unlimited';
      else if (v.stock === '') stock = 0;
      else if (/^\d{1,10}$/.test(v.stock) && Number(v.stock) <= 1_000_000_000) stock = Number(v.stock);
      else if (!v.original) errors[`variants.${i}.stock`] = "must be a whole number from 0, or 'unlimited'";
      const weight = v.keepWeight ? ok(undefined) : parseWeight(v.weight);
      if (!weight.ok) errors[`variants.${i}.weight`] = weight.error;
      return {
        sku: v.sku,
        attributes: v.attributes,
        price,
        ...(salePrice !== undefined ? { salePrice } : {}),
        ...(stock !== undefined ? { stock } : {}),
        ...(v.original ? { originalSku: v.original.sku } : {}),
        ...(weight.ok && weight.value === undefined ? {} : { weight: weight.ok ? weight.value : null }),
      };
    });
  }
  const images: ImageInput[] = state.images.map((image, i) => {
    if (image.detailed === false) return { file: image.file, altText: image.alt };
    const x = percent(image.focusX);
    const y = percent(image.focusY);
    if (x === undefined || y === undefined) errors[`images.${i}.focalPoint`] = 'must be a number from 0 to 100 (%)';
    return {
      file: image.file,
      altText: image.alt,
      ...(x !== undefined && y !== undefined ? { focalPoint: { x, y } } : {}),
      attributes: state.layout === 'amounts' ? null : image.values,
    };
  });
  const type = Number(state.productType);
  if (![1, 2, 3, 4, 5].includes(type)) errors.productType = 'must be one of the product types';
  const more = inputOfMore(state, { ...context, productType: type });
  Object.assign(errors, more.ok ? {} : more.error);
  const status = state.status
    ? readStatusChange(state.status, state.publishAt, context.timeZone, context.now, context.stored)
    : null;
  if (status && !status.ok) errors[status.error.field] = status.error.message;
  if (Object.keys(errors).length || !more.ok) return err(errors);
  return ok({
    name: state.name,
    slug: state.slug,
    description: state.description,
    collectionId: state.collectionId,
    productType: type as ProductInput['productType'],
    options,
    variants,
    images,
    ...more.value,
    ...(status?.ok ? status.value : {}),
  });
}

/** A focal point's coordinate from its % field ('' is the middle): 0–1, or undefined when not a number from 0 to 100. */
function percent(typed: string): number | undefined {
  if (typed.trim() === '') return 0.5;
  const value = Number(typed.replace(',', '.'));
  if (!Number.isFinite(value) || value < 0 || value > 100) return undefined;
  return Math.round(value * 10) / 1000;
}
