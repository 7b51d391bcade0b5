/**
 * `vitrine giftcards`: the merchant's view of the gift cards. `giftcards` lists them (newest first, every site unless
 * --site): last four characters of the code, initial and current balance, recipient, state and delivery date.
 * `giftcards issue --amount 25.00 --email x@y [--name N] [--message M] [--site ID]` issues one by hand and sends its
 * e-mail at once through SMTP_URL: the code is made as it is sent, printed once, and stored only hashed
 * (services/giftCardDelivery.ts). Without SMTP_URL, or when the send fails, the card waits in the outbox and its code
 * is made when the outbox sends it — a code is never kept anywhere to print later.
 */
import { linkOrigin } from '../../core/linkOrigin';
import { DEFAULT_CURRENCY, fractionDigits, parseCurrencyCode } from '../../core/currency';
import { validateEmail } from '../../core/email';
import { checkDeliveryDate } from '../../core/giftCard';
import { ok } from '../../core/result';
import { inTransaction } from '../../platform/db/transaction';
import { GIFT_MESSAGE_MAX_LENGTH, RECIPIENT_NAME_MAX_LENGTH } from './giftCardPurchase';
import { giftCardState, issueGiftCard, listGiftCards, type GiftCard } from './giftCards';
import { drainOutbox } from '../../platform/mail/outbox';
import { COMMAND_ACTOR } from '../admin';
import { disableGiftCard, findGiftCard, shownCode } from './ownerGiftCards';
import { smtpTransport } from '../../platform/mail/transport';
import { defineCommand, UsageError, UserError, type Command } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { formatStoredMoney as money } from '../../core/money';
import { siteFor } from '../site';
import { formatTable, printable } from '../../platform/cli/table';

/** The largest card issued by hand, in major units (a typo of 250000 for 25.00 must not become a card). */
const MAX_AMOUNT = 10_000;

const listCommand = defineCommand({
  name: 'giftcards',
  options: {
    site: { type: 'string', value: 'ID', description: 'only the gift cards of this site' },
    limit: { type: 'integer', min: 1, max: 10_000, default: 50, description: 'at most this many gift cards' },
  },
  async run({ options }, io) {
    const { site: siteId, limit } = options;
    return withDatabase(loadSettings(), io, async (handle) => {
      if (siteId !== undefined) await siteFor(handle, siteId);
      const cards = await listGiftCards(handle.db, { limit, ...(siteId !== undefined ? { siteId } : {}) });
      if (cards.length === 0) {
        io.out('No gift cards yet.');
        return 0;
      }
      const now = new Date();
      const table = formatTable(
        [
          { header: 'CODE' },
          { header: 'INITIAL', align: 'right' },
          { header: 'BALANCE', align: 'right' },
          { header: 'RECIPIENT', maxWidth: 40 },
          { header: 'STATE' },
          { header: 'DELIVERY' },
          { header: 'SITE' },
        ],
        cards.map((c: GiftCard) => [
          c.lastFour === null ? '(not sent)' : `…${c.lastFour}`,
          money(c.currency, c.initialBalanceCents),
          money(c.currency, c.balanceCents),
          c.recipientName ? `${c.recipientName} <${c.recipientEmail}>` : c.recipientEmail,
          giftCardState(c, now),
          c.deliveryDate,
          c.websiteId,
        ]),
      );
      for (const line of table) io.out(line);
      if (cards.length === limit) io.out(`(the newest ${limit}; --limit N shows more)`);
      return 0;
    });
  },
});

/** '25', '25.5' or '25.00' in the currency's major units → minor units; NaN for anything else. */
function amountOf(text: string, currency: string): number {
  const digits = fractionDigits(parseCurrencyCode(currency) ?? DEFAULT_CURRENCY);
  const pattern = digits === 0 ? /^(\d{1,7})$/ : /^(\d{1,7})(?:\.(\d{1,2}))?$/;
  const m = pattern.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * 10 ** digits + (digits === 0 ? 0 : Number((m[2] ?? '').padEnd(2, '0')));
}

