/** Default labels of spec §9, the add-to-cart button's state labels of §4 and the error page's title (§8). */

export const DEFAULT_LABELS = {
  addToCart: 'Add To Cart',
  subscribe: 'Subscribe',
  quantity: 'Quantity',
  quickView: 'Quick View',
  salePrice: 'Sale Price:',
  originalPrice: 'Original Price:',
  selectValue: 'Select Value',
  selectVariant: 'Select {variantName}',
} as const;

/** 'Select Size' — the first, empty choice of a variant dropdown. */
export const selectVariantLabel = (variantName: string, template: string = DEFAULT_LABELS.selectVariant): string =>
  template.split('{variantName}').join(variantName);

export const PRODUCT_MARK_LABELS = {
  soldOut: 'sold out',
  sale: 'sale',
} as const;

/** A configured text, or null when it is missing or blank (blank labels fall back to the defaults). */
export const filledText = (text: string | null | undefined): string | null =>
  text && text.trim() !== '' ? text : null;

/** The labels a page renders with. */
export interface SiteLabels {
  addToCart: string;
  subscribe: string;
  quantity: string;
  quickView: string;
  salePrice: string;
  originalPrice: string;
  selectValue: string;
  soldOut: string;
  sale: string;
}

/** The site's configured labels, each blank or missing one falling back to the §9 default. */
export const resolveSiteLabels = (configured: Partial<Record<keyof SiteLabels, string | null>>): SiteLabels => ({
  addToCart: filledText(configured.addToCart) ?? DEFAULT_LABELS.addToCart,
  subscribe: filledText(configured.subscribe) ?? DEFAULT_LABELS.subscribe,
  quantity: filledText(configured.quantity) ?? DEFAULT_LABELS.quantity,
  quickView: filledText(configured.quickView) ?? DEFAULT_LABELS.quickView,
  salePrice: filledText(configured.salePrice) ?? DEFAULT_LABELS.salePrice,
  originalPrice: filledText(configured.originalPrice) ?? DEFAULT_LABELS.originalPrice,
  selectValue: filledText(configured.selectValue) ?? DEFAULT_LABELS.selectValue,
  soldOut: filledText(configured.soldOut) ?? PRODUCT_MARK_LABELS.soldOut,
  sale: filledText(configured.sale) ?? PRODUCT_MARK_LABELS.sale,
});

/**
 * §4 gives two adding labels: 'Adding…' (with an ellipsis character) on full-size buttons and the shorter 'Add...'
 * (three full stops) on compact buttons such as add-on products, where the longer word does not fit.
 */
export const BUTTON_LABELS = {
  adding: 'Adding…',
  addingCompact: 'Add...',
  added: 'Added!',
  selectOption: 'Select Option',
  soldOut: 'Sold Out',
  saving: 'Saving…',
} as const;

export type AddToCartButtonState = 'idle' | 'adding' | 'added' | 'select-option' | 'sold-out' | 'saving';

/** The text an add-to-cart button shows in a state; idle shows the product's own label. */
export function buttonStateLabel(state: AddToCartButtonState, idleLabel: string, compact = false): string {
  switch (state) {
    case 'adding':
      return compact ? BUTTON_LABELS.addingCompact : BUTTON_LABELS.adding;
    case 'added':
      return BUTTON_LABELS.added;
    case 'select-option':
      return BUTTON_LABELS.selectOption;
    case 'sold-out':
      return BUTTON_LABELS.soldOut;
    case 'saving':
      return BUTTON_LABELS.saving;
    default:
      return idleLabel;
  }
}

/** §8's 'Something went wrong': the title of the site's error page (page type 101) and of the server's plain one. */
export const ERROR_PAGE_TITLE = 'Something went wrong';

export const LIKERT_MIN = -2;
export const LIKERT_MAX = 2;
/**
 * §9 names only the ends ('Strongly Disagree' through 'Strongly Agree'); the three middle labels are the usual
 * five-point Likert wording.
 */
export const LIKERT_DEFAULT_LABELS: Readonly<Record<-2 | -1 | 0 | 1 | 2, string>> = {
  [-2]: 'Strongly Disagree',
  [-1]: 'Disagree',
  0: 'Neutral',
  1: 'Agree',
  2: 'Strongly Agree',
};
