/**
 * Form blocks and the newsletter: submission keys, CAPTCHA (./captcha), submissions and their e-mails, `vitrine submissions`.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export {
  captchaProviderOf,
  captchaVerifier,
  verifyCaptcha,
  type CaptchaEnv,
  type CaptchaVerifier,
  type CaptchaVisitor,
} from './captcha';
export { signUp } from './newsletter';
export { formPages } from './pages';
export type { FormRouteOptions } from './formRequests';
