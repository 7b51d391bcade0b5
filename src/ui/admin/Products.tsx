/**
 * The products in /admin (issue 26): the list's filters and table, and the product form — name, slug, description,
 * collection, type, options, the variant grid (price, sale price, SKU, a new variant's stock; a stored variant's live
 * stock read-only with a link to the inventory), the images (alt text, order, remove, and an upload). Plain forms that
 * work without JavaScript: the grid is made again from the options by the 'Update variants' button.
 */
import type { ReactNode } from 'react';
import { AdminTableBox } from './AdminFrame';

export const PRODUCTS_PATH = '/admin/products';
/** The product form's id: its Save button at the top of the page (the form's default button: Enter saves) names it. */
export const PRODUCT_FORM_ID = 'product-form';

/** The Save button above the form: first in the page, so Enter in a field saves (not 'Update variants'). */
export function SaveButton(props: { label: string }) {
  return (
    <button type="submit" form={PRODUCT_FORM_ID} name="intent" value="save" className="admin-button">
      {props.label}
    </button>
  );
}

export interface ProductRow {
  id: string;
  name: string;
  collection: string;
  price: string;
  variants: number;
  stock: number | null;
  soldOut: boolean;
  low: boolean;
  thumbnail: string | null;
}

const STOCK_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'in-stock', label: 'In stock' },
  { value: 'low', label: 'Low stock' },
  { value: 'sold-out', label: 'Sold out' },
] as const;