const issueCommand = defineCommand({
  name: 'giftcards issue',
  options: {
    amount: {
      type: 'string',
      value: '25.00',
      description: `the card's amount in the site's currency (above 0, at most ${MAX_AMOUNT})`,
    },
    email: { type: 'string', value: 'E', description: "the recipient's e-mail address" },
    name: { type: 'string', value: 'N', description: "the recipient's name" },
    message: { type: 'string', value: 'M', description: 'a message for the recipient' },
    site: { type: 'string', value: 'ID', description: 'the site (default: the default one)' },
  },
  details: [
    "The card's e-mail is sent at once through SMTP_URL and its code printed once (it is stored only hashed). Without SMTP_URL the card waits in the outbox, and its code is made when the outbox sends it.",
  ],
  async run({ options }, io) {
    const rawAmount = options.amount;
    if (rawAmount === undefined)
      throw new UsageError(
        "'giftcards issue' needs the amount: vitrine giftcards issue --amount 25.00 --email someone@example.com",
      );
    const rawEmail = options.email;
    if (rawEmail === undefined)
      throw new UsageError("'giftcards issue' needs the recipient's e-mail: --email someone@example.com");
    const email = validateEmail(rawEmail);
    if (!email.ok) throw new UsageError(`option '--email' must be an e-mail address, not '${printable(rawEmail)}'`);
    const name = (options.name ?? '').trim();
    if (name.length > RECIPIENT_NAME_MAX_LENGTH)
      throw new UsageError(`option '--name' must be at most ${RECIPIENT_NAME_MAX_LENGTH} characters`);
    const message = options.message ?? '';
    if (message.length > GIFT_MESSAGE_MAX_LENGTH)
      throw new UsageError(`option '--message' must be at most ${GIFT_MESSAGE_MAX_LENGTH} characters`);
    // The amount's form is checked before the database is opened; its currency's digits once the site is known.
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(rawAmount) || Number(rawAmount) <= 0 || Number(rawAmount) > MAX_AMOUNT) {
      throw new UsageError(
        `option '--amount' must be an amount above 0 and at most ${MAX_AMOUNT}, like 25.00, not '${printable(rawAmount)}'`,
      );
    }

    const config = loadSettings();
    return withDatabase(config, io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const amountCents = amountOf(rawAmount, site.currency);
      if (!(amountCents > 0))
        throw new UsageError(
          `option '--amount' must be a whole amount in ${site.currency}, not '${printable(rawAmount)}'`,
        );
      const now = new Date();
      const delivery = checkDeliveryDate('', site.settings.timeZone, now);
      if (!delivery.ok) throw new UserError(delivery.error);
      const issued = await inTransaction(handle.db, async (trx) =>
        ok(
          await issueGiftCard(trx, site, {
            amountCents,
            recipientName: name,
            recipientEmail: email.value,
            message,
            purchaserEmail: null,
            orderId: null,
            delivery: delivery.value,
            shopUrl: `${linkOrigin(site.domains, '', '', config.publicUrl)}/`,
            now,
          }),
        ),
      );
      if (!issued.ok) throw new UserError('the gift card could not be issued');
      const { card, messageId } = issued.value;
      io.out(
        `Issued a ${money(card.currency, card.initialBalanceCents)} gift card for ${printable(email.value)} on site '${printable(site.id)}'.`,
      );
      if (config.smtpUrl === undefined) {
        io.out(
          'Its code will be made and e-mailed to the recipient when the outbox sends it (SMTP_URL is not set here:',
        );
        io.out(
          "'vitrine outbox send' or 'vitrine serve' with SMTP_URL sends it). The code is never stored, so it is not shown.",
        );
        return 0;
      }
      // Sent now, through the outbox's own sender: the code exists only in this process and the SMTP conversation.
      let code: string | undefined;
      const sent = await drainOutbox(handle.db, smtpTransport(config.smtpUrl, config.mailFrom), {
        onlyIds: [messageId],
        includeWaiting: true,
        onSent: (id, made) => {
          if (id === messageId) code = made;
        },
      });
      if (code === undefined) {
        const why = sent.errors[0]?.error ?? 'not sent';
        io.err(
          `vitrine: the gift card's e-mail was not sent (${printable(why)}); the outbox retries it, with a new code made then.`,
        );
        return 1;
      }
      io.out(`Code: ${code}`);
      io.out('The code is shown only now (it is stored hashed); it was e-mailed to the recipient.');
      return 0;
    });
  },
});

const disableCommand = defineCommand({
  name: 'giftcards disable',
  positionals: [
    {
      name: 'CARD',
      what: 'gift card',
      needs: "the gift card's id, code or code's last four",
      dashValue: /^[A-Za-z0-9_-]{22}$/,
    },
  ],
  options: {
    site: { type: 'string', value: 'ID', description: 'the site (default: the default one)' },
  },
  details: [
    "A disabled card is refused at checkout ('This gift card code is not valid…'); one not sent yet is never sent.",
  ],
  async run({ options, positionals }, io) {
    const named = (positionals[0] as string).trim();
    if (named === '' || named.length > 64)
      throw new UsageError(
        `a gift card is named by its id, its code or its code's last four, not '${printable(named)}'`,
      );
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const found = await findGiftCard(handle.db, site.id, named);
      if (!found.ok) throw new UserError(found.error.message);
      const done = await disableGiftCard(handle.db, site.id, found.value.id, COMMAND_ACTOR);
      if (!done.ok) throw new UserError(done.error.message);
      io.out(
        `Disabled the gift card ${shownCode(done.value)} (balance ${money(done.value.currency, done.value.balanceCents)}): it can no longer be used at checkout.`,
      );
      return 0;
    });
  },
});

export const commands: readonly Command[] = [listCommand, issueCommand, disableCommand];
