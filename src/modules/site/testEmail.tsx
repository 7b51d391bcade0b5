/** The settings' test e-mail (/admin/settings, 'Send me a test e-mail'): it says where it came from and why. */
import { Paragraph } from '../../platform/mail/blocks';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, type RenderedEmail } from '../../platform/mail/render';

export function testEmail(siteTitle: string, to: string): RenderedEmail {
  const subject = oneLine(`Test e-mail from ${siteTitle}`);
  return renderMail(
    subject,
    <Layout shopName={siteTitle} subject={subject}>
      <Paragraph>{`This is the test e-mail ${to} asked for in the settings of ${siteTitle}.`}</Paragraph>
      <Paragraph>It came through the outbox and your mail server: your shop's e-mail reaches you.</Paragraph>
    </Layout>,
  );
}
