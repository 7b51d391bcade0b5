import type { Form, PromoPopup as PromoPopupSettings } from '../modules/site/schema';
import { useFormCaptcha } from './captchaContext';
import { formIslandProps } from './FormBlock';
import { Island } from './Island';

/** The promo popup of a site, as the page chrome carries it (src/render/siteData.ts): its settings and its form. */
export interface PromoPopupChrome {
  popup: PromoPopupSettings;
  form: Form;
  selectValueLabel: string;
}

/**
 * Mounts the promo popup's lazy island (src/client/islands/PromoPopup.tsx) on a page that may show it. The server
 * renders an empty root (`display: contents`, nothing to lay out); the browser loads its code only when it is due.
 * Its CAPTCHA, when the form asks for one, is the site's with §7's PROMO_POPUP_SUBMISSION action.
 */
export function PromoPopupMount({ chrome }: { chrome: PromoPopupChrome }) {
  const { popup, form } = chrome;
  const captcha = useFormCaptcha('promoPopup');
  return (
    <Island
      name="PromoPopup"
      id="promo-popup"
      props={{
        popup: {
          formId: popup.formId,
          title: popup.title,
          text: popup.text ?? null,
          showAfterSeconds: popup.showAfterSeconds,
          showAgainAfterDays: popup.showAgainAfterDays,
        },
        form: formIslandProps(form),
        captcha: form.captcha ? captcha : null,
        selectValueLabel: chrome.selectValueLabel,
      }}
    />
  );
}
