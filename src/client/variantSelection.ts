/**
 * The variant options a shopper has chosen on a product's page, shared between islands: the buying island
 * (ProductPurchase) tells each change, the restock form (loaded later, on its own) reads the latest and follows.
 * Per product id; nothing is kept across pages.
 */

export type VariantSelection = Readonly<Record<string, string>>;
type Listener = (selection: VariantSelection) => void;

const latest = new Map<string, VariantSelection>();
const listeners = new Map<string, Set<Listener>>();

export function publishVariantSelection(productId: string, selection: VariantSelection): void {
  latest.set(productId, selection);
  for (const listener of listeners.get(productId) ?? []) listener(selection);
}

/** The latest selection told for the product, or undefined before any. */
export const variantSelectionOf = (productId: string): VariantSelection | undefined => latest.get(productId);

/** Calls `listener` with each selection told from now on; returns the function that stops it. */
export function onVariantSelection(productId: string, listener: Listener): () => void {
  let set = listeners.get(productId);
  if (!set) listeners.set(productId, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}
