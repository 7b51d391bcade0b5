/**
 * The e-mails of form blocks: a submission to the shop, and the newsletter's confirmation link to the subscriber.
 * Answers are whatever a visitor typed: React escapes them in the HTML; the text part has them as typed.
 */
import { Link, Lines, Paragraph } from '../../platform/mail/blocks';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, withText, type RenderedEmail } from '../../platform/mail/render';

export interface AnswerLines {
  title: string;
  lines: string[];
}

/** The answers: a table of question and answer in HTML; in the text, 'Question:' then each answer line indented. */
const Answers = withText(
  ({ answers }: { answers: AnswerLines[] }) => (
    <table style={{ borderCollapse: 'collapse', margin: '0 0 16px' }}>
      <tbody>
        {answers.map((answer, i) => (
          <tr key={i}>
            <th style={{ padding: '4px 12px 4px 0', textAlign: 'left', verticalAlign: 'top' }}>{answer.title}</th>
            <td style={{ padding: '4px 0' }}>
              <Lines text={answer.lines.join('\n')} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  ({ answers }) => answers.map((a) => [`${a.title}:`, ...a.lines.map((l) => `  ${l}`)].join('\n')),
);

interface SubmissionInput {
  siteTitle: string;
  formName: string;
  answers: AnswerLines[];
  pagePath: string | null;
  submittedAt: string;
}

function Submission({ input, subject }: { input: SubmissionInput; subject: string }) {
  const page = input.pagePath ? ` (page ${input.pagePath})` : '';
  return (
    <Layout shopName={input.siteTitle} subject={subject}>
      <Paragraph
        text={`A visitor sent the form "${input.formName}" on ${input.siteTitle}${page} at ${input.submittedAt}.`}
      >
        A visitor sent the form “{input.formName}” on {input.siteTitle}
        {page} at {input.submittedAt}.
      </Paragraph>
      <Answers answers={input.answers} />
    </Layout>
  );
}

export function submissionEmail(input: SubmissionInput): RenderedEmail {
  const subject = oneLine(`New ${input.formName} submission — ${input.siteTitle}`);
  return renderMail(subject, <Submission input={input} subject={subject} />);
}

function NewsletterConfirmation({
  siteTitle,
  confirmUrl,
  subject,
}: {
  siteTitle: string;
  confirmUrl: string;
  subject: string;
}) {
  return (
    <Layout shopName={siteTitle} subject={subject}>
      <Paragraph>Someone (we hope you) asked to join the mailing list of {siteTitle} with this address.</Paragraph>
      <Paragraph>
        <Link href={confirmUrl} text="To confirm, open this link">
          Confirm your subscription
        </Link>
      </Paragraph>
      <Paragraph>If it was not you, ignore this e-mail: nothing will be sent to you.</Paragraph>
    </Layout>
  );
}

export function newsletterConfirmationEmail(input: { siteTitle: string; confirmUrl: string }): RenderedEmail {
  const subject = oneLine(`Confirm your subscription to ${input.siteTitle}`);
  return renderMail(subject, <NewsletterConfirmation {...input} subject={subject} />);
}
