/**
 * The add-to-cart form that works without JavaScript: every add button (detail page, grid card, product block) sits
 * in a real `<form method="post">` to ADD_TO_CART_FORM_PATH, which adds with the cart's own rules and answers 303 back
 * to the page with the §5 message (src/modules/cart/pages/addToCart.ts). With JavaScript the islands take the submit
 * over (preventDefault), so an item is added once either way. Names shared by the islands and the server.
 */
export const ADD_TO_CART_FORM_PATH = '/cart/add';

export const ADD_FORM_FIELDS = {
  itemId: 'itemId',
  /** A product without options posts its one variant; a detail page posts the chosen options instead. */
  sku: 'sku',
  /** The quantity input's own name (src/ui/QuantityInput.tsx). */
  quantity: 'quantity',
  subscriptionOptionId: 'subscriptionOptionId',
  /** The express-checkout button's name (posted with its label as value): add, then straight to checkout (§4). */
  express: 'express',
  /**
   * The product-form page's hidden state (JSON: the add waiting for the answers). A dot: no form field's input name
   * can be it (field ids have none, part names are fixed).
   */
  pending: 'vitrine.add',
} as const;

/** A variant select's input name: `option.Size` (a prefix, so no option name can clash with the fields above). */
export const optionFieldName = (optionName: string): string => `option.${optionName}`;
export const OPTION_FIELD_PREFIX = 'option.';
