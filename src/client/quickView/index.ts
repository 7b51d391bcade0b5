/**
 * Opens the quick view from a product card's 'Quick View' link (`a[data-quick-view]`, src/ui/ProductCard.tsx). The
 * link goes to the product page: without JavaScript, or before this code runs, that is what a click does. With it,
 * a click opens the dialog instead, sends RecordQuickView (§7, through the census: `vitrine:quick-view`), and the
 * dialog's code loads on that first click. One dialog at a time.
 */
import { reportCensusEvent } from '../track';
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

let open: { root: Root; host: HTMLElement } | null = null;

function close(): void {
  if (!open) return;
  const { root, host } = open;
  open = null;
  root.unmount();
  host.remove();
}

export function startQuickView(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-quick-view]');
    if (!link) return;
    event.preventDefault();
    const itemId = link.dataset.quickView ?? '';
    reportCensusEvent('vitrine:quick-view', { itemId });
    const label = link.dataset.quickViewLabel ?? link.textContent ?? '';
    void import('./QuickViewDialog').then(({ QuickViewDialog }) => {
      close();
      const host = document.createElement('div');
      host.className = 'quick-view-host';
      document.body.append(host);
      const root = createRoot(host, { identifierPrefix: `quick-view-${itemId}-` });
      open = { root, host };
      // Focus returns to the link: it had focus (or was clicked) when the dialog opened.
      link.focus();
      root.render(createElement(QuickViewDialog, { url: link.href, label, onClose: close }));
    });
  });
}
