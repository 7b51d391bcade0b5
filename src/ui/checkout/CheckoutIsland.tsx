import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import {
  CHECKOUT_ISLAND_ATTRIBUTE,
  CHECKOUT_ISLAND_ID_ATTRIBUTE,
  CHECKOUT_ISLAND_PROPS_ATTRIBUTE,
  CHECKOUT_ISLANDS,
  type CheckoutIslandName,
  type CheckoutIslandProps,
} from '../../client/checkout/index';

/**
 * Server-renders a checkout island as its own React root, as src/ui/Island.tsx does for the other islands, but from
 * the checkout's own registry and with its own marker: src/client/checkout.tsx hydrates it, src/client/main.tsx
 * (every page's entry) never sees it, so its code stays out of every other page's bundle.
 */
export function CheckoutIsland<N extends CheckoutIslandName>({
  name,
  id,
  props,
}: {
  name: N;
  id: string;
  props: CheckoutIslandProps[N];
}) {
  const component = CHECKOUT_ISLANDS[name] as ComponentType<CheckoutIslandProps[N]>;
  const html = renderToString(createElement(component, props), { identifierPrefix: `${id}-` });
  return createElement('div', {
    className: 'island',
    [CHECKOUT_ISLAND_ATTRIBUTE]: name,
    [CHECKOUT_ISLAND_ID_ATTRIBUTE]: id,
    [CHECKOUT_ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props),
    dangerouslySetInnerHTML: { __html: html },
  });
}
