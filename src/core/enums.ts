/**
 * Numeric enumerations of spec §2 and §3. The tables' derived lists are marked pure, so the browser bundle keeps only
 * the tables its code uses.
 */

const valuesOf = <T extends Record<string, number>>(table: T): readonly T[keyof T][] =>
  Object.values(table) as T[keyof T][];
const isMember =
  <V extends number>(values: readonly V[]) =>
  (value: unknown): value is V =>
    typeof value === 'number' && (values as readonly number[]).includes(value);

export const ProductType = {
  PHYSICAL: 1,
  DIGITAL: 2,
  SERVICE: 3,
  GIFT_CARD: 4,
  PAYWALL: 5,
} as const;
export type ProductType = (typeof ProductType)[keyof typeof ProductType];
export const PRODUCT_TYPES: readonly ProductType[] = /* @__PURE__ */ valuesOf(ProductType);
export const isProductType = /* @__PURE__ */ isMember(PRODUCT_TYPES);

export const PageType = {
  MAIN_CONTENT: 1,
  PAGE: 2,
  SPLASH_PAGE: 3,
  CONTENT_ITEM: 50,
  NOT_FOUND: 100,
  ERROR: 101,
  SEARCH: 102,
  LOCK_SCREEN: 103,
  POPUP_OVERLAY: 104,
  PROTECTED_CONTENT: 105,
  MEMBER_AREA_ACCESS_DENIED: 106,
  PAYWALL: 107,
  SHOW_CART: 200,
  CHECKOUT: 201,
  ORDER_CONFIRMED: 202,
  DONATE: 203,
  CONTRIBUTION_CONFIRMED: 204,
  COMMERCE_CART_V2: 205,
  SUBSCRIPTION_CONFIRMED: 206,
  ORDER_RECEIVED: 207,
  MEMBERSHIP_CONFIRMED: 208,
  REVIEWS_REQUEST: 209,
  DIGITAL_PRODUCT_COMPOSER_PREVIEW: 210,
  ORDER_STATUS: 211,
  NEWSLETTER_UNSUBSCRIBE: 300,
  COMMERCE_EMAIL_PREVIEW: 301,
  SSO_PAGE: 400,
} as const;
export type PageType = (typeof PageType)[keyof typeof PageType];
export const PAGE_TYPES: readonly PageType[] = /* @__PURE__ */ valuesOf(PageType);
export const isPageType = /* @__PURE__ */ isMember(PAGE_TYPES);

export const RecordType = {
  TEXT: 1,
  IMAGE: 2,
  QUOTE: 4,
  LINK: 5,
  CHAT: 6,
  AUDIO: 7,
  VIDEO: 8,
  REVIEW: 10,
  STORE_ITEM: 11,
  EVENT: 12,
  THREAD: 13,
  GALLERY: 14,
} as const;
// The spec mentions further record types without numbers; unknown numbers are kept as plain numbers by callers.
export type RecordType = (typeof RecordType)[keyof typeof RecordType];
export const RECORD_TYPES: readonly RecordType[] = /* @__PURE__ */ valuesOf(RecordType);
export const isRecordType = /* @__PURE__ */ isMember(RECORD_TYPES);

/**
 * Collection types run from 1 to 25. The spec numbers only generic (first), products, portfolio, lessons and course;
 * subscription and page follow generic in the spec's listing, so they take 2 and 3 here. The remaining numbers are
 * valid collection types without a name.
 */
export const CollectionType = {
  GENERIC: 1,
  SUBSCRIPTION: 2,
  PAGE: 3,
  PRODUCTS: 13,
  PORTFOLIO: 23,
  LESSONS: 24,
  COURSE: 25,
} as const;
export type NamedCollectionType = (typeof CollectionType)[keyof typeof CollectionType];
export const COLLECTION_TYPE_MIN = 1;
export const COLLECTION_TYPE_MAX = 25;
export const isCollectionType = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= COLLECTION_TYPE_MIN && (value as number) <= COLLECTION_TYPE_MAX;

export const FolderBehavior = {
  INDEX: 1,
  REDIRECT: 2,
  NONE: 3,
  VARIATION: 4,
} as const;
export type FolderBehavior = (typeof FolderBehavior)[keyof typeof FolderBehavior];
export const FOLDER_BEHAVIORS: readonly FolderBehavior[] = /* @__PURE__ */ valuesOf(FolderBehavior);
export const isFolderBehavior = /* @__PURE__ */ isMember(FOLDER_BEHAVIORS);

export const ContributorRole = {
  ADMIN: 1,
  BILLING: 2,
  REPORTING: 3,
  EDITOR: 4,
  MODERATOR: 6,
  COMMENTER: 7,
  STORE_MANAGER: 8,
  SCHEDULING: 9,
  VIEWER: 10,
  CAMPAIGNS_EDITOR: 11,
  SCHEDULING_VIEWER: 12,
  SCHEDULING_EDITOR: 13,
  NONE: 14,
  WEBSITE_MANAGER: 15,
  DRAFT_EDITOR: 16,
} as const;
export type ContributorRole = (typeof ContributorRole)[keyof typeof ContributorRole];
export const CONTRIBUTOR_ROLES: readonly ContributorRole[] = /* @__PURE__ */ valuesOf(ContributorRole);
export const isContributorRole = /* @__PURE__ */ isMember(CONTRIBUTOR_ROLES);

/** The spec names promoted block types without values; these kebab-case names are ours. */
export const PROMOTED_BLOCK_TYPES = [
  'map',
  'embed',
  'image',
  'code',
  'quote',
  'social-post',
  'link',
  'video',
  'check-in',
  'photo-feed',
  'form',
] as const;
export type PromotedBlockType = (typeof PROMOTED_BLOCK_TYPES)[number];
export const isPromotedBlockType = (value: unknown): value is PromotedBlockType =>
  (PROMOTED_BLOCK_TYPES as readonly unknown[]).includes(value);

/** Where a page is, as far as §2's product page rules need to know. */
export interface PageContext {
  pageType: number;
  /** The content item of the page is a product (a content item page without one is a blog post, event, ...). */
  hasProduct?: boolean;
  collectionType?: number | null;
  inSiteEditor?: boolean;
}

export const isProductDetailPage = (page: PageContext): boolean =>
  page.pageType === PageType.CONTENT_ITEM && page.hasProduct === true;

/**
 * A product detail page also lives inside its products collection, so content item pages are excluded here;
 * otherwise every product page would count as a list page too.
 */
export const isProductListPage = (page: PageContext): boolean =>
  page.collectionType === CollectionType.PRODUCTS &&
  page.pageType !== PageType.CONTENT_ITEM &&
  page.inSiteEditor !== true;

/** Only the block type numbers the spec names; the other ~60 kinds are not listed. */
export const BlockType = {
  NAVIGATION: 1,
  ACCORDION: 69,
} as const;
export type BlockType = (typeof BlockType)[keyof typeof BlockType];

/** Only the content item type ids the spec names. */
export const ContentItemTypeId = {
  NAVIGATION: 1,
  HTML: 2,
  PRICING_PLAN: 72,
  WEBSITE_COMPONENT: 1337,
} as const;
export type ContentItemTypeId = (typeof ContentItemTypeId)[keyof typeof ContentItemTypeId];
