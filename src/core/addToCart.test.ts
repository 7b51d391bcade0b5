import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAddToCart, isInStock, type AddToCartInput } from './addToCart';
import { product, variant } from './commerceTestFixtures';
import { ProductType } from './enums';

const sm = variant({ sku: 'S', attributes: { Size: 'S', Colour: 'Red', Fit: 'Slim' }, qtyInStock: 3 });
const lg = variant({ sku: 'L', attributes: { Size: 'L', Colour: 'Red', Fit: 'Slim' }, qtyInStock: 0 });
const shirt = product({ variantOptions: ['Size', 'Colour', 'Fit'], variants: [sm, lg] });
const red = { Colour: 'Red', Fit: 'Slim' };

const run = (overrides: Partial<AddToCartInput>) =>
  checkAddToCart({ product: shirt, selection: { sku: 'S' }, ...overrides });
const failure = (result: ReturnType<typeof checkAddToCart>) => (result.ok ? null : result.error);

describe('checkAddToCart (§5, in order)', () => {
  it.each<[string, Partial<AddToCartInput>, string, string]>([
    [
      '1 option unselected',
      { selection: { attributes: { Colour: 'Red', Fit: 'Slim' } } },
      'NO_VARIANT_SELECTED',
      'Please select the Size option.',
    ],
    [
      '2 options unselected',
      { selection: { attributes: { Fit: 'Slim' } } },
      'NO_VARIANT_SELECTED',
      'Please select the Size and Colour options.',
    ],
    [
      '3 options unselected',
      { selection: { attributes: {} } },
      'NO_VARIANT_SELECTED',
      'Please select the Size, Colour and Fit options.',
    ],
    [
      'blank sku counts as nothing chosen',
      { selection: { sku: '' } },
      'NO_VARIANT_SELECTED',
      'Please select the Size, Colour and Fit options.',
    ],
    [
      'missing sku',
      { selection: { sku: null } },
      'NO_VARIANT_SELECTED',
      'Please select the Size, Colour and Fit options.',
    ],
    [
      'gift card denomination',
      {
        product: product({ productType: ProductType.GIFT_CARD, variantOptions: ['Amount'] }),
        selection: { attributes: {} },
      },
      'NO_VARIANT_SELECTED',
      'Select a denomination for the Gift Card',
    ],
    [
      'no matching variant',
      { selection: { attributes: { Size: 'XL', ...red } } },
      'VARIANT_UNAVAILABLE',
      'Sorry, that item variant is unavailable. Please select another variant.',
    ],
    [
      'unknown sku',
      { selection: { sku: 'XL' } },
      'VARIANT_UNAVAILABLE',
      'Sorry, that item variant is unavailable. Please select another variant.',
    ],
    [
      'product without variants',
      { product: product({ variants: [] }), selection: { attributes: {} } },
      'VARIANT_UNAVAILABLE',
      'Sorry, that item variant is unavailable. Please select another variant.',
    ],
    [
      'variant out of stock',
      { selection: { sku: 'L' } },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    [
      'cart already holds all 3',
      { quantityInCart: 3 },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    [
      '2 in cart + 2 requested > 3',
      { quantityInCart: 2, quantityInput: '2' },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    [
      '5 requested, 3 left',
      { quantityInput: 5 },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    [
      'fresher stock overrides the product',
      { stock: { unlimited: false, qtyInStock: 0 } },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    [
      'unknown product type cannot be sold',
      { product: product({ productType: 42 }), selection: { attributes: {} } },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    [
      'stock before quantity',
      { selection: { sku: 'L' }, quantityInput: 'abc' },
      'OUT_OF_STOCK',
      'Sorry, we do not have enough of that item available.',
    ],
    ['quantity not a number', { quantityInput: 'abc' }, 'QUANTITY_NOT_A_NUMBER', 'Quantity must be a number.'],
    ['quantity not whole', { quantityInput: '1.5' }, 'QUANTITY_NOT_A_NUMBER', 'Quantity must be a whole number'],
    [
      'subscription quantity not whole',
      { product: product({ isSubscribable: true }), selection: { attributes: {} }, quantityInput: '1.5' },
      'SUB_QUANTITY_NOT_A_WHOLE_NUMBER',
      'Quantity must be a whole number',
    ],
    [
      'subscription quantity not a number',
      { product: product({ isSubscribable: true }), selection: { attributes: {} }, quantityInput: 'x' },
      'QUANTITY_NOT_A_NUMBER',
      'Quantity must be a number.',
    ],
    ['quantity zero', { quantityInput: '0' }, 'QUANTITY_NOT_A_NUMBER', 'Quantity must be between 1 and 9999.'],
    [
      'quantity over 9999 with unlimited stock',
      { stock: { unlimited: true, qtyInStock: 0 }, quantityInput: 10000 },
      'QUANTITY_NOT_A_NUMBER',
      'Quantity must be between 1 and 9999.',
    ],
    [
      'express checkout without cookie or session',
      { expressCheckout: true },
      'EXPRESS_CHECKOUT_FAILURE',
      'Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.',
    ],
  ])('%s → %s', (_, overrides, type, message) => {
    expect(failure(run(overrides))).toMatchObject({ type, message });
  });

  it('reports which options are missing', () => {
    expect(failure(run({ selection: { attributes: { Size: 'S' } } }))?.unselectedOptions).toEqual(['Colour', 'Fit']);
  });

  it('accepts a valid add', () => {
    expect(run({ quantityInput: '3' })).toEqual({ ok: true, value: { variant: sm, quantity: 3 } });
    expect(run({ selection: { attributes: { Size: 'S', ...red } } })).toEqual({
      ok: true,
      value: { variant: sm, quantity: 1 },
    });
    expect(run({ quantityInCart: 2 })).toEqual({ ok: true, value: { variant: sm, quantity: 1 } });
    expect(run({ expressCheckout: true, hasCartCookieOrSession: true }).ok).toBe(true);
  });

  it('digital and gift card stock is unlimited', () => {
    for (const productType of [ProductType.DIGITAL, ProductType.GIFT_CARD, ProductType.PAYWALL]) {
      const p = product({ productType, variants: [variant({ qtyInStock: 0 })] });
      expect(
        checkAddToCart({ product: p, selection: { attributes: {} }, quantityInput: 9999, quantityInCart: 50 }).ok,
      ).toBe(true);
    }
  });
});

describe('stock rule', () => {
  it.each<[number, number, number, boolean]>([
    // qtyInStock, already in cart, requested, in stock
    [3, 0, 1, true],
    [3, 2, 1, true],
    [3, 3, 1, false],
    [3, 0, 3, true],
    [3, 0, 4, false],
    [3, 1, 3, false],
    [0, 0, 1, false],
    [2.9, 2, 1, false],
  ])('stock %s, cart %s, requested %s → %s', (qtyInStock, inCart, requested, expected) => {
    expect(isInStock({ productType: ProductType.PHYSICAL }, { unlimited: false, qtyInStock }, inCart, requested)).toBe(
      expected,
    );
  });

  it('bad cart quantities count as nothing in the cart', () => {
    const stock = { unlimited: false, qtyInStock: 1 };
    expect(isInStock({ productType: ProductType.PHYSICAL }, stock, NaN, 1)).toBe(true);
    expect(isInStock({ productType: ProductType.PHYSICAL }, stock, -5, 1)).toBe(true);
    expect(isInStock({ productType: ProductType.PHYSICAL }, { unlimited: false, qtyInStock: NaN }, 0, 1)).toBe(false);
  });

  it('never oversells and never throws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.oneof(fc.integer({ min: -5, max: 30 }), fc.double(), fc.constant(undefined)),
        fc.oneof(fc.integer({ min: -5, max: 30 }), fc.string(), fc.anything()),
        fc.boolean(),
        (qtyInStock, quantityInCart, quantityInput, expressCheckout) => {
          const p = product({ variants: [variant({ qtyInStock })] });
          const result = checkAddToCart({
            product: p,
            selection: { attributes: {} },
            quantityInput,
            quantityInCart,
            expressCheckout,
          });
          if (result.ok) {
            const inCart =
              typeof quantityInCart === 'number' && Number.isFinite(quantityInCart) && quantityInCart > 0
                ? quantityInCart
                : 0;
            expect(inCart + result.value.quantity).toBeLessThanOrEqual(qtyInStock);
          }
        },
      ),
    );
  });
});
