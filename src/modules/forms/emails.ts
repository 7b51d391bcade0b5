/**
 * The e-mails of form blocks, as text and HTML: a submission to the shop, and the newsletter's confirmation link to
 * the subscriber. Every answer, title and name is HTML-escaped (answers are whatever a visitor typed).
 */
import type { RenderedEmail } from '../orders';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
const escapeLines = (text: string): string => escapeHtml(text).replace(/\r?\n/g, '<br>');
/** One line for a header: no control character may break the subject. */
const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

export interface AnswerLines {
  title: string;
  lines: string[];
}

export function submissionEmail(input: {
  siteTitle: string;
  formName: string;
  answers: AnswerLines[];
  pagePath: string | null;
  submittedAt: string;
}): RenderedEmail {
  const subject = oneLine(`New ${input.formName} submission — ${input.siteTitle}`);
  const text = [
    `A visitor sent the form "${input.formName}" on ${input.siteTitle}${input.pagePath ? ` (page ${input.pagePath})` : ''} at ${input.submittedAt}.`,
    '',
    ...input.answers.flatMap((a) => [`${a.title}:`, ...a.lines.map((l) => `  ${l}`), '']),
  ].join('\n');
  const rows = input.answers
    .map(
      (a) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(a.title)}</th><td style="padding:4px 0">${a.lines.map(escapeLines).join('<br>')}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html><body><p>A visitor sent the form &ldquo;${escapeHtml(input.formName)}&rdquo; on ${escapeHtml(input.siteTitle)}${
    input.pagePath ? ` (page ${escapeHtml(input.pagePath)})` : ''
  } at ${escapeHtml(input.submittedAt)}.</p><table>${rows}</table></body></html>`;
  return { subject, text, html };
}

export function newsletterConfirmationEmail(input: { siteTitle: string; confirmUrl: string }): RenderedEmail {
  const subject = oneLine(`Confirm your subscription to ${input.siteTitle}`);
  const text = [
    `Someone (we hope you) asked to join the mailing list of ${input.siteTitle} with this address.`,
    '',
    `To confirm, open this link: ${input.confirmUrl}`,
    '',
    'If it was not you, ignore this e-mail: nothing will be sent to you.',
  ].join('\n');
  const html = `<!doctype html><html><body><p>Someone (we hope you) asked to join the mailing list of ${escapeHtml(input.siteTitle)} with this address.</p><p><a href="${escapeHtml(
    input.confirmUrl,
  )}">Confirm your subscription</a></p><p>If it was not you, ignore this e-mail: nothing will be sent to you.</p></body></html>`;
  return { subject, text, html };
}
