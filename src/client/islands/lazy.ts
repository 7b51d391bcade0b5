/**
 * Islands whose code is not in the main bundle: each is a chunk of its own, imported only on pages that carry its
 * root, and only when it is needed (its `wake`), then hydrated like the others (same props, same id prefix). The
 * server renders them statically (src/ui/Island.tsx): their HTML, a plain form, works before their code arrives.
 *
 * - RestockSignUp (the restock form of a product page, the PDP's JS budget is tight): when its form is on the page
 *   (a sold-out variant chosen at first), once the browser is idle; otherwise when the shopper chooses a sold-out
 *   variant in the buying island.
 * - AddOnButton (an add-on's compact add button on a product page): once the browser is idle, or at once when the
 *   pointer or focus reaches it.
 * - RelatedProductsTracking (the related products' §7 events, no markup of its own): when their section scrolls into
 *   view or takes focus.
 * - CartContents (the cart page's lines, only on /cart): at once.
 * - FormBlockForm (a form block; its fields, validation and CAPTCHA code are the biggest part of the islands' code):
 *   once the browser is idle, or at once when the pointer or focus reaches the form. Its fields are uncontrolled, so
 *   what was typed before the code arrived stays; a form sent before then is posted without JavaScript (it works).
 * - Gallery (a gallery block's slides, autoplay and lightbox, ./Gallery.tsx): once the browser is idle, or at once when
 *   the pointer or focus reaches it (an image link clicked before then opens the image itself).
 */
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { promoPopupDue, promoPopupStorageKey } from '../../core/promoPopup';
import { restockFormTarget, type RestockVariant } from '../../core/restockForm';
import { onVariantSelection } from '../variantSelection';
import { ISLAND_ATTRIBUTE, ISLAND_ID_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from './index';
import { whenIdle, whenReached } from './wake';

interface LazyIsland {
  load(): Promise<ComponentType<object>>;
  /** Calls `start` (once) when the island's code should load. */
  wake(root: HTMLElement, props: object, start: () => void): void;
}

export const LAZY_ISLANDS: Record<string, LazyIsland> = {
  RestockSignUp: {
    load: () => import('./RestockSignUp').then((m) => m.RestockSignUp as ComponentType<object>),
    wake(root, props, start) {
      if (root.querySelector('form, [role="status"]')) return void whenIdle(start);
      const p = props as { productId: string; productType: number; options: string[]; variants: RestockVariant[] };
      const stop = onVariantSelection(p.productId, (selection) => {
        if (
          restockFormTarget({ productType: p.productType, variantOptions: p.options, variants: p.variants }, selection)
            .kind !== 'variant'
        )
          return;
        stop();
        start();
      });
    },
  },
};

LAZY_ISLANDS.AddOnButton = {
  load: () => import('./AddOnButton').then((m) => m.AddOnButton as ComponentType<object>),
  wake(root, _props, start) {
    whenReached(root, start);
    whenIdle(start);
  },
};

LAZY_ISLANDS.RelatedProductsTracking = {
  load: () => import('./RelatedProductsTracking').then((m) => m.RelatedProductsTracking as ComponentType<object>),
  wake(root, _props, start) {
    // The root has no box (display: contents): its section is what scrolls into view.
    const section = root.closest<HTMLElement>('section') ?? root;
    whenReached(section, start);
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      start();
    });
    observer.observe(section);
  },
};

LAZY_ISLANDS.CartContents = {
  load: () => import('./CartContents').then((m) => m.CartContents as ComponentType<object>),
  wake(_root, _props, start) {
    start();
  },
};

LAZY_ISLANDS.FormBlockForm = {
  load: () => import('./FormBlockForm').then((m) => m.FormBlockForm as ComponentType<object>),
  wake(root, _props, start) {
    whenReached(root, start);
    whenIdle(start);
  },
};

LAZY_ISLANDS.Gallery = {
  load: () => import('./Gallery').then((m) => m.Gallery as ComponentType<object>),
  wake(root, _props, start) {
    whenReached(root, start);
    whenIdle(start);
  },
};

// A video block's play button and a post's like button: once the browser is idle, or at once when the pointer or
// focus reaches them (a click before then follows the link to the video's page, or posts the like form).
LAZY_ISLANDS.VideoPlayer = {
  load: () => import('./VideoPlayer').then((m) => m.VideoPlayer as ComponentType<object>),
  wake(root, _props, start) {
    whenReached(root, start);
    whenIdle(start);
  },
};

LAZY_ISLANDS.LikeButton = {
  load: () => import('./LikeButton').then((m) => m.LikeButton as ComponentType<object>),
  wake(root, _props, start) {
    whenReached(root, start);
    whenIdle(start);
  },
};

// The promo popup (./PromoPopup.tsx): its code loads only when it is due, `showAfterSeconds` after the page loaded and
// not shown in this browser within `showAgainAfterDays` (src/core/promoPopup.ts); until then the page runs nothing of it.
LAZY_ISLANDS.PromoPopup = {
  load: () => import('./PromoPopup').then((m) => m.PromoPopup as ComponentType<object>),
  wake(_root, props, start) {
    const popup = (props as { popup: { formId: string; showAfterSeconds: number; showAgainAfterDays: number } }).popup;
    let stored: string | null | undefined;
    try {
      stored = window.localStorage.getItem(promoPopupStorageKey(popup.formId));
    } catch {
      stored = undefined;
    }
    if (!promoPopupDue(stored, Date.now(), popup.showAgainAfterDays)) return;
    setTimeout(start, popup.showAfterSeconds * 1000);
  },
};

/** Wakes every lazy island root of the page. */
export function hydrateLazyIslands(): void {
  for (const root of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
    const island = LAZY_ISLANDS[root.getAttribute(ISLAND_ATTRIBUTE) ?? ''];
    if (!island) continue;
    let props: object;
    try {
      props = JSON.parse(root.getAttribute(ISLAND_PROPS_ATTRIBUTE) ?? '{}') as object;
    } catch {
      continue;
    }
    let started = false;
    island.wake(root, props, () => {
      if (started) return;
      started = true;
      island
        .load()
        .then((component) =>
          hydrateRoot(root, createElement(component, props), {
            identifierPrefix: `${root.getAttribute(ISLAND_ID_ATTRIBUTE) ?? ''}-`,
          }),
        )
        .catch(() => {
          // The form still works as a plain form (posted without JavaScript).
        });
    });
  }
}
