/**
 * Delivering a gift card: the code is made when its e-mail is sent, never before, and never stored.
 *
 * Buying (or `vitrine giftcards issue`) writes the card 'scheduled', with no code, and an outbox message whose stored
 * body holds CODE_PLACEHOLDER where the code goes. When the outbox drain (the one sender: the `outbox` job of
 * `vitrine serve`, `vitrine outbox send`) claims that message on the delivery date, the gift-card kind of mail
 * (src/modules/giftCards/mail.tsx, registered with the outbox at startup) calls prepareGiftCardMessage: it makes a
 * new random code, stores only its sha256 and last four on the card, and gives the drain the real text to hand to
 * SMTP — the code lives in this process's memory and in the SMTP conversation only. Once the server accepted it,
 * confirmGiftCardMessage, in one transaction, activates the card (only an active card pays) and marks the message
 * sent with its stored body naming the card as '•••• ABCD'.
 *
 * Crashes and failures: a code counts only once its send is confirmed, and a send that is not confirmed is never
 * reused, since no one can have relied on it — the next attempt makes a new code, whose hash replaces the old one:
 *   - the process dies after storing a code's hash but before or while sending: the card stays 'scheduled' (that code
 *     pays nothing) and the message pending; when the lease ends, the next drain makes a new code and sends it.
 *   - the SMTP server accepted the message but the process died before confirming: the recipient may get that e-mail,
 *     whose code never became active, and then the next drain's e-mail with a new code, which is the one that works.
 *     So a card always ends with exactly one valid code, the one of the last e-mail sent, and never with none while
 *     its message can still be sent.
 *   - the send fails: the drain records the failure and retries later, with a new code.
 * The outbox's lease keeps two drains off one message; the conditional updates below (on codes_made and code_hash)
 * keep a drain whose lease ran out from overwriting another's code.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  formatGiftCardCode,
  GIFT_CARD_CODE_LENGTH,
  giftCardCodeFromBytes,
  giftCardLastFour,
  maskedGiftCard,
  normalizeGiftCardCode,
} from '../../core/giftCard';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';

type Db = Kysely<Database>;

/** The outbox kind of a gift card's e-mail. */
export const GIFT_CARD_MAIL_KIND = 'gift-card';

/** Where the code goes in the stored body of a gift card's e-mail until it is sent. */
export const CODE_PLACEHOLDER = '••••-••••-••••-••••';

/** sha256 (hex) of the normalized code: what the database holds instead of the code. */
export const hashGiftCardCode = (code: string): string =>
  createHash('sha256').update(normalizeGiftCardCode(code), 'utf8').digest('hex');

/** A new random code (normalized; formatGiftCardCode groups it for reading). */
export const newGiftCardCode = (): string => giftCardCodeFromBytes(randomBytes(GIFT_CARD_CODE_LENGTH));

/**
 * The body with its last placeholder replaced: the code line comes after everything a shopper typed (the gift
 * message), so a message that happens to contain the placeholder's text is left as it is.
 */
function fillCode(body: string, value: string): string {
  const at = body.lastIndexOf(CODE_PLACEHOLDER);
  return at < 0 ? body : body.slice(0, at) + value + body.slice(at + CODE_PLACEHOLDER.length);
}

export interface PreparedGiftCardMessage {
  cardId: string;
  /** The code, formatted: for the SMTP conversation (and `vitrine giftcards issue`'s output) only. */
  code: string;
  codeHash: string;
  /** What to send. */
  text: string;
  html: string;
  /** What the outbox keeps once it is sent: the card named by its last four. */
  storedText: string;
  storedHtml: string;
}

/**
 * For a claimed gift-card message: makes the card's code (replacing any code of an unconfirmed send) and answers what
 * to send. An error is a message that must not be sent: 'gone' (no such card, or it was disabled — its order was
 * refunded) or 'busy' (another sender made a code meanwhile: leave the message to it).
 */
export async function prepareGiftCardMessage(
  db: Db,
  message: { id: string; text: string; html: string },
  now: Date,
): Promise<Result<PreparedGiftCardMessage, { reason: 'gone' | 'busy'; message: string }>> {
  const card = await db
    .selectFrom('gift_cards')
    .select(['id', 'status', 'codes_made'])
    .where('outbox_id', '=', message.id)
    .executeTakeFirst();
  if (!card || card.status !== 'scheduled')
    return err({ reason: 'gone', message: 'the gift card was disabled (or removed) before its e-mail was sent' });
  for (;;) {
    const code = newGiftCardCode();
    const codeHash = hashGiftCardCode(code);
    // 80 random bits: another card of the site with the same hash is not a case to plan for, but must not throw.
    const clash = await db.selectFrom('gift_cards').select('id').where('code_hash', '=', codeHash).executeTakeFirst();
    if (clash) continue;
    const made = await db
      .updateTable('gift_cards')
      .set({
        code_hash: codeHash,
        last_four: giftCardLastFour(code),
        codes_made: card.codes_made + 1,
        updated_at: now.toISOString(),
      })
      .where('id', '=', card.id)
      .where('status', '=', 'scheduled')
      .where('codes_made', '=', card.codes_made)
      .executeTakeFirst();
    if (Number(made.numUpdatedRows) === 0)
      return err({ reason: 'busy', message: 'another sender is delivering this gift card' });
    const formatted = formatGiftCardCode(code);
    const masked = maskedGiftCard(giftCardLastFour(code));
    return ok({
      cardId: card.id,
      code: formatted,
      codeHash,
      text: fillCode(message.text, formatted),
      html: fillCode(message.html, formatted),
      storedText: fillCode(message.text, masked),
      storedHtml: fillCode(message.html, masked),
    });
  }
}

/**
 * After the SMTP server accepted the message, inside the transaction that marks it sent: the card becomes active
 * (with this code, if it is still the card's code) and the stored body keeps only the masked form.
 */
export async function confirmGiftCardMessage(
  trx: Db,
  messageId: string,
  prepared: PreparedGiftCardMessage,
  now: Date,
): Promise<void> {
  const time = now.toISOString();
  await trx
    .updateTable('gift_cards')
    .set({ status: 'active', delivered_at: time, updated_at: time })
    .where('id', '=', prepared.cardId)
    .where('status', '=', 'scheduled')
    .where('code_hash', '=', prepared.codeHash)
    .execute();
  await trx
    .updateTable('outbox')
    .set({ text_body: prepared.storedText, html_body: prepared.storedHtml })
    .where('id', '=', messageId)
    .execute();
}
