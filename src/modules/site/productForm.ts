/**
 * The product form without JavaScript (issue 26): its fields (flat names: `o0.name`, `v1.price`, `img0.alt` …) read
 * into what the form shows again (the owner's input, kept on every refusal) and into the editor's input
 * (./productEdit.ts), and a stored product made into the form. Prices are written as decimals in the site's
 * currency ('12.50'; JPY whole yen) and stored in minor units.
 */
import type { CurrencyCode } from '../../core/currency';
import { fractionDigits } from '../../core/currency';
import { parseMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import { isUploadedFile, type UploadedFile } from '../../platform/http/uploads';
import { combinations, slugify, type ProductInput, type VariantInput } from './productEdit';
import type { Product } from './schema';

export const MAX_FORM_OPTIONS = 3;
export const MAX_FORM_VARIANTS = 100;
export const MAX_FORM_IMAGES = 50;

export interface VariantRowState {
  sku: string;
  price: string;
  salePrice: string;
  /** A new variant's stock as typed ('' = 0, 'unlimited'). */
  stock: string;
  attributes: Record<string, string>;
  /** A stored variant: its SKU when the form was made, and its live stock (null: unlimited). */
  original?: { sku: string; qtyInStock: number | null } | undefined;
}

export interface ProductFormState {
  baseVersion: number;
  name: string;
  slug: string;
  description: string;
  collectionId: string;
  productType: string;
  options: { name: string; values: string }[];
  variants: VariantRowState[];
  images: { file: string; alt: string }[];
  /** The alt text for an image sent with the form. */
  uploadAlt: string;
}

const amountText = (minor: number | undefined, currency: CurrencyCode): string => {
  if (minor === undefined) return '';
  const digits = fractionDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
};

/** A stored product as the form shows it. */
export function formOfProduct(product: Product, baseVersion: number, currency: CurrencyCode): ProductFormState {
  return {
    baseVersion,
    name: product.name,
    slug: product.slug,
    description: product.description,
    collectionId: product.collectionId,
    productType: String(product.productType),
    options: product.variantOptions.map((o) => ({ name: o.name, values: o.values.join(', ') })),
    variants: product.variants.map((v) => ({
      sku: v.sku,
      price: amountText(v.price, currency),
      salePrice: amountText(v.salePrice, currency),
      stock: 'unlimited' in v.stock ? 'unlimited' : String(v.stock.qtyInStock),
      attributes: v.attributes,
      original: { sku: v.sku, qtyInStock: 'unlimited' in v.stock ? null : v.stock.qtyInStock },
    })),
    images: product.images.map((i) => ({ file: i.file, alt: i.altText })),
    uploadAlt: '',
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
    options: [],
    variants: [{ sku: '', price: '', salePrice: '', stock: '0', attributes: {} }],
    images: [],
    uploadAlt: '',
  };
}

const text = (form: Record<string, unknown>, name: string, max = 20_000): string => {
  const value = form[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/** The options as typed: 'S, M, L' → the values (empty ones dropped); options without a name are left out. */
export const optionsOf = (state: ProductFormState): { name: string; values: string[] }[] =>
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
  const named = optionsOf({ options } as ProductFormState);
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
  const images: (ProductFormState['images'][number] & { position: number })[] = [];
  for (let i = 0; i < MAX_FORM_IMAGES && `img${i}.file` in form; i++) {
    if (text(form, `img${i}.remove`) === 'yes') continue;
    const position = Number(text(form, `img${i}.position`, 10));
    images.push({
      file: text(form, `img${i}.file`, 300),
      alt: text(form, `img${i}.alt`, 250),
      position: Number.isFinite(position) ? position : i + 1,
    });
  }
  images.sort((a, b) => a.position - b.position);
  const file = isUploadedFile(form.file) && (form.file.fileName !== '' || form.file.size > 0) ? form.file : undefined;
  const base = Number(text(form, 'baseVersion', 12));
  return {
    state: {
      baseVersion: Number.isInteger(base) && base > 0 ? base : 0,
      name: text(form, 'name', 200),
      slug: text(form, 'slug', 64).trim(),
      description: text(form, 'description'),
      collectionId: text(form, 'collectionId', 64),
      productType: text(form, 'productType', 2) || '1',
      options,
      variants,
      images: images.map(({ file: f, alt }) => ({ file: f, alt })),
      uploadAlt: text(form, 'uploadAlt', 250),
    },
    file,
    intent: text(form, 'intent') === 'variants' ? 'variants' : 'save',
  };
}

/**
 * The form with its variant grid made again for its options: a row per combination of their values; a row kept for
 * the combination it had, else a row that lost its combination (a value renamed: its SKU and stock go on), else a new
 * row with a suggested SKU ({slug}-{values}) and the first row's prices.
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
        attributes,
      };
    }),
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

/** The form as the editor's input, or the fields that are not numbers as they should be. */
export function inputOfForm(
  state: ProductFormState,
  currency: CurrencyCode,
): Result<ProductInput, Record<string, string>> {
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
  const variants: VariantInput[] = state.variants.map((v, i) => {
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
    return {
      sku: v.sku,
      attributes: v.attributes,
      price,
      ...(salePrice !== undefined ? { salePrice } : {}),
      ...(stock !== undefined ? { stock } : {}),
      ...(v.original ? { originalSku: v.original.sku } : {}),
    };
  });
  const type = Number(state.productType);
  if (![1, 2, 3, 4, 5].includes(type)) errors.productType = 'must be one of the product types';
  if (Object.keys(errors).length) return err(errors);
  return ok({
    name: state.name,
    slug: state.slug,
    description: state.description,
    collectionId: state.collectionId,
    productType: type as ProductInput['productType'],
    options: optionsOf(state),
    variants,
    images: state.images.map((i) => ({ file: i.file, altText: i.alt })),
  });
}
