/**
 * The checkout page's browser entry: hydrates the checkout island roots and nothing else (no cart store, no other
 * island: the header's cart pill stays as the server rendered it, hidden). A second Vite entry, so this code loads only on /checkout.
 */
// First: errors from here on (hydration included) reach the error reporter (./measure/catchErrors.ts).
import './measure/catchErrors';
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import '../ui/styles.css';
import {
  CHECKOUT_ISLAND_ATTRIBUTE,
  CHECKOUT_ISLAND_ID_ATTRIBUTE,
  CHECKOUT_ISLAND_PROPS_ATTRIBUTE,
  CHECKOUT_ISLANDS,
  type CheckoutIslandName,
} from './checkout/index';
import { followErrors } from './checkout/followErrors';
import { loadMeasurement } from './measure/load';

for (const root of document.querySelectorAll<HTMLElement>(`[${CHECKOUT_ISLAND_ATTRIBUTE}]`)) {
  const name = root.getAttribute(CHECKOUT_ISLAND_ATTRIBUTE) as CheckoutIslandName;
  if (!Object.hasOwn(CHECKOUT_ISLANDS, name)) continue;
  const component = CHECKOUT_ISLANDS[name] as ComponentType<object>;
  let props: object;
  try {
    props = JSON.parse(root.getAttribute(CHECKOUT_ISLAND_PROPS_ATTRIBUTE) ?? '{}') as object;
  } catch {
    continue;
  }
  hydrateRoot(root, createElement(component, props), {
    identifierPrefix: `${root.getAttribute(CHECKOUT_ISLAND_ID_ATTRIBUTE) ?? ''}-`,
  });
}

// Server-rendered forms whose messages follow the shopper's fixes (the gift-card checkout).
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-follow-errors]')) followErrors(form);

// Measurement (census, the purchase event, web vitals, error reporter): its own chunk, after load (./measure/load.ts).
loadMeasurement();
