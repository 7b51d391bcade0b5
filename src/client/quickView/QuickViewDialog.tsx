import { useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../islands/useModalDialog';
import { ProductPurchase } from '../islands/ProductPurchase';
import { readProductPage, type QuickViewProduct } from './readProductPage';
import { DialogCloseButton } from '../islands/DialogCloseButton';

/** What the dialog says while the product loads, and when it cannot. */
export const QUICK_VIEW_TEXTS = {
  loading: 'Loading…',
  failed: 'This product could not be shown here.',
  details: 'View full details',
  close: 'Close',
} as const;

/**
 * The quick view (§2, §3): the product of a grid card in a modal dialog — its image, name, price block, variant
 * selectors, quantity and add button (the product page's own buying island, its add events marked isQuickView).
 * Focus moves in and stays inside; Escape, the close button or a click outside close it, and focus returns to the
 * card's Quick View link. On failure it offers the product page.
 */
export function QuickViewDialog({ url, label, onClose }: { url: string; label: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const imageSlot = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const [product, setProduct] = useState<QuickViewProduct | null>(null);
  const [failed, setFailed] = useState(false);
  useModalDialog(ref, '.quick-view__close', onClose);

  useEffect(() => {
    const abort = new AbortController();
    readProductPage(url, abort.signal).then(setProduct, (error: unknown) => {
      if (abort.signal.aborted) return;
      setFailed(true);
      // A page that cannot be read is worth knowing about: the reporter sends it (it is caught here, not thrown).
      if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
    });
    return () => abort.abort();
  }, [url]);

  useEffect(() => {
    const slot = imageSlot.current;
    if (!slot || !product?.image) return;
    const image = product.image.cloneNode(false) as HTMLImageElement;
    image.loading = 'eager';
    image.sizes = '(min-width: 700px) 320px, 90vw';
    slot.replaceChildren(image);
  }, [product]);

  return (
    <dialog
      ref={ref}
      className="quick-view"
      aria-labelledby={titleId}
      aria-busy={product === null && !failed}
      onCancel={(e) => {
        // React passes a dialog's cancel on to the dialogs around it: Escape in the buying part's alert (or its form or
        // pay-later dialog) closes that one only.
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
    >
      <div className="quick-view__box">
        <DialogCloseButton className="quick-view__close" label={QUICK_VIEW_TEXTS.close} onClose={onClose} />
        {product ? (
          <div className="quick-view__grid">
            <div className="quick-view__image" ref={imageSlot} />
            <div className="quick-view__info">
              <h2 id={titleId} className="quick-view__name">
                {product.name}
              </h2>
              <ProductPurchase {...product.purchase} isQuickView />
              <a className="quick-view__details" href={product.url}>
                {QUICK_VIEW_TEXTS.details}
              </a>
            </div>
          </div>
        ) : (
          <div className="quick-view__status">
            <h2 id={titleId} className="quick-view__name">
              {label}
            </h2>
            <p role="status">{failed ? QUICK_VIEW_TEXTS.failed : QUICK_VIEW_TEXTS.loading}</p>
            {failed ? (
              <a className="quick-view__details" href={url}>
                {QUICK_VIEW_TEXTS.details}
              </a>
            ) : null}
          </div>
        )}
      </div>
    </dialog>
  );
}
