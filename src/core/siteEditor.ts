/**
 * The site editor's frames (spec §2): the owner's area shows the storefront in a frame (/admin/pages' and
 * /admin/design's previews), and a page inside such a frame behaves as the spec's editor rules say — the cart pill sets
 * the frame's URL instead of navigating, a gift-card purchase redirects only the top window, a collection page is not a
 * product list page. A frame is the editor's when its element carries this attribute (the admin's pages set it; the
 * storefront's script reads it through `window.frameElement`, which only a same-origin parent exposes).
 */
import { ProductType } from './enums';

const GIFT_CARD_PRODUCT_TYPE: number = ProductType.GIFT_CARD;

export const SITE_EDITOR_FRAME_ATTRIBUTE = 'data-site-editor';

/** Whether a page is inside the site editor: its frame element (null outside a frame or across origins) is marked. */
export const isInSiteEditor = (frameElement: { hasAttribute(name: string): boolean } | null | undefined): boolean =>
  frameElement?.hasAttribute(SITE_EDITOR_FRAME_ATTRIBUTE) === true;

/**
 * The target of a purchase form whose answer is a checkout in the top window (§2: 'In an embedded editor context only
 * the top window is redirected'): a gift card's form posts to '_top', which outside a frame is the window itself, so
 * the rule holds without JavaScript too. Other purchases stay where they are (undefined: the form's own window).
 */
export const purchaseFormTarget = (productType: number): '_top' | undefined =>
  productType === GIFT_CARD_PRODUCT_TYPE ? '_top' : undefined;
