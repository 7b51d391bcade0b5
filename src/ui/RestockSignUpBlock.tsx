/**
 * The product page's restock sign-up (spec §2, §4): the RestockSignUp island (src/client/islands/RestockSignUp.tsx)
 * when the product offers it and some variant is sold out, with the product's settings, the site's CAPTCHA and, on
 * a page rendered for a sign-up posted without JavaScript, its outcome.
 */
import { useContext } from 'react';
import { restockSuccessMessage } from '../core/forms/restock';
import type { CoreProduct } from '../core/product';
import { hasRestockForm, restockCallToAction } from '../core/restock';
import type { RestockPosted } from '../client/islands/RestockSignUp';
import type { Product } from '../modules/site/schema';
import { useFormCaptcha } from './captchaContext';
import { FormPostContext, type FormPostState } from './formPost';
import { Island } from './Island';

/** How a sign-up posted without JavaScript names itself in the page's FormPostState. */
export const restockPostId = (productId: string): string => `restock:${productId}`;

const postedOutcome = (posted: FormPostState): RestockPosted => ({
  variantId: posted.values.variantId?.[0] ?? null,
  emailError: posted.fieldErrors.siteVisitorEmail ?? null,
  error: posted.error,
  success: posted.success,
  email: posted.values.siteVisitorEmail?.[0] ?? '',
  joinMailingList: posted.values.isJoinMailingList?.[0] === 'true',
});

export function RestockSignUpBlock({ product, core }: { product: Product; core: CoreProduct }) {
  const settings = product.merchandising.restockNotifications;
  const captcha = useFormCaptcha('restock');
  const posted = useContext(FormPostContext);
  if (!hasRestockForm(core, settings)) return null;
  return (
    <Island
      name="RestockSignUp"
      id="restock"
      props={{
        productId: product.id,
        productType: product.productType,
        options: core.variantOptions.slice(),
        variants: core.variants.map((v) => ({
          sku: v.sku,
          attributes: v.attributes,
          unlimited: v.unlimited,
          qtyInStock: v.qtyInStock,
        })),
        // The buying island's first choice: options with a single value are chosen.
        initialSelection: Object.fromEntries(
          product.variantOptions.filter((o) => o.values.length === 1).map((o) => [o.name, o.values[0] ?? '']),
        ),
        callToAction: restockCallToAction(settings),
        successMessage: restockSuccessMessage(settings.successMessage),
        hiddenByDefault: settings.hiddenByDefault,
        mailingList: settings.mailingListSignUpEnabled ? { checked: settings.mailingListOptInByDefault } : null,
        captcha,
        initial: posted && posted.formId === restockPostId(product.id) ? postedOutcome(posted) : null,
      }}
    />
  );
}
