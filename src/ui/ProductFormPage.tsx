import { CRUMB_FIELD } from '../core/crumb';
import type { ProductForm } from '../modules/cart/coreForm';
import { ADD_FORM_FIELDS, ADD_TO_CART_FORM_PATH } from './addToCartForm';
import { FormFieldInput } from './FormFields';

/**
 * A product's custom form as a page (spec §4 "Items with a custom form"), for a shopper without JavaScript: what the
 * dialog (src/client/islands/ProductFormDialog.tsx) shows, in a form that posts the answers with the add waiting for
 * them (`pending`, checked again by the server). Refused answers come back here with each message above its field.
 */
export function ProductFormPage({
  form,
  productName,
  productHref,
  choice,
  pending,
  backTo,
  crumb,
  selectValueLabel,
  errors,
  message,
  posted,
}: {
  form: ProductForm;
  productName: string;
  productHref: string;
  /** The chosen variant's options ('Color: Oatmeal'), or '' for a product without options. */
  choice: string;
  /** The add waiting for the answers, as the hidden field's JSON text. */
  pending: string;
  /** Where Cancel leads (the page the add came from). */
  backTo: string;
  crumb: string;
  selectValueLabel: string;
  errors: Readonly<Record<string, string>>;
  message: string | null;
  posted: Readonly<Record<string, readonly string[]>>;
}) {
  return (
    <section className="product-form-page" aria-labelledby="product-form-title">
      <h1 id="product-form-title" className="page-title">
        {form.name}
      </h1>
      <p>
        For <a href={productHref}>{productName}</a>
        {choice ? ` (${choice})` : ''}
      </p>
      <form
        className="form-dialog__form"
        method="post"
        action={ADD_TO_CART_FORM_PATH}
        noValidate
        aria-labelledby="product-form-title"
      >
        <input type="hidden" name={CRUMB_FIELD} value={crumb} />
        <input type="hidden" name={ADD_FORM_FIELDS.pending} value={pending} />
        {message ? (
          <p className="form-dialog__message" role="alert">
            {message}
          </p>
        ) : null}
        {form.fields.map((field) => (
          <FormFieldInput
            key={field.id}
            field={field}
            id={(part?: string) => `product-form-${field.id}${part ? `-${part}` : ''}`}
            selectValueLabel={selectValueLabel}
            error={errors[field.id]}
            posted={posted}
          />
        ))}
        {form.disclaimer ? <p className="form-block__disclaimer">{form.disclaimer}</p> : null}
        <div className="form-dialog__actions">
          <a className="button" href={backTo}>
            Cancel
          </a>
          <button type="submit" className="button button--primary">
            {form.submitLabel}
          </button>
        </div>
      </form>
    </section>
  );
}
