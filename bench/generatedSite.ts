/**
 * A generated shop of any size, for the 10,000-product bench and the tests that check costs stay flat as a catalog
 * grows (issue 13). Not committed data: the same number always makes the same site. Products have two options
 * (three sizes, a few colours), tags and a description; every 10th one is sold out; no images (the image pipeline
 * has its own bench).
 */
import type { SiteFileInput } from '../src/modules/site/schema';

const WORDS = [
  'linen',
  'stoneware',
  'walnut',
  'speckled',
  'glazed',
  'oak',
  'copper',
  'wool',
  'matte',
  'coastal',
  'smoked',
  'harvest',
  'alpine',
  'terracotta',
  'indigo',
  'birch',
];
const THINGS = ['mug', 'bowl', 'plate', 'vase', 'towel', 'scoop', 'jar', 'tray', 'cup', 'pitcher', 'blanket', 'candle'];
const COLOURS = ['Oatmeal', 'Slate', 'Moss', 'Rust'];
const SIZES = ['Small', 'Medium', 'Large'];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

export function generatedSite(productCount: number, options: { host?: string; id?: string } = {}): SiteFileInput {
  const products = Array.from({ length: productCount }, (_, i) => {
    const name = `${pick(WORDS, i)} ${pick(WORDS, Math.floor(i / WORDS.length) + 3)} ${pick(THINGS, Math.floor(i / 7))} ${i + 1}`;
    const colours = COLOURS.slice(0, 2 + (i % 3));
    const price = 1200 + ((i * 137) % 9000);
    return {
      id: `p${i + 1}`,
      collectionId: 'shop',
      slug: `product-${i + 1}`,
      name: name.charAt(0).toUpperCase() + name.slice(1),
      productType: 1,
      description: `A ${pick(WORDS, i + 5)} ${pick(THINGS, i)} made in small batches. Number ${i + 1} of the generated catalog.`,
      tags: [pick(WORDS, i + 2), pick(THINGS, i + 1)],
      variantOptions: [
        { name: 'Size', values: SIZES },
        { name: 'Colour', values: colours },
      ],
      variants: SIZES.flatMap((size, s) =>
        colours.map((colour, c) => ({
          sku: `p${i + 1}-${s}-${c}`,
          attributes: { Size: size, Colour: colour },
          price: price + s * 400,
          stock: { qtyInStock: i % 10 === 9 ? 0 : 50 + ((i + s + c) % 50) },
        })),
      ),
    };
  });
  return {
    version: 1,
    website: {
      id: options.id ?? 'big',
      title: 'Big Shop',
      domains: [options.host ?? 'big.test'],
      default: true,
      currency: 'USD',
    },
    collections: [{ id: 'shop', type: 'products', title: 'Shop', slug: 'shop' }],
    products,
    pages: [{ id: 'home', path: '/', title: 'Home', blocks: [{ type: 'productGrid', collectionId: 'shop' }] }],
  } as SiteFileInput;
}
