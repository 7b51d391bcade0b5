/**
 * Text made safe to place in HTML written by hand (the document's head, the server's plain error page, the analytics
 * report): in an element's text or a quoted attribute value, it reads as the same text and never as markup.
 */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
