/**
 * The restock e-mail: the product is back, its link, first come first served, and the link that removes the sign-up.
 * Names come from the site file; the subject is kept to one line.
 */
import { Link, Paragraph } from '../../platform/mail/blocks';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, type RenderedEmail } from '../../platform/mail/render';

export interface RestockEmailInput {
  siteTitle: string;
  productName: string;
  /** The variant's option values, or null for a product without options. */
  variantLabel: string | null;
  productUrl: string;
  unsubscribeUrl: string;
}

const FIRST_COME =
  'You asked us to tell you when it was back. We e-mail a few shoppers for each few units, in the order they signed up, so it may not last long.';
const ONLY_EMAIL = 'This was the only e-mail for this sign-up.';

function Restock({ input, item, subject }: { input: RestockEmailInput; item: string; subject: string }) {
  return (
    <Layout
      shopName={input.siteTitle}
      subject={subject}
      footer={
        <Paragraph
          style={{ fontSize: '13px' }}
          text={`${ONLY_EMAIL} To remove your sign-up and your address from it: ${input.unsubscribeUrl}`}
        >
          {ONLY_EMAIL} <Link href={input.unsubscribeUrl}>Remove your sign-up</Link>
        </Paragraph>
      }
    >
      <Paragraph>
        Good news: <strong>{item}</strong> is back in stock at {input.siteTitle}.
      </Paragraph>
      <Paragraph>
        <Link href={input.productUrl}>Get it here</Link>
      </Paragraph>
      <Paragraph>{FIRST_COME}</Paragraph>
    </Layout>
  );
}

export function restockEmail(input: RestockEmailInput): RenderedEmail {
  const item = input.variantLabel ? `${input.productName} (${input.variantLabel})` : input.productName;
  const subject = oneLine(`Back in stock: ${item} — ${input.siteTitle}`);
  return renderMail(subject, <Restock input={input} item={item} subject={subject} />);
}
