import type { FormDefinition } from '../../core/forms/fields';
import type { Form, Product } from '../site';

/**
 * A product form (spec §4 "Items with a custom form") as the add button needs it: title, fields and submit text —
 * all the browser gets of the form, in the island's props. It is also the core's FormDefinition the server checks
 * answers with: no CAPTCHA (an add is not a form submission).
 */
export type ProductForm = Pick<Form, 'id' | 'name' | 'fields' | 'submitLabel'> & { disclaimer?: string };

export const toProductForm = (form: Form): ProductForm => ({
  id: form.id,
  name: form.name,
  fields: form.fields,
  submitLabel: form.submitLabel,
  ...(form.disclaimer ? { disclaimer: form.disclaimer } : {}),
});

/** Product forms by form id, as the pages of a site version look them up. */
export type ProductForms = ReadonlyMap<string, ProductForm>;

/** The form a product's add button opens (its additionalFieldsFormId), or undefined for a product without one. */
export const productFormOf = (
  product: Pick<Product, 'additionalFieldsFormId'>,
  forms: ProductForms,
): ProductForm | undefined =>
  product.additionalFieldsFormId === undefined ? undefined : forms.get(product.additionalFieldsFormId);

/** Compile-time proof that a product form is a core form definition (the site file's fields are the core's). */
export const productFormDefinition = (form: ProductForm): FormDefinition => form;
