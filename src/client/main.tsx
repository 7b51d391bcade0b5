/** Browser entry: hydrate the island roots the server marked, start the cart store. Nothing else hydrates. */
// First: errors from here on (hydration included) reach the error reporter (./measure/catchErrors.ts).
import './measure/catchErrors';
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import '../ui/styles.css';
import { cartStore } from './cartStore';
import { loadMeasurement } from './measure/load';
import { startQuickView } from './quickView';
import { ISLANDS, ISLAND_ATTRIBUTE, ISLAND_ID_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, type IslandName } from './islands';
import { hydrateLazyIslands } from './islands/lazy';
import { onVariantSelection } from './variantSelection';

// Islands whose code loads on its own, when needed (./islands/lazy.ts); first, so they hear the others from the start.
hydrateLazyIslands();

for (const root of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
  const name = root.getAttribute(ISLAND_ATTRIBUTE) as IslandName;
  const component = ISLANDS[name] as ComponentType<object> | undefined;
  if (!component) continue;
  let props: object;
  try {
    props = JSON.parse(root.getAttribute(ISLAND_PROPS_ATTRIBUTE) ?? '{}') as object;
  } catch {
    continue;
  }
  hydrateRoot(root, createElement(component, props), {
    identifierPrefix: `${root.getAttribute(ISLAND_ID_ATTRIBUTE) ?? ''}-`,
  });
}

void cartStore().start(document.cookie);

// A product page whose images picture option values shows the one of the shopper's choice (./variantImages.ts).
const variantImages = document.querySelector<HTMLElement>('[data-variant-images]');
if (variantImages)
  onVariantSelection(
    variantImages.dataset.variantImages!,
    (s) => void import('./variantImages').then((m) => m.showVariantImage(variantImages, s)),
  );

// Product cards' Quick View links open the dialog (its code loads on the first click).
if (document.querySelector('a[data-quick-view]')) startQuickView();

// Measurement (census, commerce events, web vitals, error reporter): its own chunk, after load (./measure/load.ts).
loadMeasurement(cartStore());
