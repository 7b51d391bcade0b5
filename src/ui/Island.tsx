import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import {
  ISLANDS,
  ISLAND_ATTRIBUTE,
  ISLAND_ID_ATTRIBUTE,
  ISLAND_PROPS_ATTRIBUTE,
  type IslandName,
  type IslandProps,
} from '../client/islands';
import { LAZY_ISLAND_COMPONENTS, type LazyIslandProps } from './lazyIslands';
import { PayLaterBadge } from '../client/payLater/PayLaterBadge';
import { SubscriptionPrice } from '../client/islands/SubscriptionPrice';
import { ServerParts, type DeferredParts } from '../client/islands/deferredParts';

const SERVER_PARTS: DeferredParts = { PayLaterBadge, SubscriptionPrice };

type AnyIslandProps = IslandProps & LazyIslandProps;
const COMPONENTS: Record<keyof AnyIslandProps, ComponentType<never>> = { ...ISLANDS, ...LAZY_ISLAND_COMPONENTS };

/**
 * Server-renders an island as its own React root, inside an element that carries its name, id and JSON props;
 * src/client/main.tsx hydrates that element with the same props. Rendering it as a separate root (not as part of
 * the page tree) keeps useId values identical on both sides; the id doubles as the root's identifierPrefix so
 * two islands on one page never share ids. `display: contents` keeps the root element out of layout.
 * Lazy islands (./lazyIslands.ts) render the same way; only their browser code loads apart (src/client/islands/lazy.ts).
 */
export function Island<N extends IslandName | keyof LazyIslandProps>({
  name,
  id,
  props,
}: {
  name: N;
  id: string;
  props: AnyIslandProps[N];
}) {
  const component = COMPONENTS[name] as ComponentType<AnyIslandProps[N]>;
  // Parts whose browser code loads later are rendered whole here (../client/islands/deferredParts.tsx).
  const html = renderToString(createElement(ServerParts, { value: SERVER_PARTS }, createElement(component, props)), {
    identifierPrefix: `${id}-`,
  });
  return createElement('div', {
    className: 'island',
    [ISLAND_ATTRIBUTE]: name,
    [ISLAND_ID_ATTRIBUTE]: id,
    [ISLAND_PROPS_ATTRIBUTE]: JSON.stringify(props),
    dangerouslySetInnerHTML: { __html: html },
  });
}
