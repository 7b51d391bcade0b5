import type { Form, Product } from '../modules/site/schema';
import { FormBlock } from './FormBlock';

/**
 * A product waitlist block: the waitlist form (a form block like the others: same states, texts and no-JS post) for a
 * product that is coming, named above the form when the block names one. The sign-up (its first e-mail field's address)
 * is stored once per e-mail and product and e-mailed to the shop (src/modules/forms/submissions.ts); its CAPTCHA
 * answers §7's PRODUCT_WAITLIST_SUBMISSION.
 */
export function WaitlistBlock({
  form,
  product,
  index,
  selectValueLabel,
  captcha,
}: {
  form: Form;
  product: Pick<Product, 'id' | 'name'> | null;
  index: number;
  selectValueLabel?: string;
  captcha: boolean;
}) {
  return (
    <section className="waitlist-block" aria-label={product ? `${form.name}: ${product.name}` : form.name}>
      {product ? <p className="waitlist-block__product">{`Coming soon: ${product.name}`}</p> : null}
      <FormBlock
        form={form}
        index={index}
        productId={product?.id ?? null}
        captcha={captcha}
        {...(selectValueLabel ? { selectValueLabel } : {})}
      />
    </section>
  );
}
