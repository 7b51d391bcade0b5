/**
 * The restock e-mail, as text and HTML: the product is back, its link, first come first served, and the link that
 * removes the sign-up. Names come from the site file; every one is HTML-escaped and kept to one line in the subject.
 */
import type { RenderedEmail } from '../orders';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

export interface RestockEmailInput {
  siteTitle: string;
  productName: string;
  /** The variant's option values, or null for a product without options. */
  variantLabel: string | null;
  productUrl: string;
  unsubscribeUrl: string;
}

export function restockEmail(input: RestockEmailInput): RenderedEmail {
  const item = input.variantLabel ? `${input.productName} (${input.variantLabel})` : input.productName;
  const subject = oneLine(`Back in stock: ${item} — ${input.siteTitle}`);
  const text = [
    `Good news: ${item} is back in stock at ${input.siteTitle}.`,
    '',
    `Get it here: ${input.productUrl}`,
    '',
    'You asked us to tell you when it was back. We e-mail a few shoppers for each few units, in the order they signed up, so it may not last long.',
    '',
    `This was the only e-mail for this sign-up. To remove your sign-up and your address from it: ${input.unsubscribeUrl}`,
  ].join('\n');
  const html =
    `<!doctype html><html><body><p>Good news: <strong>${escapeHtml(item)}</strong> is back in stock at ${escapeHtml(input.siteTitle)}.</p>` +
    `<p><a href="${escapeHtml(input.productUrl)}">Get it here</a></p>` +
    '<p>You asked us to tell you when it was back. We e-mail a few shoppers for each few units, in the order they signed up, so it may not last long.</p>' +
    `<p style="color:#555;font-size:13px">This was the only e-mail for this sign-up. <a href="${escapeHtml(input.unsubscribeUrl)}">Remove your sign-up</a></p></body></html>`;
  return { subject, text, html };
}
