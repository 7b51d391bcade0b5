/**
 * How the outbox hands a message to a mail server: one small interface (tests and any other sender implement it) and
 * the one we ship, SMTP through nodemailer. A message has exactly five parts — from, to, subject, text, html — and
 * the only header that can carry a shopper's input is `to`, which must be one plain address on one line.
 */
import nodemailer from 'nodemailer';

export interface MailMessage {
  /** The sender; the transport's own address (MAIL_FROM) when absent. */
  from?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** Resolves once the server accepted the message; rejects with the server's or the network's error. */
  send(message: MailMessage): Promise<void>;
}

/** A header value that could add headers or recipients: the message is refused, never sent, and never will be. */
export class MailHeaderError extends Error {
  override name = 'MailHeaderError';
}

// Any control character (CR and LF above all) could end the header and start another.
const CONTROL = /\p{Cc}/u;
// One address, nothing around it: no display name, no list, no comment, no group, no route.
const SINGLE_ADDRESS = /^[^\s@<>()[\]\\",;:]+@[^\s@<>()[\]\\",;:]+$/;

/** Throws MailHeaderError unless `to` is one plain address and `subject` (and `from`, when given) are one line. */
export function checkMailHeaders(message: { to: string; subject: string; from?: string }): void {
  if (CONTROL.test(message.to) || !SINGLE_ADDRESS.test(message.to)) {
    throw new MailHeaderError(
      `refused recipient ${JSON.stringify(message.to.slice(0, 100))}: must be one e-mail address on one line`,
    );
  }
  if (CONTROL.test(message.subject))
    throw new MailHeaderError('refused subject: must be one line without control characters');
  if (message.from !== undefined && CONTROL.test(message.from))
    throw new MailHeaderError('refused sender: must be one line');
}

/** Timeouts well inside the outbox lease, so a hanging server cannot make a second sender take the message over. */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * Sends through the SMTP server of `smtpUrl` (smtp:// with STARTTLS when offered, smtps:// for TLS from the start;
 * user and password in the URL). Nothing is checked or connected here: the first send says whether it works.
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const mailer = nodemailer.createTransport({
    url: smtpUrl,
    ...SMTP_TIMEOUTS,
    // Our messages are plain strings; nodemailer must never read a file or fetch a URL on their behalf.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      const sender = message.from ?? from;
      checkMailHeaders({ ...message, from: sender });
      await mailer.sendMail({
        from: sender,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
  };
}
