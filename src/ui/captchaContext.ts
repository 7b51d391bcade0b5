/**
 * The site's CAPTCHA, for the forms of the page being rendered (the form block, and any form island that asks for a
 * CAPTCHA): its `captcha` settings and, in tests only, the third-party scripts served by a local stand-in.
 * src/render/renderPath.tsx provides it; without it a form gets ALTCHA, the default.
 */
import { createContext, useContext } from 'react';
import {
  captchaClientSettings,
  type CaptchaClientSettings,
  type CaptchaProvider,
  type CaptchaScriptUrls,
} from '../core/forms/captcha';

export interface SiteCaptcha {
  settings: { provider?: CaptchaProvider | undefined; siteKey?: string | undefined } | undefined;
  scriptUrls: CaptchaScriptUrls;
}

export const CaptchaContext = createContext<SiteCaptcha>({ settings: undefined, scriptUrls: {} });

/** What the browser needs for a form of `kind` (its §7 action) on this site; null when the site's provider is none. */
export function useFormCaptcha(kind: string): CaptchaClientSettings | null {
  const { settings, scriptUrls } = useContext(CaptchaContext);
  return captchaClientSettings(settings, kind, scriptUrls);
}
