import { describe, expect, it } from 'vitest';
import { ProductType } from './enums';
import type { CoreProduct, CoreVariant } from './product';
import {
  hasRestockForm,
  linkOrigin,
  normalizeRestockEmail,
  readRestockSignUp,
  restockCallToAction,
  restockedSkus,
  restockFormTarget,
  restockSendLimit,
  variantLabel,
  type RestockStockLevel,
} from './restock';

const variant = (
  sku: string,
  attributes: Record<string, string>,
  qtyInStock: number,
  unlimited = false,
): CoreVariant => ({
  sku,
  attributes,
  price: { minorUnits: 1000, currency: 'USD' },
  salePrice: null,
  onSale: false,
  qtyInStock,
  unlimited,
});

const mug: CoreProduct = {
  id: 'mug',
  name: 'Mug',
  productType: ProductType.PHYSICAL,
  isSubscribable: false,
  variantOptions: ['Size', 'Glaze'],
  variants: [
    variant('mug-s-chalk', { Size: 'S', Glaze: 'Chalk' }, 4),
    variant('mug-l-chalk', { Size: 'L', Glaze: 'Chalk' }, 0),
    variant('mug-l-coal', { Size: 'L', Glaze: 'Coal' }, 0),
  ],
};

describe('restock form: which variant it is for (§2, §4)', () => {
  it('a chosen sold-out variant gets the form; an in-stock one does not', () => {
    expect(restockFormTarget(mug, { Size: 'L', Glaze: 'Chalk' })).toEqual({
      kind: 'variant',
      variant: mug.variants[1],
    });
    expect(restockFormTarget(mug, { Size: 'S', Glaze: 'Chalk' })).toEqual({ kind: 'none' });
  });

  it('with options left to choose, the sold-out variants are offered (the form without JavaScript)', () => {
    expect(restockFormTarget(mug, { Size: 'L' })).toEqual({
      kind: 'choose',
      variants: [mug.variants[1], mug.variants[2]],
    });
    expect(restockFormTarget({ ...mug, variants: [mug.variants[0]!] }, {})).toEqual({ kind: 'none' });
  });

  it('a product without options has its one variant chosen', () => {
    const print = { ...mug, variantOptions: [], variants: [variant('print', {}, 0)] };
    expect(restockFormTarget(print, {})).toEqual({ kind: 'variant', variant: print.variants[0] });
  });

  it('unlimited stock, digital products and gift cards are never sold out', () => {
    expect(restockFormTarget({ ...mug, variantOptions: [], variants: [variant('x', {}, 0, true)] }, {})).toEqual({
      kind: 'none',
    });
    for (const productType of [ProductType.DIGITAL, ProductType.GIFT_CARD]) {
      expect(
        restockFormTarget({ ...mug, productType, variantOptions: [], variants: [variant('x', {}, 0)] }, {}),
      ).toEqual({ kind: 'none' });
      expect(hasRestockForm({ ...mug, productType }, { enabled: true })).toBe(false);
    }
  });

  it('the page carries the form only with restock on and a sold-out variant', () => {
    expect(hasRestockForm(mug, { enabled: true })).toBe(true);
    expect(hasRestockForm(mug, { enabled: false })).toBe(false);
    expect(hasRestockForm({ ...mug, variants: [mug.variants[0]!] }, { enabled: true })).toBe(false);
  });

  it('names variants by their values, else their SKU; the call to action is the site’s or ours', () => {
    expect(variantLabel(mug.variants[2]!)).toBe('L / Coal');
    expect(variantLabel(variant('PRINT-1', {}, 0))).toBe('PRINT-1');
    expect(restockCallToAction({ message: 'Tell me!' })).toBe('Tell me!');
    expect(restockCallToAction({ message: '  ' })).toBe('Notify me when this is back in stock');
    expect(restockCallToAction({})).toBe('Notify me when this is back in stock');
  });
});

