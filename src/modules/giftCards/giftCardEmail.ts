/**
 * The gift card's e-mail to its recipient: the amount, the code (the only place it is ever written, besides the
 * `vitrine giftcards issue` output), who sent it and their message, and where to spend it. Every value a shopper or
 * merchant typed is HTML-escaped; the subject is one line.
 */
import type { RenderedEmail } from '../orders';

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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
const escapeLines = (text: string): string => escapeHtml(text).replace(/\r?\n/g, '<br>');
const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

export function giftCardEmail(input: GiftCardEmailInput): RenderedEmail {
  const siteTitle = oneLine(input.siteTitle);
  const subject = `Your ${input.amount} gift card for ${siteTitle}`;
  const greeting = input.recipientName.trim() === '' ? 'Hello,' : `Hello ${oneLine(input.recipientName)},`;
  const sender = input.from.trim() === '' ? siteTitle : oneLine(input.from);
  const message = input.message.trim();
  const text = [
    greeting,
    '',
    `${sender} sent you a ${input.amount} gift card for ${siteTitle}.`,
    ...(message !== '' ? ['', 'Their message:', message] : []),
    '',
    `Your gift card code: ${input.code}`,
    '',
    `Enter it at checkout in the "Gift card" field: ${input.shopUrl}`,
    'Keep this code safe: anyone who has it can spend the card.',
    '',
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:600px;margin:0 auto">',
    `<h1 style="font-size:22px;margin:0 0 16px">A ${escapeHtml(input.amount)} gift card for ${escapeHtml(siteTitle)}</h1>`,
    `<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>`,
    `<p style="margin:0 0 16px">${escapeHtml(sender)} sent you a ${escapeHtml(input.amount)} gift card for ${escapeHtml(siteTitle)}.</p>`,
    ...(message !== ''
      ? [
          `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #d0d0d0">${escapeLines(message)}</blockquote>`,
        ]
      : []),
    '<p style="margin:0 0 8px">Your gift card code:</p>',
    `<p style="margin:0 0 16px;font-family:monospace;font-size:22px;letter-spacing:2px"><strong data-gift-card-code>${escapeHtml(input.code)}</strong></p>`,
    `<p style="margin:0 0 16px">Enter it at checkout in the "Gift card" field: <a href="${escapeHtml(input.shopUrl)}" style="color:#0b57d0">${escapeHtml(input.shopUrl)}</a></p>`,
    '<p style="margin:0 0 16px;color:#555555">Keep this code safe: anyone who has it can spend the card.</p>',
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
  return { subject, text, html };
}
