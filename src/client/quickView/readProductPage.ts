/**
 * What the quick view shows, read from the product's own page (cached by the server, so this costs one fast GET and
 * no API of its own): the buying island's props, the product's name, its first image and its address.
 */
import { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from '../islands';
import type { ProductPurchaseProps } from '../islands/ProductPurchase';

export interface QuickViewProduct {
  url: string;
  name: string;
  purchase: ProductPurchaseProps;
  /** The product page's main image element as shown at first (its srcset and sizes), or null. */
  image: HTMLImageElement | null;
}

export async function readProductPage(url: string, signal?: AbortSignal): Promise<QuickViewProduct> {
  const response = await fetch(url, {
    credentials: 'same-origin',
    headers: { accept: 'text/html' },
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new Error(`Quick view: ${url} answered ${response.status}`);
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  const root = doc.querySelector(`[${ISLAND_ATTRIBUTE}="ProductPurchase"]`);
  const props = root?.getAttribute(ISLAND_PROPS_ATTRIBUTE);
  if (!props) throw new Error(`Quick view: ${url} has no buying area`);
  const image = doc.querySelector<HTMLImageElement>('.pdp__main-image img:not([hidden])');
  return {
    url,
    name: doc.querySelector('.pdp__name')?.textContent ?? '',
    purchase: JSON.parse(props) as ProductPurchaseProps,
    image: image ? (document.importNode(image, false) as HTMLImageElement) : null,
  };
}