describe('readRestockSignUp (§3 payload, §5 texts)', () => {
  const good = {
    isJoinMailingList: false,
    productId: 'mug',
    siteVisitorEmail: ' Ada@Example.com ',
    variantId: 'mug-l-chalk',
    recaptchaEnterpriseV3Token: 'tok',
  };

  it('reads the payload: the e-mail trimmed, the flag, the token', () => {
    expect(readRestockSignUp(good)).toEqual({
      ok: true,
      value: {
        productId: 'mug',
        variantId: 'mug-l-chalk',
        email: 'Ada@Example.com',
        isJoinMailingList: false,
        captchaToken: 'tok',
      },
    });
  });

  it.each([
    [{ siteVisitorEmail: '' }, 'siteVisitorEmail', 'Email cannot be blank'],
    [{ siteVisitorEmail: '   ' }, 'siteVisitorEmail', 'Email cannot be blank'],
    [{ siteVisitorEmail: undefined }, 'siteVisitorEmail', 'Email cannot be blank'],
    [{ siteVisitorEmail: 'ada@' }, 'siteVisitorEmail', 'Email is invalid'],
    [{ siteVisitorEmail: 42 }, 'siteVisitorEmail', 'Email cannot be blank'],
    [{ siteVisitorEmail: 'a\u0000b@example.com' }, 'siteVisitorEmail', 'Email is invalid'],
    [{ siteVisitorEmail: 'a\u0085b@example.com' }, 'siteVisitorEmail', 'Email is invalid'],
    [{ productId: '' }, 'productId', 'productId must be a product id (1-64 lower-case letters, digits or dashes).'],
    [{ productId: 'Mug' }, 'productId', 'productId must be a product id (1-64 lower-case letters, digits or dashes).'],
    [
      { variantId: ['a'] },
      'variantId',
      "variantId must be a variant's SKU (1-64 letters, digits, dots, dashes or underscores).",
    ],
    [
      { variantId: 'a\u0000' },
      'variantId',
      "variantId must be a variant's SKU (1-64 letters, digits, dots, dashes or underscores).",
    ],
    [{ isJoinMailingList: 'maybe' }, 'isJoinMailingList', 'isJoinMailingList must be true or false.'],
    [
      { recaptchaEnterpriseV3Token: 5 },
      'recaptchaEnterpriseV3Token',
      'recaptchaEnterpriseV3Token must be text of at most 10000 characters.',
    ],
  ])('%j → %s: %s', (change, field, message) => {
    expect(readRestockSignUp({ ...good, ...change })).toEqual({ ok: false, error: { field, message } });
  });

  it('takes a plain form’s checkbox values and a missing token', () => {
    for (const [value, expected] of [
      ['on', true],
      ['true', true],
      [true, true],
      [undefined, false],
      ['', false],
      [false, false],
    ] as const) {
      const read = readRestockSignUp({ ...good, isJoinMailingList: value, recaptchaEnterpriseV3Token: undefined });
      expect(read.ok && read.value.isJoinMailingList).toBe(expected);
      expect(read.ok && read.value.captchaToken).toBe(null);
    }
  });

  it('refuses what is not an object', () => {
    for (const body of [null, 'x', [good], 3])
      expect(readRestockSignUp(body)).toEqual({
        ok: false,
        error: { field: null, message: 'The sign-up must be a JSON object.' },
      });
  });
});

describe('normalizeRestockEmail', () => {
  it('stores and compares an address trimmed and lower-cased: one sign-up per address and variant', () => {
    expect(normalizeRestockEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
    expect(normalizeRestockEmail('ann.lee@example.com')).toBe(normalizeRestockEmail('ANN.LEE@EXAMPLE.COM'));
  });
});

describe('restock sends', () => {
  const stock = (qtyInStock: number, unlimited = false): RestockStockLevel => ({ qtyInStock, unlimited });

  it('e-mail at most as many as the units in stock, less those already told since the restock', () => {
    expect(restockSendLimit(stock(3), 0)).toBe(3);
    expect(restockSendLimit(stock(3), 2)).toBe(1);
    expect(restockSendLimit(stock(3), 5)).toBe(0);
    expect(restockSendLimit(stock(0), 0)).toBe(0);
    expect(restockSendLimit(stock(0), 0, { all: true })).toBe(Infinity);
    expect(restockSendLimit(stock(0, true), 9)).toBe(Infinity);
  });

  it('a restock is a variant going from 0 (not unlimited) to above 0 or unlimited', () => {
    const before = new Map([
      ['a', stock(0)],
      ['b', stock(0)],
      ['c', stock(2)],
      ['d', stock(0)],
      ['e', stock(0, true)],
    ]);
    const after = new Map([
      ['a', stock(5)],
      ['b', stock(0)],
      ['c', stock(9)],
      ['d', stock(0, true)],
      ['e', stock(3)],
      ['new', stock(4)],
    ]);
    expect(restockedSkus(before, after)).toEqual(['a', 'd']);
  });

  it('links go to the address signed up at only when it is the site’s', () => {
    expect(linkOrigin([], 'http', 'localhost:3000')).toBe('http://localhost:3000');
    expect(linkOrigin(['shop.example'], 'https', 'Shop.Example')).toBe('https://shop.example');
    // A port the site does not list is the request's word: the domain as listed.
    expect(linkOrigin(['shop.example'], 'https', 'shop.example:8443')).toBe('https://shop.example');
    expect(linkOrigin(['shop.example:8443'], 'https', 'shop.example:8443')).toBe('https://shop.example:8443');
    expect(linkOrigin(['shop.example', 'www.shop.example'], 'http', 'evil.example')).toBe('https://shop.example');
    expect(linkOrigin(['localhost:3000'], 'https', 'evil.example')).toBe('http://localhost:3000');
  });
});
