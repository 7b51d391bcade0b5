/**
 * The product form's sections after its name and variants (issue 26): a gift card's amounts, the images (alt text,
 * order, focal point, the option values each pictures), the subscription plan, merchandising (scarcity, sold-out text,
 * restock sign-up), related products and add-ons, and what search engines show. Plain fields that work without
 * JavaScript; each field's error beside it (./ProductFields.tsx).
 */
import { Fragment } from 'react';
import { RESTOCK_MESSAGES } from '../../core/forms/restock';
import { ADD_ONS_MAX, RELATED_PRODUCTS_DEFAULT_COUNT, RELATED_PRODUCTS_MAX } from '../../core/relatedProducts';
import { RESTOCK_LABELS } from '../../core/restock';
import { Check, Field, FieldError, invalid, TextInput } from './ProductFields';

/** What the form shows (the owner's input, or the stored product). */
export interface ProductFormValues {
  baseVersion: number;
  name: string;
  slug: string;
  description: string;
  collectionId: string;
  productType: string;
  layout: 'grid' | 'amounts';
  options: readonly { name: string; values: string }[];
  variants: readonly {
    sku: string;
    price: string;
    salePrice: string;
    stock: string;
    weight: string;
    attributes: Readonly<Record<string, string>>;
    original?: { sku: string; qtyInStock: number | null } | undefined;
  }[];
  amounts: string;
  images: readonly {
    file: string;
    alt: string;
    focusX: string;
    focusY: string;
    values: Readonly<Record<string, string>>;
    thumbnail: string;
  }[];
  uploadAlt: string;
  formId: string;
  subscription: {
    on: boolean;
    every: string;
    unit: string;
    cycles: string;
    options: readonly { id: string; price: string; salePrice: string; formId: string; buttonText: string }[];
  };
  merchandising: {
    scarcityOn: boolean;
    scarcityText: string;
    scarcityThreshold: string;
    scarcityShownByDefault: boolean;
    soldOutText: string;
    restockOn: boolean;
    restockMessage: string;
    restockSuccess: string;
    mailingList: boolean;
    optIn: boolean;
    restockHidden: boolean;
  };
  related: { mode: 'auto' | 'chosen' | 'none'; ids: readonly string[] };
  addOns: readonly string[];
  tags: string;
  seoTitle: string;
  seoDescription: string;
}

/** The site's records and settings the form offers. */
export interface ProductFormChoices {
  collections: readonly { id: string; title: string }[];
  forms: readonly { id: string; name: string }[];
  /** The other products of the site. */
  products: readonly { id: string; name: string }[];
  currency: string;
  weightUnit: string;
  maxUploadText: string;
}

/** Errors by the id of the input that shows them (./ProductFields.tsx `errorsByInput`). */
type Errors = Readonly<Record<string, string>>;

const PRODUCT_LIST = 'product-choices';
const SPARE_ROWS = 3;

/** A gift card's amounts: one field instead of options and variants. */
export function AmountsCard(props: { values: ProductFormValues; errors: Errors; currency: string }) {
  const { values: v, errors: e } = props;
  return (
    <fieldset className="admin-card">
      <legend>Amounts</legend>
      <TextInput
        id="p-amounts"
        name="amounts"
        label={`Amounts (${props.currency})`}
        value={v.amounts}
        error={e['p-amounts'] ?? e.variants}
        inputMode="decimal"
        hint="The card’s values the shopper chooses from, separated by commas: 25, 50, 100. Gift cards never run out."
      />
      {v.options[0] ? <input type="hidden" name="o0.name" value={v.options[0].name} /> : null}
      {v.variants.map((row, i) => (
        <Fragment key={i}>
          <input type="hidden" name={`v${i}.sku`} value={row.sku} />
          <input type="hidden" name={`v${i}.price`} value={row.price} />
          {row.original ? <input type="hidden" name={`v${i}.original`} value={row.original.sku} /> : null}
        </Fragment>
      ))}
    </fieldset>
  );
}

