/**
 * The modules' kinds of mail, registered with the outbox (src/platform/mail/kinds.ts) by every entry point that sends
 * or shows mail: the server (buildApp) and the CLI (runCli). The outbox imports no module; this list is where a new
 * module's kind of mail is added. Only kinds that are not sent as stored need an entry (see kinds.ts).
 */
import { registerMailKinds } from '../platform/mail/kinds';
import { giftCardMailKinds } from './giftCards/mail';
import { orderMailKinds } from './orders/mail';

export const MODULE_MAIL_KINDS = [...orderMailKinds, ...giftCardMailKinds];

/** Registers every module's kinds of mail (again is a no-op). */
export function registerModuleMailKinds(): void {
  registerMailKinds(MODULE_MAIL_KINDS);
}