export function ProductFilters(props: {
  q: string;
  collection: string;
  stock: string;
  collections: readonly { id: string; title: string }[];
}) {
  return (
    <form className="admin-filters" method="get" action={PRODUCTS_PATH} role="search" aria-label="Products">
      <label>
        {'Search '}
        <input type="search" name="q" defaultValue={props.q} placeholder="Name or SKU" />
      </label>
      <label>
        {'Collection '}
        <select name="collection" defaultValue={props.collection}>
          <option value="">All</option>
          {props.collections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </label>
      <label>
        {'Stock '}
        <select name="stock" defaultValue={props.stock}>
          {STOCK_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="admin-button">
        Apply
      </button>
    </form>
  );
}

export function ProductsTable(props: { rows: readonly ProductRow[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No products match.</p>;
  return (
    <AdminTableBox label="Products table">
      <table className="admin-table">
        <caption className="admin-sr-only">Products</caption>
        <thead>
          <tr>
            <th scope="col">Image</th>
            <th scope="col">Product</th>
            <th scope="col">Collection</th>
            <th scope="col">Price</th>
            <th scope="col" className="num">
              Variants
            </th>
            <th scope="col" className="num">
              Stock
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.id}>
              <td>
                {r.thumbnail ? (
                  <img className="admin-thumb" src={r.thumbnail} alt="" width={64} height={64} loading="lazy" />
                ) : null}
              </td>
              <th scope="row">
                <a href={`${PRODUCTS_PATH}/${encodeURIComponent(r.id)}`}>{r.name}</a>
              </th>
              <td>{r.collection}</td>
              <td>{r.price}</td>
              <td className="num">{String(r.variants)}</td>
              <td className="num">
                {r.stock === null ? 'Unlimited' : String(r.stock)}
                {r.soldOut ? (
                  <>
                    {' '}
                    <span className="admin-badge admin-badge-sold-out">Sold out</span>
                  </>
                ) : r.low ? (
                  <>
                    {' '}
                    <span className="admin-badge admin-badge-low">Low</span>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}

export interface ProductFormValues {
  baseVersion: number;
  name: string;
  slug: string;
  description: string;
  collectionId: string;
  productType: string;
  options: readonly { name: string; values: string }[];
  variants: readonly {
    sku: string;
    price: string;
    salePrice: string;
    stock: string;
    attributes: Readonly<Record<string, string>>;
    original?: { sku: string; qtyInStock: number | null } | undefined;
  }[];
  images: readonly { file: string; alt: string; thumbnail: string }[];
  uploadAlt: string;
}

const TYPES = [
  { value: '1', label: 'Physical' },
  { value: '2', label: 'Digital' },
  { value: '3', label: 'Service' },
  { value: '4', label: 'Gift card' },
] as const;

/** A field's error, tied to its input by id (aria-describedby). */
function FieldError(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <span className="admin-field-error" id={props.id}>
      {props.error}
    </span>
  ) : null;
}

/** The attributes an input with an error gets. */
const invalid = (id: string, error: string | undefined, hint?: string) => {
  const described = [error ? id : '', hint ?? ''].filter(Boolean).join(' ');
  return {
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(described ? { 'aria-describedby': described } : {}),
  };
};

function Field(props: { id: string; label: string; error: string | undefined; hint?: string; children: ReactNode }) {
  return (
    <p>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <span className="admin-hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      <FieldError id={`${props.id}-error`} error={props.error} />
    </p>
  );
}

export function ProductForm(props: {
  action: string;
  crumb: string;
  crumbField: string;
  values: ProductFormValues;
  errors: Readonly<Record<string, string>>;
  collections: readonly { id: string; title: string }[];
  currency: string;
  maxUploadText: string;
  submitLabel: string;
}) {
  const { values: v, errors: e } = props;
  const options = [...v.options, { name: '', values: '' }].slice(0, 3);
  const optionNames = v.options.map((o) => o.name.trim()).filter(Boolean);
  return (
    <form
      id={PRODUCT_FORM_ID}
      className="admin-form admin-product-form"
      method="post"
      action={props.action}
      encType="multipart/form-data"
      noValidate
    >
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={String(v.baseVersion)} />
      <fieldset className="admin-card">
        <legend>Product</legend>
        <Field id="p-name" label="Name" error={e.name}>
          <input
            id="p-name"
            name="name"
            defaultValue={v.name}
            maxLength={200}
            required
            {...invalid('p-name-error', e.name)}
          />
        </Field>
        <Field
          id="p-slug"
          label="Slug"
          error={e.slug}
          hint="Its address: /{collection}/{slug}. Empty: made from the name."
        >
          <input
            id="p-slug"
            name="slug"
            defaultValue={v.slug}
            maxLength={64}
            pattern="[a-z0-9][a-z0-9\-]*"
            {...invalid('p-slug-error', e.slug, 'p-slug-hint')}
          />
        </Field>
        <Field
          id="p-description"
          label="Description"
          error={e.description}
          hint="Rich text (HTML); unsafe markup is removed when shown."
        >
          <textarea
            id="p-description"
            name="description"
            defaultValue={v.description}
            rows={5}
            {...invalid('p-description-error', e.description, 'p-description-hint')}
          />
        </Field>
        <Field id="p-collection" label="Collection" error={e.collectionId}>
          <select
            id="p-collection"
            name="collectionId"
            defaultValue={v.collectionId}
            {...invalid('p-collection-error', e.collectionId)}
          >
            {props.collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </Field>
        <Field id="p-type" label="Product type" error={e.productType}>
          <select
            id="p-type"
            name="productType"
            defaultValue={v.productType}
            {...invalid('p-type-error', e.productType)}
          >
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
            {v.productType === '5' ? <option value="5">Paywall</option> : null}
          </select>
        </Field>
      </fieldset>

      <fieldset className="admin-card">
        <legend>Options</legend>
        <p className="admin-hint">
          Each option (Size, Colour…) with its values, separated by commas. Then “Update variants” makes a row for each
          combination.
        </p>
        {options.map((o, i) => (
          <div className="admin-option-row" key={i}>
            <Field id={`o${i}-name`} label={`Option ${i + 1} name`} error={e[`options.${i}.name`]}>
              <input
                id={`o${i}-name`}
                name={`o${i}.name`}
                defaultValue={o.name}
                maxLength={60}
                {...invalid(`o${i}-name-error`, e[`options.${i}.name`])}
              />
            </Field>
            <Field id={`o${i}-values`} label={`Option ${i + 1} values`} error={e[`options.${i}.values`]}>
              <input
                id={`o${i}-values`}
                name={`o${i}.values`}
                defaultValue={o.values}
                placeholder="S, M, L"
                {...invalid(`o${i}-values-error`, e[`options.${i}.values`])}
              />
            </Field>
          </div>
        ))}
        <p>
          <button type="submit" name="intent" value="variants" className="admin-button admin-button-quiet">
            Update variants
          </button>
        </p>
      </fieldset>

      <fieldset className="admin-card">
        <legend>Variants</legend>
        <FieldError id="variants-error" error={e.variants} />
        <AdminTableBox label="Variants table">
          <table className="admin-table admin-variant-grid">
            <caption className="admin-sr-only">{`Variants: prices in ${props.currency}`}</caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">SKU</th>
                <th scope="col">{`Price (${props.currency})`}</th>
                <th scope="col">{`Sale price (${props.currency})`}</th>
                <th scope="col">Stock</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {v.variants.map((row, i) => {
                const label = optionNames.map((n) => row.attributes[n] ?? '').join(' / ') || 'The product';
                const err = (f: string) =>
                  e[`variants.${i}.${f}`] ?? (f === 'sku' ? e[`variants.${i}.attributes`] : undefined);
                return (
                  <tr key={i}>
                    <th scope="row">
                      {label}
                      {optionNames.map((n, j) => (
                        <input key={n} type="hidden" name={`v${i}.a${j}`} value={row.attributes[n] ?? ''} />
                      ))}
                      {row.original ? (
                        <>
                          <input type="hidden" name={`v${i}.original`} value={row.original.sku} />
                          <input
                            type="hidden"
                            name={`v${i}.live`}
                            value={row.original.qtyInStock === null ? 'unlimited' : String(row.original.qtyInStock)}
                          />
                        </>
                      ) : null}
                    </th>
                    <td>
                      <label className="admin-sr-only" htmlFor={`v${i}-sku`}>{`SKU of ${label}`}</label>
                      <input
                        id={`v${i}-sku`}
                        name={`v${i}.sku`}
                        defaultValue={row.sku}
                        maxLength={64}
                        size={14}
                        {...invalid(`v${i}-sku-error`, err('sku'))}
                      />
                      <FieldError id={`v${i}-sku-error`} error={err('sku')} />
                    </td>
                    <td>
                      <label className="admin-sr-only" htmlFor={`v${i}-price`}>{`Price of ${label}`}</label>
                      <input
                        id={`v${i}-price`}
                        name={`v${i}.price`}
                        defaultValue={row.price}
                        inputMode="decimal"
                        size={8}
                        {...invalid(`v${i}-price-error`, err('price'))}
                      />
                      <FieldError id={`v${i}-price-error`} error={err('price')} />
                    </td>
                    <td>
                      <label className="admin-sr-only" htmlFor={`v${i}-sale`}>{`Sale price of ${label}`}</label>
                      <input
                        id={`v${i}-sale`}
                        name={`v${i}.salePrice`}
                        defaultValue={row.salePrice}
                        inputMode="decimal"
                        size={8}
                        {...invalid(`v${i}-sale-error`, err('salePrice'))}
                      />
                      <FieldError id={`v${i}-sale-error`} error={err('salePrice')} />
                    </td>
                    <td>
                      {row.original ? (
                        <>
                          {row.original.qtyInStock === null ? 'Unlimited' : String(row.original.qtyInStock)}{' '}
                          <a href={`/admin/inventory/${encodeURIComponent(row.original.sku)}`}>
                            <span className="admin-sr-only">{`Change the stock of ${label} in the `}</span>
                            {'Inventory'}
                          </a>
                        </>
                      ) : (
                        <>
                          <label className="admin-sr-only" htmlFor={`v${i}-stock`}>{`Stock of ${label}`}</label>
                          <input
                            id={`v${i}-stock`}
                            name={`v${i}.stock`}
                            defaultValue={row.stock}
                            size={7}
                            {...invalid(`v${i}-stock-error`, err('stock'), 'stock-hint')}
                          />
                          <FieldError id={`v${i}-stock-error`} error={err('stock')} />
                        </>
                      )}
                    </td>
                    <td>
                      <input
                        type="checkbox"
                        id={`v${i}-remove`}
                        name={`v${i}.remove`}
                        value="yes"
                        aria-label={`Remove ${label}`}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </AdminTableBox>
        <p className="admin-hint" id="stock-hint">
          A new variant’s stock: a whole number, or “unlimited”. The stock of a saved variant is live (sales change it):
          change it in the inventory.
        </p>
      </fieldset>

      <fieldset className="admin-card">
        <legend>Images</legend>
        {v.images.length === 0 ? <p className="admin-muted">No images yet.</p> : null}
        {v.images.map((image, i) => (
          <div className="admin-image-row" key={image.file}>
            <img className="admin-thumb" src={image.thumbnail} alt="" width={64} height={64} />
            <input type="hidden" name={`img${i}.file`} value={image.file} />
            <p>
              <label htmlFor={`img${i}-alt`}>{`Alt text of ${image.file}`}</label>
              <input
                id={`img${i}-alt`}
                name={`img${i}.alt`}
                defaultValue={image.alt}
                maxLength={250}
                {...invalid(`img${i}-alt-error`, e[`images.${i}.altText`])}
              />
              <FieldError id={`img${i}-alt-error`} error={e[`images.${i}.altText`] ?? e[`images.${i}.file`]} />
            </p>
            <p>
              <label htmlFor={`img${i}-position`}>{`Position of ${image.file}`}</label>
              <input
                id={`img${i}-position`}
                name={`img${i}.position`}
                defaultValue={String(i + 1)}
                inputMode="numeric"
                size={3}
              />
            </p>
            <p className="admin-check">
              <input type="checkbox" id={`img${i}-remove`} name={`img${i}.remove`} value="yes" />
              <label htmlFor={`img${i}-remove`}>{`Remove ${image.file}`}</label>
            </p>
          </div>
        ))}
        <Field
          id="p-file"
          label="Add an image"
          error={e.file}
          hint={`JPEG, PNG, WebP, GIF, TIFF or AVIF, up to ${props.maxUploadText}.`}
        >
          <input
            id="p-file"
            type="file"
            name="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/tiff,image/avif"
            {...invalid('p-file-error', e.file, 'p-file-hint')}
          />
        </Field>
        <Field id="p-file-alt" label="Alt text of the added image" error={undefined}>
          <input id="p-file-alt" name="uploadAlt" defaultValue={v.uploadAlt} maxLength={250} />
        </Field>
      </fieldset>
      <p>
        <button type="submit" name="intent" value="save" className="admin-button">
          {props.submitLabel}
        </button>
      </p>
    </form>
  );
}
