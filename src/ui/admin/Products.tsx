/**
 * The products in /admin (issue 26): the list's filters and table, and the product form — name, slug, description,
 * collection, type, product form, tags, options, the variant grid (SKU, price, sale price, weight, a new variant's
 * stock; a stored variant's live stock read-only with a link to the inventory) or a gift card's amounts, then the
 * sections of ./ProductSections.tsx (images, subscription, merchandising, related products and add-ons, SEO). Plain
 * forms that work without JavaScript: the grid is made again from the options by the 'Update variants' button. On a
 * laptop the form is two columns (what the product is and sells on the left, how it is shown on the right); on a phone
 * one, and the grid's rows are cards (a price or a stock is a tap away).
 */
import type { PublicationStatus } from '../../core/publishing';
import { AdminTableBox } from './AdminFrame';
import { ErrorSummary, errorsByInput, Field, FieldError, invalid, TextInput } from './ProductFields';
import { StatusBadge, StatusFields, type StatusFieldsProps } from './StatusFields';
import {
  AmountsCard,
  FormOptions,
  ImagesCard,
  MerchandisingCard,
  RelatedCard,
  SeoCard,
  SubscriptionCard,
  type ProductFormChoices,
  type ProductFormValues,
} from './ProductSections';

export type { ProductFormChoices, ProductFormValues } from './ProductSections';

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
  /** The status the owner sees now (a scheduled product whose time has come is Published). */
  status: PublicationStatus;
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
                <a href={`${PRODUCTS_PATH}/${encodeURIComponent(r.id)}`}>{r.name}</a> <StatusBadge status={r.status} />
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

const TYPES = [
  { value: '1', label: 'Physical' },
  { value: '2', label: 'Digital' },
  { value: '3', label: 'Service' },
  { value: '4', label: 'Gift card' },
] as const;

/** A grid cell's label: its column's name, shown on a phone (where rows are cards), the row's name for screen readers. */
function CellLabel(props: { htmlFor: string; column: string; row: string }) {
  return (
    <label className="admin-cell-label" htmlFor={props.htmlFor}>
      {props.column}
      <span className="admin-sr-only">{` of ${props.row}`}</span>
    </label>
  );
}

