import { useId, useRef } from 'react';
import { payLaterInfoLanguage } from '../../core/payLater';
import { useModalDialog } from '../islands/useModalDialog';
import { PAY_LATER_INFO } from './payLaterInfo';
import { DialogCloseButton } from '../islands/DialogCloseButton';

/**
 * The pay-later information popup (§4): a modal <dialog> (focus moves in and stays inside; the page behind is inert)
 * that closes on its close button, Escape, or a click outside its box; focus then returns to the badge or info
 * button that opened it. Loaded when first opened (./PayLaterBadge.tsx).
 */
export default function PayLaterInfoDialog({
  brand,
  shopperLanguage,
  onClose,
}: {
  brand: string;
  shopperLanguage: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const language = payLaterInfoLanguage(shopperLanguage);
  const info = PAY_LATER_INFO[language];
  useModalDialog(ref, '.pay-later-info__close', onClose);

  return (
    <dialog
      ref={ref}
      className="pay-later-info"
      aria-labelledby={titleId}
      lang={language}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="pay-later-info__box">
        <DialogCloseButton className="pay-later-info__close" label={info.close} onClose={onClose} />
        <h2 id={titleId} className="pay-later-info__title">
          {info.title(brand)}
        </h2>
        <ol className="pay-later-info__steps">
          {info.steps.map((step, i) => (
            <li key={i}>{step(brand)}</li>
          ))}
        </ol>
        <p className="pay-later-info__note">{info.note(brand)}</p>
      </div>
    </dialog>
  );
}
