/**
 * Opens the quick view from a product card's 'Quick View' link (`a[data-quick-view]`, src/ui/ProductCard.tsx). The
 * link goes to the product page: without JavaScript, or before this code runs, that is what a click does. With it,
 * a click opens the dialog instead (./open.ts, loaded on that first click with the dialog's code).
 */
export function startQuickView(): void {
  document.addEventListener('click', (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-quick-view]');
    if (!link) return;
    event.preventDefault();
    // Should its code fail to load, the link still goes to the product page.
    import('./open').then(({ openQuickView }) => openQuickView(link)).catch(() => window.location.assign(link.href));
  });
}
