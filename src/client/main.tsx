/** Browser entry: hydrate the island roots the server marked, start the cart store. Nothing else hydrates. */
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import '../ui/styles.css';
import { cartStore } from './cartStore';
import { loadMeasurement } from './measure/load';
import { ISLANDS, ISLAND_ATTRIBUTE, ISLAND_ID_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, type IslandName } from './islands';

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
  hydrateRoot(root, createElement(component, props), { identifierPrefix: `${root.getAttribute(ISLAND_ID_ATTRIBUTE) ?? ''}-` });
}

void cartStore().start(document.cookie);

// Measurement (census, commerce events, web vitals, error reporter): its own chunk, after load (./measure/load.ts).
loadMeasurement(cartStore());
