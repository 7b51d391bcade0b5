/**
 * The product form's fields (issue 26): a label, the input, a hint and the field's error tied to it (aria-invalid,
 * aria-describedby), and the list of a refused save's problems above the form, each linking to its field. The
 * editor names a problem by its field ('variants.0.price', 'seo.title', 'tags.1' …); `fieldIdOf` says which input
 * shows it.
 */
import type { ReactNode } from 'react';

/** A field's error, tied to its input by id (aria-describedby). */
export function FieldError(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <span className="admin-field-error" id={props.id}>
      {props.error}
    </span>
  ) : null;
}

/** The attributes an input with an error (and a hint) gets. */
export const invalid = (id: string, error: string | undefined, hint?: string) => {
  const described = [error ? id : '', hint ?? ''].filter(Boolean).join(' ');
  return {
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(described ? { 'aria-describedby': described } : {}),
  };
};

/** A labelled field: its input (with the id `id`), a hint (`{id}-hint`) and its error (`{id}-error`). */
export function Field(props: {
  id: string;
  label: ReactNode;
  error: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <p className={props.className}>
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

/** A text input in a Field: `name` posted, `value` shown, its error and hint tied to it. */
export function TextInput(props: {
  id: string;
  name: string;
  label: ReactNode;
  value: string;
  error: string | undefined;
  hint?: ReactNode;
  maxLength?: number;
  inputMode?: 'decimal' | 'numeric' | 'text';
  size?: number;
  list?: string;
  className?: string;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint} className={props.className}>
      <input
        id={props.id}
        name={props.name}
        defaultValue={props.value}
        {...(props.maxLength ? { maxLength: props.maxLength } : {})}
        {...(props.inputMode ? { inputMode: props.inputMode } : {})}
        {...(props.size ? { size: props.size } : {})}
        {...(props.list ? { list: props.list, autoComplete: 'off' } : {})}
        {...invalid(`${props.id}-error`, props.error, props.hint ? `${props.id}-hint` : undefined)}
      />
    </Field>
  );
}

/** A checkbox posting 'yes', its label beside it. */
export function Check(props: { id: string; name: string; label: ReactNode; checked: boolean; hint?: ReactNode }) {
  return (
    <p className="admin-check">
      <input
        type="checkbox"
        id={props.id}
        name={props.name}
        value="yes"
        defaultChecked={props.checked}
        {...(props.hint ? { 'aria-describedby': `${props.id}-hint` } : {})}
      />
      <label htmlFor={props.id}>
        {props.label}
        {props.hint ? (
          <span className="admin-hint" id={`${props.id}-hint`}>
            {props.hint}
          </span>
        ) : null}
      </label>
    </p>
  );
}

/** Where each field's problem is shown: the id of its input ('variants.0.price' → 'v0-price'). */
const FIELD_IDS: readonly [RegExp, (...parts: string[]) => string][] = [
  [/^name$/, () => 'p-name'],
  [/^slug$/, () => 'p-slug'],
  [/^description$/, () => 'p-description'],
  [/^collectionId$/, () => 'p-collection'],
  [/^productType$/, () => 'p-type'],
  [/^additionalFieldsFormId$/, () => 'p-form'],
  [/^tags(?:\.\d+)?$/, () => 'p-tags'],
  [/^file$/, () => 'p-file'],
  [/^amounts$/, () => 'p-amounts'],
  [/^options\.(\d+)\.(name|values)$/, (i, f) => `o${i}-${f}`],
  [/^options(?:\.\d+)?$/, () => 'o0-name'],
  [/^variants\.(\d+)\.(sku|price|salePrice|stock|weight|attributes)$/, (i, f) => `v${i}-${VARIANT_IDS[f!] ?? f}`],
  [/^variants(?:\.\d+)?$/, () => 'variants'],
  [/^images\.(\d+)\.(altText|file)$/, (i) => `img${i}-alt`],
  [/^images\.(\d+)\.focalPoint$/, (i) => `img${i}-focusX`],
  [/^images\.(\d+)\.attributes$/, (i) => `img${i}-a0`],
  [/^subscription$/, () => 'sub-on'],
  [/^subscription\.billingPeriod$/, () => 'sub-every'],
  [/^subscription\.numBillingCycles$/, () => 'sub-cycles'],
  [
    /^subscription\.options\.(\d+)\.(id|price|salePrice|additionalFieldsFormId|customAddButtonText)$/,
    (i, f) => `sub${i}-${SUBSCRIPTION_IDS[f!] ?? f}`,
  ],
  [/^subscription\.options(?:\.\d+)?$/, () => 'sub0-price'],
  [/^merchandising\.scarcity\.(text|threshold)$/, (f) => `scarcity-${f}`],
  [/^merchandising\.customSoldOutText$/, () => 'sold-out'],
  [
    /^merchandising\.restockNotifications\.(message|successMessage)$/,
    (f) => (f === 'message' ? 'restock-message' : 'restock-success'),
  ],
  [/^relatedProductIds\.(\d+)$/, (i) => `related${i}`],
  [/^relatedProductIds$/, () => 'related-chosen'],
  [/^addOnProductIds\.(\d+)$/, (i) => `addOn${i}`],
  [/^addOnProductIds$/, () => 'addOn0'],
  [/^seo\.(title|description)$/, (f) => `seo-${f}`],
  // The Status fieldset (./StatusFields.tsx): the fieldset, and its Publish at.
  [/^status$/, () => 'field-status'],
  [/^publishAt$/, () => 'field-publishAt'],
];
const VARIANT_IDS: Readonly<Record<string, string>> = { salePrice: 'sale', attributes: 'sku' };
const SUBSCRIPTION_IDS: Readonly<Record<string, string>> = {
  salePrice: 'sale',
  additionalFieldsFormId: 'form',
  customAddButtonText: 'button',
};

/** The id of the input that shows the problem of field `field`, or null (a problem of the whole product). */
export function fieldIdOf(field: string): string | null {
  for (const [pattern, id] of FIELD_IDS) {
    const match = pattern.exec(field);
    if (match) return id(...match.slice(1));
  }
  return null;
}

/** The errors by the input that shows them (each input's first). */
export function errorsByInput(errors: Readonly<Record<string, string>>): Record<string, string> {
  const byInput: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const id = fieldIdOf(field);
    if (id) byInput[id] ??= message;
  }
  return byInput;
}

