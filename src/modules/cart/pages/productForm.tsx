/**
 * A product with a custom form, added without JavaScript (POST /cart/add, ./addToCart.ts): its form as a page (200),
 * whose post adds with the answers; refused answers show it again with each field's message (400). Shown by the add
 * form only (no address of its own).
 */
import { PageType } from '../../../core/enums';
import type { AppContext } from '../../../platform/http/appContext';
import { pageCrumb } from '../../../platform/http/crumb';
import { visitorPageKind } from '../../../render/visitorPageKind';
import { ADD_TO_CART_FORM_PATH } from '../../../ui/addToCartForm';
import { uiLabels } from '../../../ui/labels';
import { ProductFormPage } from '../../../ui/ProductFormPage';
import type { AddFromFormOutcome, PendingAdd } from '../addToCartForm';

export interface ProductFormData {
  outcome: Extract<AddFromFormOutcome, { kind: 'form' }>;
  /** The product's page. */
  productHref: string;
  /** Where the shopper goes back to once added. */
  backTo: string;
  /** What the shopper posted (a refused try), by input name; the add's own fields left out. */
  posted: Record<string, string[]>;
  /** The answers were posted and refused. */
  refused: boolean;
}

export const productForm = (ctx: AppContext) =>
  visitorPageKind<ProductFormData>({
    name: 'productForm',
    paths: [],
    headers: { 'cache-control': 'no-store' },
    view: ({ request, reply, site }, { outcome, productHref, backTo, posted, refused }) => {
      const { product, form } = outcome;
      const variant = product.variants.find((v) => v.sku === outcome.pending.sku);
      const choice = product.variantOptions.map((o) => `${o.name}: ${variant?.attributes[o.name] ?? ''}`).join(', ');
      const pending: PendingAdd & { backTo: string } = { ...outcome.pending, backTo };
      return {
        path: ADD_TO_CART_FORM_PATH,
        pageType: PageType.PAGE,
        title: refused ? `Error: ${form.name}` : form.name,
        description: `${form.name} — ${product.name}`,
        status: refused ? 400 : 200,
        body: (
          <ProductFormPage
            form={form}
            productName={product.name}
            productHref={productHref}
            choice={product.variantOptions.length > 0 ? choice : ''}
            pending={JSON.stringify(pending)}
            backTo={backTo}
            crumb={pageCrumb(request, reply, ctx)}
            selectValueLabel={uiLabels(site.settings).selectValue}
            errors={outcome.errors}
            message={outcome.message}
            posted={posted}
          />
        ),
      };
    },
  });
