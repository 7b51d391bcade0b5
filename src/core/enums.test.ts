import { describe, expect, it } from 'vitest';
import {
  CollectionType,
  ContributorRole,
  FolderBehavior,
  isCollectionType,
  isContributorRole,
  isFolderBehavior,
  isPageType,
  isProductDetailPage,
  isProductListPage,
  isProductType,
  isPromotedBlockType,
  isRecordType,
  PAGE_TYPES,
  PageType,
  ProductType,
  PROMOTED_BLOCK_TYPES,
  RecordType,
} from './enums';

describe('numeric enumerations (§2, §3)', () => {
  it('page types carry the spec numbers', () => {
    expect(PageType).toEqual({
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
    });
    expect(PAGE_TYPES).toHaveLength(27);
  });

  it('other enumerations', () => {
    expect(ProductType).toEqual({ PHYSICAL: 1, DIGITAL: 2, SERVICE: 3, GIFT_CARD: 4, PAYWALL: 5 });
    expect(RecordType).toMatchObject({
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
    });
    expect(CollectionType).toMatchObject({ GENERIC: 1, PRODUCTS: 13, PORTFOLIO: 23, LESSONS: 24, COURSE: 25 });
    expect(FolderBehavior).toEqual({ INDEX: 1, REDIRECT: 2, NONE: 3, VARIATION: 4 });
    expect(ContributorRole).toEqual({
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
    });
    expect(PROMOTED_BLOCK_TYPES).toHaveLength(11);
  });

  it.each<[(v: unknown) => boolean, unknown, boolean]>([
    [isProductType, 5, true],
    [isProductType, 6, false],
    [isProductType, '1', false],
    [isPageType, 400, true],
    [isPageType, 4, false],
    [isRecordType, 3, false],
    [isRecordType, 11, true],
    [isFolderBehavior, 4, true],
    [isContributorRole, 5, false],
    [isContributorRole, 16, true],
    [isCollectionType, 25, true],
    [isCollectionType, 26, false],
    [isCollectionType, 0, false],
    [isCollectionType, 1.5, false],
    [isPromotedBlockType, 'check-in', true],
    [isPromotedBlockType, 'twitter', false],
  ])('guard %#', (guard, value, expected) => {
    expect(guard(value)).toBe(expected);
  });
});

describe('product pages (§2)', () => {
  it.each<[Parameters<typeof isProductDetailPage>[0], boolean, boolean]>([
    [{ pageType: PageType.CONTENT_ITEM, hasProduct: true, collectionType: CollectionType.PRODUCTS }, true, false],
    [{ pageType: PageType.CONTENT_ITEM, hasProduct: false, collectionType: CollectionType.GENERIC }, false, false],
    [{ pageType: PageType.MAIN_CONTENT, collectionType: CollectionType.PRODUCTS }, false, true],
    [{ pageType: PageType.MAIN_CONTENT, collectionType: CollectionType.PRODUCTS, inSiteEditor: true }, false, false],
    [{ pageType: PageType.MAIN_CONTENT, collectionType: CollectionType.GENERIC }, false, false],
    [{ pageType: PageType.PAGE, collectionType: null }, false, false],
  ])('%j → detail %s, list %s', (page, detail, list) => {
    expect(isProductDetailPage(page)).toBe(detail);
    expect(isProductListPage(page)).toBe(list);
  });
});