/** The variant grid: a row per variant (its name and a remove box, SKU, price, sale price, weight, stock). */
function VariantGrid(props: {
  values: ProductFormValues;
  errors: Readonly<Record<string, string>>;
  choices: ProductFormChoices;
}) {
  const { values: v, errors: e, choices } = props;
  const optionNames = v.options.map((o) => o.name.trim()).filter(Boolean);
  return (
    <fieldset className="admin-card">
      <legend>Variants</legend>
      <FieldError id="variants-error" error={e.variants} />
      <AdminTableBox label="Variants table">
        <table className="admin-table admin-variant-grid">
          <caption className="admin-sr-only">{`Variants: prices in ${choices.currency}, weights in ${choices.weightUnit}`}</caption>
          <thead>
            <tr>
              <th scope="col">Variant</th>
              <th scope="col">SKU</th>
              <th scope="col">{`Price (${choices.currency})`}</th>
              <th scope="col">{`Sale price (${choices.currency})`}</th>
              <th scope="col">{`Weight (${choices.weightUnit})`}</th>
              <th scope="col">Stock</th>
            </tr>
          </thead>
          <tbody>
            {v.variants.map((row, i) => {
              const label = optionNames.map((n) => row.attributes[n] ?? '').join(' / ') || 'The product';
              const err = (f: string) => e[`v${i}-${f}`];
              const cell = (
                column: string,
                id: string,
                name: string,
                value: string,
                size: number,
                mode?: 'decimal',
              ) => (
                <td>
                  <CellLabel htmlFor={`v${i}-${id}`} column={column} row={label} />
                  <input
                    id={`v${i}-${id}`}
                    name={`v${i}.${name}`}
                    defaultValue={value}
                    size={size}
                    {...(mode ? { inputMode: mode } : { maxLength: 64 })}
                    {...invalid(`v${i}-${id}-error`, err(id))}
                  />
                  <FieldError id={`v${i}-${id}-error`} error={err(id)} />
                </td>
              );
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
                    <span className="admin-grid-remove">
                      <input type="checkbox" id={`v${i}-remove`} name={`v${i}.remove`} value="yes" />
                      <label htmlFor={`v${i}-remove`}>
                        Remove<span className="admin-sr-only">{` ${label}`}</span>
                      </label>
                    </span>
                  </th>
                  {cell('SKU', 'sku', 'sku', row.sku, 12)}
                  {cell('Price', 'price', 'price', row.price, 7, 'decimal')}
                  {cell('Sale price', 'sale', 'salePrice', row.salePrice, 7, 'decimal')}
                  {cell(`Weight (${choices.weightUnit})`, 'weight', 'weight', row.weight, 5, 'decimal')}
                  <td>
                    {row.original ? (
                      <>
                        <span className="admin-cell-label" aria-hidden="true">
                          Stock
                        </span>
                        {row.original.qtyInStock === null ? 'Unlimited' : String(row.original.qtyInStock)}{' '}
                        <a href={`/admin/inventory/${encodeURIComponent(row.original.sku)}`}>
                          <span className="admin-sr-only">{`Change the stock of ${label} in the `}</span>
                          {'Inventory'}
                        </a>
                      </>
                    ) : (
                      <>
                        <CellLabel htmlFor={`v${i}-stock`} column="Stock" row={label} />
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
                </tr>
              );
            })}
          </tbody>
        </table>
      </AdminTableBox>
      <p className="admin-hint" id="stock-hint">
        A new variant’s stock: a whole number, or “unlimited”. The stock of a saved variant is live (sales change it):
        change it in the inventory. Weights are kept for shipping; the store does not show them.
      </p>
    </fieldset>
  );
}

export function ProductForm(props: {
  action: string;
  crumb: string;
  crumbField: string;
  values: ProductFormValues;
  /** The problems by field ('variants.0.price', 'seo.title' …; '' for the product as a whole, shown by the page). */
  errors: Readonly<Record<string, string>>;
  choices: ProductFormChoices;
  submitLabel: string;
  /** The Status fieldset (no choices: the staff member may not change it). */
  status: Omit<StatusFieldsProps, 'problems'>;
}) {
  const { values: v, choices } = props;
  const e = errorsByInput(props.errors);
  const options = [...v.options, { name: '', values: '' }].slice(0, 3);
  const named = v.options
    .filter((o) => o.name.trim() !== '')
    .map((o) => ({
      name: o.name.trim(),
      values: [
        ...new Set(
          o.values
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
        ),
      ],
    }));
  const giftCard = v.layout === 'amounts';
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
      <input type="hidden" name="layout" value={v.layout} />
      <ErrorSummary errors={props.errors} />
      <div className="admin-product-columns">
        <div className="admin-product-main">
          <fieldset className="admin-card">
            <legend>Product</legend>
            <Field id="p-name" label="Name" error={e['p-name']}>
              <input
                id="p-name"
                name="name"
                defaultValue={v.name}
                maxLength={200}
                required
                {...invalid('p-name-error', e['p-name'])}
              />
            </Field>
            <TextInput
              id="p-slug"
              name="slug"
              label="Slug"
              value={v.slug}
              error={e['p-slug']}
              maxLength={64}
              hint="Its address: /{collection}/{slug}. Empty: made from the name."
            />
            <Field
              id="p-description"
              label="Description"
              error={e['p-description']}
              hint="Plain text; an empty line starts a new paragraph."
            >
              <textarea
                id="p-description"
                name="description"
                defaultValue={v.description}
                rows={5}
                {...invalid('p-description-error', e['p-description'], 'p-description-hint')}
              />
            </Field>
            <div className="admin-field-pair">
              <Field id="p-collection" label="Collection" error={e['p-collection']}>
                <select
                  id="p-collection"
                  name="collectionId"
                  defaultValue={v.collectionId}
                  {...invalid('p-collection-error', e['p-collection'])}
                >
                  {choices.collections.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.title}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="p-type" label="Product type" error={e['p-type']}>
                <select
                  id="p-type"
                  name="productType"
                  defaultValue={v.productType}
                  {...invalid('p-type-error', e['p-type'])}
                >
                  {TYPES.map((t) => (
                    <option key={t.value} value={t.value}>
                      {t.label}
                    </option>
                  ))}
                  {v.productType === '5' ? <option value="5">Paywall</option> : null}
                </select>
              </Field>
            </div>
            <Field
              id="p-form"
              label="Product form"
              error={e['p-form']}
              hint="A form the shopper fills in before adding it (an engraving, a gift note)."
            >
              <select
                id="p-form"
                name="formId"
                defaultValue={v.formId}
                {...invalid('p-form-error', e['p-form'], 'p-form-hint')}
              >
                <option value="">None</option>
                <FormOptions forms={choices.forms} chosen={v.formId} />
              </select>
            </Field>
            <TextInput
              id="p-tags"
              name="tags"
              label="Tags"
              value={v.tags}
              error={e['p-tags']}
              maxLength={2000}
              hint="Separated by commas: ceramics, mugs."
            />
          </fieldset>

          {giftCard ? (
            <AmountsCard values={v} errors={e} currency={choices.currency} />
          ) : (
            <>
              <fieldset className="admin-card">
                <legend>Options</legend>
                <p className="admin-hint">
                  Each option (Size, Colour…) with its values, separated by commas. Then “Update variants” makes a row
                  for each combination.
                </p>
                {options.map((o, i) => (
                  <div className="admin-option-row" key={i}>
                    <TextInput
                      id={`o${i}-name`}
                      name={`o${i}.name`}
                      label={`Option ${i + 1} name`}
                      value={o.name}
                      error={e[`o${i}-name`]}
                      maxLength={60}
                    />
                    <Field id={`o${i}-values`} label={`Option ${i + 1} values`} error={e[`o${i}-values`]}>
                      <input
                        id={`o${i}-values`}
                        name={`o${i}.values`}
                        defaultValue={o.values}
                        placeholder="S, M, L"
                        {...invalid(`o${i}-values-error`, e[`o${i}-values`])}
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
              <VariantGrid values={v} errors={e} choices={choices} />
            </>
          )}

          <ImagesCard values={v} errors={e} optionNames={giftCard ? [] : named} maxUploadText={choices.maxUploadText} />
          {giftCard ? null : (
            <SubscriptionCard values={v} errors={e} currency={choices.currency} forms={choices.forms} />
          )}
        </div>
        <div className="admin-product-side">
          {/* Whether it is on the store, then how it is shown and found. */}
          <StatusFields
            {...props.status}
            problems={{ status: props.errors.status, publishAt: props.errors.publishAt }}
          />
          <MerchandisingCard values={v} errors={e} />
          <RelatedCard values={v} errors={e} products={choices.products} />
          <SeoCard values={v} errors={e} />
        </div>
      </div>
      <p>
        <button type="submit" name="intent" value="save" className="admin-button">
          {props.submitLabel}
        </button>
      </p>
    </form>
  );
}
