/**
 * The promo popup (spec §2 popup overlay): a modal <dialog> holding one of the site's forms, usually a newsletter
 * sign-up. A lazy island (./lazy.ts): the server renders nothing visible (the root is empty, so no layout shift), and
 * its code loads only once the popup is due (src/core/promoPopup.ts: `showAfterSeconds` after the page loads, at most
 * once per `showAgainAfterDays`), so it never delays the page. When it opens it remembers that in localStorage and
 * fires `vitrine:overlay`, which the census turns into POST /api/census/overlay (src/client/measure/census.ts).
 *
 * Focus moves into the dialog (its first field) and stays there; Escape, the close button or a click outside close
 * it, and focus goes back to where it was (./useModalDialog.ts). Its form is the form block's (same states and texts),
 * sent with §7's PROMO_POPUP_SUBMISSION CAPTCHA action. The fade-in runs only without prefers-reduced-motion (CSS).
 */
import { reportCensusEvent } from '../track';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { promoPopupStorageKey } from '../../core/promoPopup';
import type { PromoPopup as PromoPopupSettings } from '../../modules/site/schema';
import { FormBlockForm, type FormBlockFormProps } from './FormBlockForm';
import { useModalDialog } from './useModalDialog';
import { DialogCloseButton } from './DialogCloseButton';

/** The event the census listens for (an overlay was shown). */
export const OVERLAY_EVENT = 'vitrine:overlay' as const;

export interface PromoPopupProps {
  popup: Pick<PromoPopupSettings, 'formId' | 'title' | 'showAfterSeconds' | 'showAgainAfterDays'> & {
    text: string | null;
  };
  form: FormBlockFormProps['form'];
  captcha: FormBlockFormProps['captcha'];
  selectValueLabel: string;
}

/** Calls `changed` whenever a dialog of the page opens or closes (or comes and goes). */
const watchDialogs = (changed: () => void) => {
  const observer = new MutationObserver(changed);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
  return () => observer.disconnect();
};
const noDialogOpen = () => document.querySelector('dialog[open]') === null;

export function PromoPopup(props: PromoPopupProps) {
  // Hydrated only when due (./lazy.ts), so it opens as soon as it is in the browser (the server rendered nothing) and
  // no other dialog is open: a visitor in a quick view or an alert gets the popup once they closed it, not on top.
  const free = useSyncExternalStore(watchDialogs, noDialogOpen, () => false);
  const [opened, setOpened] = useState(false);
  const [closed, setClosed] = useState(false);
  if (free && !opened) setOpened(true);
  return opened && !closed ? <PromoPopupDialog {...props} onClose={() => setClosed(true)} /> : null;
}

function PromoPopupDialog({
  popup,
  form,
  captcha,
  selectValueLabel,
  onClose,
}: PromoPopupProps & { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  // Shown: remember it (not again for showAgainAfterDays) and tell the census.
  useEffect(() => {
    try {
      window.localStorage.setItem(promoPopupStorageKey(popup.formId), String(Date.now()));
    } catch {
      // Without storage the popup would not have been woken (src/core/promoPopup.ts).
    }
    reportCensusEvent(OVERLAY_EVENT);
  }, [popup.formId]);
  // Its first field: the close button comes first in the dialog, but the visitor came for the form.
  useModalDialog(ref, '.form-block input:not([type="hidden"]), .form-block select, .form-block textarea', onClose);
  return (
    <dialog
      ref={ref}
      className="promo-popup"
      aria-labelledby={titleId}
      aria-describedby={popup.text ? textId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="promo-popup__box">
        <DialogCloseButton className="promo-popup__close" label="Close" onClose={onClose} />
        <h2 id={titleId} className="promo-popup__title">
          {popup.title}
        </h2>
        {popup.text ? (
          <p id={textId} className="promo-popup__text">
            {popup.text}
          </p>
        ) : null}
        <FormBlockForm
          form={form}
          captcha={captcha}
          selectValueLabel={selectValueLabel}
          initial={null}
          placement="promoPopup"
          idPrefix={`popup-${form.id}`}
        />
      </div>
    </dialog>
  );
}
