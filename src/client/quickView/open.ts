/**
 * Opens the quick view for a product card's link (./index.ts hears the click): RecordQuickView (§7, through the
 * census: `vitrine:quick-view`), then the dialog, whose code loads with this module on the first click. One dialog
 * at a time; focus returns to the link when it closes.
 */
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { reportCensusEvent } from '../track';

let open: { root: Root; host: HTMLElement } | null = null;

function close(): void {
  if (!open) return;
  const { root, host } = open;
  open = null;
  root.unmount();
  host.remove();
}

export async function openQuickView(link: HTMLAnchorElement): Promise<void> {
  const itemId = link.dataset.quickView ?? '';
  reportCensusEvent('vitrine:quick-view', { itemId });
  const label = link.dataset.quickViewLabel ?? link.textContent ?? '';
  const { QuickViewDialog } = await import('./QuickViewDialog');
  close();
  const host = document.createElement('div');
  host.className = 'quick-view-host';
  document.body.append(host);
  const root = createRoot(host, { identifierPrefix: `quick-view-${itemId}-` });
  open = { root, host };
  // Focus returns to the link: it had focus (or was clicked) when the dialog opened.
  link.focus();
  root.render(createElement(QuickViewDialog, { url: link.href, label, onClose: close }));
}