const WORDS: Readonly<Record<string, string>> = {
  name: 'Name',
  slug: 'Slug',
  description: 'Description',
  collectionId: 'Collection',
  productType: 'Product type',
  additionalFieldsFormId: 'Product form',
  tags: 'Tags',
  file: 'Add an image',
  amounts: 'Amounts',
  options: 'Options',
  variants: 'Variants',
  sku: 'SKU',
  price: 'price',
  salePrice: 'sale price',
  stock: 'stock',
  weight: 'weight',
  attributes: 'option values',
  altText: 'alt text',
  focalPoint: 'focal point',
  values: 'values',
  id: 'id',
  customAddButtonText: 'button text',
  subscription: 'Subscription',
  'subscription.billingPeriod': 'Charged every',
  'subscription.numBillingCycles': 'Number of payments',
  'subscription.options': 'Subscription options',
  'merchandising.scarcity.text': 'Scarcity text',
  'merchandising.scarcity.threshold': 'Scarcity: shown at',
  'merchandising.customSoldOutText': 'Sold-out text',
  'merchandising.restockNotifications.message': 'Sign-up call to action',
  'merchandising.restockNotifications.successMessage': 'Sign-up thank-you text',
  relatedProductIds: 'Related products',
  addOnProductIds: 'Add-ons',
  'seo.title': 'SEO title',
  'seo.description': 'SEO description',
  status: 'Status',
  publishAt: 'Publish at',
};

/** What the owner calls a field: 'variants.0.price' → 'Variant 1: price'. */
export function fieldLabel(field: string): string {
  const parts = field.split('.');
  const [root = '', index, leaf] = parts;
  const nth = (word: string) => `${word} ${Number(index) + 1}`;
  if (root === 'subscription' && parts[1] === 'options' && parts[2] !== undefined)
    return `Subscription option ${Number(parts[2]) + 1}${parts[3] ? `: ${WORDS[parts[3]] ?? parts[3]}` : ''}`;
  if (WORDS[field]) return WORDS[field];
  if (index !== undefined && /^\d+$/.test(index)) {
    if (root === 'variants') return `${nth('Variant')}${leaf ? `: ${WORDS[leaf] ?? leaf}` : ''}`;
    if (root === 'images') return `${nth('Image')}${leaf ? `: ${WORDS[leaf] ?? leaf}` : ''}`;
    if (root === 'options') return `${nth('Option')}${leaf ? `: ${WORDS[leaf] ?? leaf}` : ''}`;
    if (root === 'relatedProductIds') return nth('Related product');
    if (root === 'addOnProductIds') return nth('Add-on');
  }
  return WORDS[root] ?? field;
}

/** A refused save's problems, each a link to its field (a problem of the whole product without one). */
export function ErrorSummary(props: { errors: Readonly<Record<string, string>> }) {
  const entries = Object.entries(props.errors).filter(([field]) => field !== '');
  if (entries.length === 0) return null;
  return (
    <div className="admin-card admin-error-summary" role="region" aria-label="What to fix">
      <p>What to fix:</p>
      <ul>
        {entries.map(([field, message]) => {
          const id = fieldIdOf(field);
          const text = `${fieldLabel(field)}: ${message}`;
          return <li key={field}>{id ? <a href={`#${id}`}>{text}</a> : text}</li>;
        })}
      </ul>
    </div>
  );
}
