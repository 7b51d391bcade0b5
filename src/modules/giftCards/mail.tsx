/**
 * The gift card's e-mail to its recipient: the amount, the code (the only place it is ever written, besides the
 * `vitrine giftcards issue` output), who sent it and their message, and where to spend it. Its outbox kind makes the
 * code just before the send (services/giftCardDelivery.ts): the stored e-mail holds a placeholder until then.
 */
import { ok } from '../../core/result';
import { Heading, Lines, Link, Paragraph, Quote, Together } from '../../platform/mail/blocks';
import type { MailKind } from '../../platform/mail/kinds';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, withText, type RenderedEmail } from '../../platform/mail/render';
import { MUTED } from '../../platform/mail/styles';
import { confirmGiftCardMessage, GIFT_CARD_MAIL_KIND, prepareGiftCardMessage } from './giftCardDelivery';

export interface GiftCardEmailInput {
  siteTitle: string;
  /** The shop's address, where the card is spent (absolute URL). */
  shopUrl: string;
  /** The formatted amount, e.g. '$50.00'. */
  amount: string;
  /** The code as it is read: '7KQM-2XHD-…'. */
  code: string;
  recipientName: string;
  /** Who it is from: the buyer's e-mail address, or '' (issued by the shop). */
  from: string;
  message: string;
}

/** The code, large and spaced: 'Your gift card code: …' on one line in the text part. */
const Code = withText(
  ({ code }: { code: string }) => (
    <>
      <Paragraph style={{ margin: '0 0 8px' }}>Your gift card code:</Paragraph>
      <Paragraph style={{ fontFamily: 'monospace', fontSize: '22px', letterSpacing: '2px' }}>
        <strong data-gift-card-code="">{code}</strong>
      </Paragraph>
    </>
  ),
  ({ code }) => `Your gift card code: ${code}`,
);

function GiftCard({ input, subject }: { input: GiftCardEmailInput; subject: string }) {
  const siteTitle = oneLine(input.siteTitle);
  const greeting = input.recipientName.trim() === '' ? 'Hello,' : `Hello ${oneLine(input.recipientName)},`;
  const sender = input.from.trim() === '' ? siteTitle : oneLine(input.from);
  const message = input.message.trim();
  return (
    <Layout shopName={siteTitle} subject={subject}>
      <Heading>
        A {input.amount} gift card for {siteTitle}
      </Heading>
      <Paragraph>{greeting}</Paragraph>
      <Paragraph>
        {sender} sent you a {input.amount} gift card for {siteTitle}.
      </Paragraph>
      {message !== '' && (
        <Quote text={`Their message:\n${message}`}>
          <Lines text={message} />
        </Quote>
      )}
      <Code code={input.code} />
      <Together>
        <Paragraph>
          Enter it at checkout in the &quot;Gift card&quot; field: <Link href={input.shopUrl}>{input.shopUrl}</Link>
        </Paragraph>
        <Paragraph style={{ color: MUTED }}>Keep this code safe: anyone who has it can spend the card.</Paragraph>
      </Together>
    </Layout>
  );
}

export function giftCardEmail(input: GiftCardEmailInput): RenderedEmail {
  const subject = `Your ${input.amount} gift card for ${oneLine(input.siteTitle)}`;
  return renderMail(subject, <GiftCard input={input} subject={subject} />);
}

/** The gift card's kind of mail: its code is made just before the send, and the card activated once it is accepted. */
export const giftCardMailKinds: readonly MailKind[] = [
  {
    kind: GIFT_CARD_MAIL_KIND,
    async prepare(db, message, now) {
      const prepared = await prepareGiftCardMessage(db, message, now);
      if (!prepared.ok) return prepared;
      const made = prepared.value;
      return ok({
        text: made.text,
        html: made.html,
        detail: made.code,
        confirm: (trx, at) => confirmGiftCardMessage(trx, message.id, made, at),
      });
    },
  },
];
