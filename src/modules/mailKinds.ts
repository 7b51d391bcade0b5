/**
 * The modules' kinds of mail, registered with the outbox (src/platform/mail/kinds.ts) by every entry point that sends
 * or shows mail: the server (buildApp) and the CLI (every command that opens the database). The outbox imports no
 * module; this list is where a new module's kind of mail is added. Only kinds that are not sent as stored need an entry
 * (see kinds.ts). Each module's mail code is loaded when the outbox first meets one of its messages, so a command that
 * never does (an import, a report) does not load React and the modules' services for it.
 */
import { lazyMailKinds, registerMailKinds } from '../platform/mail/kinds';

export const MODULE_MAIL_KINDS = [
  ...lazyMailKinds(['order-confirmation', 'new-order'], async () => (await import('./orders/mail')).orderMailKinds),
  ...lazyMailKinds(['gift-card'], async () => (await import('./giftCards/mail')).giftCardMailKinds),
];

/** Registers every module's kinds of mail (again is a no-op). */
export function registerModuleMailKinds(): void {
  registerMailKinds(MODULE_MAIL_KINDS);
}
