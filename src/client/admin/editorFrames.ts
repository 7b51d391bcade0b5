/**
 * The site editor's frames (/admin/pages' and /admin/design's previews; src/core/siteEditor.ts): §2 says that inside
 * the editor the cart pill sets the frame's URL instead of navigating, so the editor knows what its frame shows. The
 * editor does it from outside — it listens to clicks in each frame's page (same origin) — so no storefront page
 * carries code for it. Other editor rules (the gift card's top-window checkout, no list-page popover) are the
 * storefront's own: src/client/islands.
 */

/**
 * The editor's frames: those carrying src/core/siteEditor.ts's SITE_EDITOR_FRAME_ATTRIBUTE (editorFrames.test.ts holds
 * them equal). Written out rather than imported: a module shared with the storefront's script would become a chunk of
 * its own that every product page loads (test/integration/page-scripts.test.ts).
 */
export const EDITOR_FRAME_SELECTOR = 'iframe[data-site-editor]';

/** Takes over the cart pill's click (mouse, Enter or touch) in the page now loaded in `frame`. */
function followCartPill(frame: HTMLIFrameElement): void {
  const page = frame.contentDocument;
  if (!page) return;
  page.addEventListener('click', (event) => {
    // (The frame's nodes are its window's: `instanceof` this window's Element would be false.)
    const target = event.target as Partial<Element> | null;
    const pill = typeof target?.closest === 'function' ? target.closest<HTMLAnchorElement>('a.cart-pill') : null;
    if (!pill) return;
    event.preventDefault();
    frame.setAttribute('src', pill.getAttribute('href') ?? pill.href);
  });
}

export function startEditorFrames(doc: Document = document): void {
  for (const frame of doc.querySelectorAll<HTMLIFrameElement>(EDITOR_FRAME_SELECTOR)) {
    // Each page the frame loads gets the listener; the one already loaded (before this script ran) too.
    frame.addEventListener('load', () => followCartPill(frame));
    if (frame.contentDocument?.readyState === 'complete' && frame.contentDocument.URL !== 'about:blank')
      followCartPill(frame);
  }
}