/** The images: each one's alt text, position, focal point and the option values it pictures; and an upload. */
export function ImagesCard(props: {
  values: ProductFormValues;
  errors: Errors;
  optionNames: readonly { name: string; values: readonly string[] }[];
  maxUploadText: string;
}) {
  const { values: v, errors: e } = props;
  return (
    <fieldset className="admin-card">
      <legend>Images</legend>
      {v.images.length === 0 ? <p className="admin-muted">No images yet.</p> : null}
      {v.images.length > 0 ? (
        <p className="admin-hint">
          The first image is the page’s main image. An image showing some option values (a colour) becomes the main
          image when the shopper chooses them. The focal point is kept in view when an image is cropped.
        </p>
      ) : null}
      {v.images.map((image, i) => (
        <div className="admin-image-row" key={image.file}>
          <img className="admin-thumb" src={image.thumbnail} alt="" width={64} height={64} />
          <div className="admin-image-fields">
            <input type="hidden" name={`img${i}.file`} value={image.file} />
            <TextInput
              className="admin-image-alt"
              id={`img${i}-alt`}
              name={`img${i}.alt`}
              label={`Alt text of ${image.file}`}
              value={image.alt}
              error={e[`img${i}-alt`]}
              maxLength={250}
            />
            <TextInput
              id={`img${i}-position`}
              name={`img${i}.position`}
              label={`Position of ${image.file}`}
              value={String(i + 1)}
              error={undefined}
              inputMode="numeric"
              size={3}
            />
            <>
              <Field
                id={`img${i}-focusX`}
                label={
                  <>
                    Focal point, across (%)<span className="admin-sr-only">{`, ${image.file}`}</span>
                  </>
                }
                error={e[`img${i}-focusX`]}
              >
                <input
                  id={`img${i}-focusX`}
                  name={`img${i}.focusX`}
                  defaultValue={image.focusX}
                  inputMode="decimal"
                  size={5}
                  {...invalid(`img${i}-focusX-error`, e[`img${i}-focusX`])}
                />
              </Field>
              <Field
                id={`img${i}-focusY`}
                label={
                  <>
                    Focal point, down (%)<span className="admin-sr-only">{`, ${image.file}`}</span>
                  </>
                }
                error={undefined}
              >
                <input
                  id={`img${i}-focusY`}
                  name={`img${i}.focusY`}
                  defaultValue={image.focusY}
                  inputMode="decimal"
                  size={5}
                  {...invalid(`img${i}-focusX-error`, e[`img${i}-focusX`])}
                />
              </Field>
            </>
            {props.optionNames.map((option, j) => (
              <Field
                key={option.name}
                id={`img${i}-a${j}`}
                label={
                  <>
                    {`Main image when ${option.name} is`}
                    <span className="admin-sr-only">{`, ${image.file}`}</span>
                  </>
                }
                error={j === 0 ? e[`img${i}-a0`] : undefined}
              >
                <select
                  id={`img${i}-a${j}`}
                  name={`img${i}.a${j}`}
                  defaultValue={image.values[option.name] ?? ''}
                  {...invalid(`img${i}-a${j}-error`, j === 0 ? e[`img${i}-a0`] : undefined)}
                >
                  <option value="">Any</option>
                  {option.values.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </Field>
            ))}
            <p className="admin-check admin-image-remove">
              <input type="checkbox" id={`img${i}-remove`} name={`img${i}.remove`} value="yes" />
              <label htmlFor={`img${i}-remove`}>{`Remove ${image.file}`}</label>
            </p>
          </div>
        </div>
      ))}
      <TextInput
        id="p-file-alt"
        name="uploadAlt"
        label="Alt text of the added image"
        value={v.uploadAlt}
        error={undefined}
        maxLength={250}
      />
      <Field
        id="p-file"
        label="Add an image"
        error={e['p-file']}
        hint={`JPEG, PNG, WebP, GIF, TIFF or AVIF, up to ${props.maxUploadText}.`}
      >
        <input
          id="p-file"
          type="file"
          name="file"
          accept="image/jpeg,image/png,image/webp,image/gif,image/tiff,image/avif"
          {...invalid('p-file-error', e['p-file'], 'p-file-hint')}
        />
      </Field>
    </fieldset>
  );
}

const UNITS = [
  { value: 'WEEK', label: 'weeks' },
  { value: 'MONTH', label: 'months' },
  { value: 'YEAR', label: 'years' },
] as const;

/** The subscription plan: on or off, the billing period, the number of payments, and the options. */
export function SubscriptionCard(props: {
  values: ProductFormValues;
  errors: Errors;
  currency: string;
  forms: ProductFormChoices['forms'];
}) {
  const { subscription: s } = props.values;
  const e = props.errors;
  const rows = [...s.options, { id: '', price: '', salePrice: '', formId: '', buttonText: '' }];
  return (
    <fieldset className="admin-card">
      <legend>Subscription</legend>
      <Check
        id="sub-on"
        name="sub.on"
        label="Sold as a subscription"
        checked={s.on}
        hint="The shopper subscribes (‘Subscribe’) and pays every period; it skips the cart."
      />
      <FieldError id="sub-on-error" error={e['sub-on']} />
      <div className="admin-field-pair">
        <TextInput
          id="sub-every"
          name="sub.every"
          label="Charged every"
          value={s.every}
          error={e['sub-every']}
          inputMode="numeric"
          size={4}
        />
        <Field id="sub-unit" label="Period" error={undefined}>
          <select id="sub-unit" name="sub.unit" defaultValue={s.unit}>
            {UNITS.map((u) => (
              <option key={u.value} value={u.value}>
                {u.label}
              </option>
            ))}
          </select>
        </Field>
        <TextInput
          id="sub-cycles"
          name="sub.cycles"
          label="Number of payments"
          value={s.cycles}
          error={e['sub-cycles']}
          inputMode="numeric"
          size={5}
          hint="0: until the shopper cancels."
        />
      </div>
      <p className="admin-hint">
        The options the shopper chooses between (the first is chosen at first), each with its price per period. Without
        options a period costs the chosen variant’s price. An option’s id stays with its subscribers: keep it.
      </p>
      {rows.map((o, i) => (
        <fieldset key={i} className="admin-subscription-option">
          <legend>{i < s.options.length ? `Option ${i + 1}` : 'Add an option'}</legend>
          <div className="admin-option-row">
            <TextInput
              id={`sub${i}-id`}
              name={`sub${i}.id`}
              label={`Id of option ${i + 1}`}
              value={o.id}
              error={e[`sub${i}-id`]}
              maxLength={64}
              size={14}
              hint={i < s.options.length ? undefined : 'Empty: made for you.'}
            />
            <TextInput
              id={`sub${i}-price`}
              name={`sub${i}.price`}
              label={`Price of option ${i + 1} (${props.currency})`}
              value={o.price}
              error={e[`sub${i}-price`]}
              inputMode="decimal"
              size={8}
            />
            <TextInput
              id={`sub${i}-sale`}
              name={`sub${i}.salePrice`}
              label={`Sale price of option ${i + 1}`}
              value={o.salePrice}
              error={e[`sub${i}-sale`]}
              inputMode="decimal"
              size={8}
            />
          </div>
          <div className="admin-option-row">
            <Field id={`sub${i}-form`} label={`Form of option ${i + 1}`} error={e[`sub${i}-form`]}>
              <select
                id={`sub${i}-form`}
                name={`sub${i}.formId`}
                defaultValue={o.formId}
                {...invalid(`sub${i}-form-error`, e[`sub${i}-form`])}
              >
                <option value="">The product’s</option>
                <FormOptions forms={props.forms} chosen={o.formId} />
              </select>
            </Field>
            <TextInput
              id={`sub${i}-button`}
              name={`sub${i}.button`}
              label={`Button text of option ${i + 1}`}
              value={o.buttonText}
              error={e[`sub${i}-button`]}
              maxLength={60}
              hint="Empty: ‘Subscribe’."
            />
          </div>
          {i < s.options.length ? (
            <p className="admin-check">
              <input type="checkbox" id={`sub${i}-remove`} name={`sub${i}.remove`} value="yes" />
              <label htmlFor={`sub${i}-remove`}>{`Remove option ${i + 1}`}</label>
            </p>
          ) : null}
        </fieldset>
      ))}
    </fieldset>
  );
}

/** The site's forms as a select's options (and the chosen one, should it be gone). */
export function FormOptions(props: { forms: ProductFormChoices['forms']; chosen: string }) {
  const known = props.forms.some((f) => f.id === props.chosen);
  return (
    <>
      {props.forms.map((f) => (
        <option key={f.id} value={f.id}>
          {f.name}
        </option>
      ))}
      {props.chosen && !known ? <option value={props.chosen}>{props.chosen}</option> : null}
    </>
  );
}

/** Scarcity, the sold-out text and the restock sign-up. */
export function MerchandisingCard(props: { values: ProductFormValues; errors: Errors }) {
  const m = props.values.merchandising;
  const e = props.errors;
  return (
    <fieldset className="admin-card">
      <legend>Merchandising</legend>
      <fieldset>
        <legend>Scarcity</legend>
        <Check id="scarcity-on" name="scarcity.on" label="Say how few are left" checked={m.scarcityOn} />
        <TextInput
          id="scarcity-text"
          name="scarcity.text"
          label="Scarcity text"
          value={m.scarcityText}
          error={e['scarcity-text']}
          maxLength={200}
          hint="{qty} is the number left: ‘Only {qty} left in stock’."
        />
        <TextInput
          id="scarcity-threshold"
          name="scarcity.threshold"
          label="Shown at (units or fewer)"
          value={m.scarcityThreshold}
          error={e['scarcity-threshold']}
          inputMode="numeric"
          size={5}
        />
        <Check
          id="scarcity-default"
          name="scarcity.shownByDefault"
          label="Shown before a variant is chosen"
          checked={m.scarcityShownByDefault}
        />
      </fieldset>
      <TextInput
        id="sold-out"
        name="soldOutText"
        label="Sold-out text"
        value={m.soldOutText}
        error={e['sold-out']}
        maxLength={60}
        hint="Empty: the site’s label (‘sold out’)."
      />
      <fieldset>
        <legend>Back-in-stock sign-up</legend>
        <Check
          id="restock-on"
          name="restock.on"
          label="Offer a sign-up while sold out"
          checked={m.restockOn}
          hint="Shoppers leave their e-mail; they are told when it is back."
        />
        <TextInput
          id="restock-message"
          name="restock.message"
          label="Call to action"
          value={m.restockMessage}
          error={e['restock-message']}
          maxLength={500}
          hint={`Empty: ‘${RESTOCK_LABELS.callToAction}’.`}
        />
        <TextInput
          id="restock-success"
          name="restock.success"
          label="After signing up"
          value={m.restockSuccess}
          error={e['restock-success']}
          maxLength={500}
          hint={`Empty: ‘${RESTOCK_MESSAGES.signedUp}’.`}
        />
        <Check
          id="restock-mailing"
          name="restock.mailingList"
          label={`Offer ‘${RESTOCK_LABELS.joinMailingList}’`}
          checked={m.mailingList}
        />
        <Check id="restock-opt-in" name="restock.optIn" label="Ticked at first" checked={m.optIn} />
        <Check
          id="restock-hidden"
          name="restock.hidden"
          label="Behind its call to action"
          checked={m.restockHidden}
          hint="The shopper opens the form."
        />
      </fieldset>
    </fieldset>
  );
}

/** Rows of product choices `{prefix}{n}`: the chosen ones and a few empty ones, up to `most`. */
function ProductRows(props: {
  prefix: string;
  label: string;
  ids: readonly string[];
  most: number;
  products: ProductFormChoices['products'];
  errors: Errors;
}) {
  const rows = [...props.ids, ...Array<string>(SPARE_ROWS).fill('')].slice(0, Math.max(props.most, props.ids.length));
  return (
    <>
      {rows.map((id, i) => {
        const inputId = `${props.prefix}${i}`;
        const name = props.products.find((p) => p.id === id)?.name;
        return (
          <TextInput
            key={i}
            id={inputId}
            name={inputId}
            label={`${props.label} ${i + 1}`}
            value={id}
            error={props.errors[inputId]}
            list={PRODUCT_LIST}
            maxLength={200}
            hint={name}
          />
        );
      })}
    </>
  );
}

/** Related products ('You may also like') and add-ons, chosen among the site's products. */
export function RelatedCard(props: {
  values: ProductFormValues;
  errors: Errors;
  products: ProductFormChoices['products'];
}) {
  const { related, addOns } = props.values;
  const e = props.errors;
  const modes = [
    { value: 'auto', label: `The next ${RELATED_PRODUCTS_DEFAULT_COUNT} products of its collection` },
    { value: 'chosen', label: 'These products' },
    { value: 'none', label: 'None' },
  ] as const;
  return (
    <fieldset className="admin-card">
      <legend>Related products and add-ons</legend>
      <fieldset>
        <legend>You may also like</legend>
        {modes.map((m) => (
          <p className="admin-check" key={m.value}>
            <input
              type="radio"
              id={`related-${m.value}`}
              name="related.mode"
              value={m.value}
              defaultChecked={related.mode === m.value}
              {...(m.value === 'chosen' ? invalid('related-chosen-error', e['related-chosen']) : {})}
            />
            <label htmlFor={`related-${m.value}`}>{m.label}</label>
          </p>
        ))}
        <FieldError id="related-chosen-error" error={e['related-chosen']} />
        <p className="admin-hint">{`Up to ${RELATED_PRODUCTS_MAX}, in this order; type a name or choose one.`}</p>
        <ProductRows
          prefix="related"
          label="Related product"
          ids={related.ids}
          most={RELATED_PRODUCTS_MAX}
          products={props.products}
          errors={e}
        />
      </fieldset>
      <fieldset>
        <legend>Add-ons</legend>
        <p className="admin-hint">{`Offered under the buying area with a small add button; up to ${ADD_ONS_MAX}.`}</p>
        <ProductRows
          prefix="addOn"
          label="Add-on"
          ids={addOns}
          most={ADD_ONS_MAX}
          products={props.products}
          errors={e}
        />
      </fieldset>
      <datalist id={PRODUCT_LIST}>
        {props.products.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </datalist>
    </fieldset>
  );
}

/** The product page's title and description for search engines. */
export function SeoCard(props: { values: ProductFormValues; errors: Errors }) {
  const { values: v, errors: e } = props;
  return (
    <fieldset className="admin-card">
      <legend>Search engines</legend>
      <TextInput
        id="seo-title"
        name="seo.title"
        label="SEO title"
        value={v.seoTitle}
        error={e['seo-title']}
        maxLength={70}
        hint="The page’s title in search results and the browser’s tab, up to 70 characters. Empty: the name."
      />
      <Field
        id="seo-description"
        label="SEO description"
        error={e['seo-description']}
        hint="What search results say of the page, up to 320 characters. Empty: the description."
      >
        <textarea
          id="seo-description"
          name="seo.description"
          defaultValue={v.seoDescription}
          rows={3}
          maxLength={320}
          {...invalid('seo-description-error', e['seo-description'], 'seo-description-hint')}
        />
      </Field>
    </fieldset>
  );
}
