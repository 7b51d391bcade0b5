/** URL check of spec §5 for URL form fields and links. */
import { err, ok, type Result } from './result';

export const URL_MAX_LENGTH = 2083;
export const URL_PORT_MIN = 1;
export const URL_PORT_MAX = 65535;

/**
 * Only web addresses: a URL field asks for a website, and javascript:, data: or file: links
 * would be unsafe to render back as links. A scheme-less 'www.example.com' is accepted, because
 * that is how shoppers type websites; it is normalised to https://.
 */
export const URL_SCHEMES = ['http', 'https'] as const;

/** The spec shows no wording; this mirrors the e-mail message of §5. */
export const URL_INVALID_MESSAGE = 'URL is not valid. URLs should follow the format https://www.example.com.';

export type UrlProblem = 'empty' | 'too-long' | 'scheme' | 'host' | 'port' | 'format';

export interface ParsedUrl {
  /** The URL as it will be stored: trimmed, with a scheme. */
  href: string;
  scheme: (typeof URL_SCHEMES)[number];
  host: string;
  port: number | null;
}

const SCHEME_PART = /^([a-z][a-z0-9+.-]*):\/\//i;
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;
// authority = [userinfo@]host[:port]; the rest starts at the first / ? or #.
const AUTHORITY = /^(?:[^\s/?#@]*@)?(\[[0-9a-f:.]+\]|[^\s/?#:@[\]]+)(?::(\d*))?$/i;
const LABEL = /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)$/u;
const TLD = /^(?:[\p{L}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

const isHost = (host: string): boolean => {
  if (host.startsWith('[')) return host.endsWith(']') && host.includes(':');
  if (IPV4.test(host)) return true;
  // 'localhost' is useless to a shop owner reading the answer, so a public dotted name is required.
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length < 2 || host.length > 253) return false;
  const tld = labels[labels.length - 1] ?? '';
  return labels.every((label) => LABEL.test(label)) && TLD.test(tld);
};

/** Parses a website address. Never throws. */
export const parseUrl = (value: unknown): Result<ParsedUrl, UrlProblem> => {
  if (typeof value !== 'string') return err('format');
  const text = value.trim();
  if (text === '') return err('empty');
  if (text.length > URL_MAX_LENGTH) return err('too-long');
  if (/\s/.test(text)) return err('format');

  const schemeMatch = SCHEME_PART.exec(text);
  if (!schemeMatch && OTHER_SCHEME.test(text)) return err('scheme');
  const scheme = (schemeMatch?.[1] ?? 'https').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return err('scheme');
  const href = schemeMatch ? text : `https://${text}`;
  if (href.length > URL_MAX_LENGTH) return err('too-long');

  const rest = schemeMatch ? text.slice(schemeMatch[0].length) : text;
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const parts = AUTHORITY.exec(authority);
  if (!parts) return err('host');
  const host = (parts[1] ?? '').toLowerCase();
  if (!isHost(host)) return err('host');

  const portText = parts[2];
  let port: number | null = null;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= URL_PORT_MIN && port <= URL_PORT_MAX)) return err('port');
  }
  return ok({ href, scheme, host, port });
};

export const isUrl = (value: unknown): boolean => parseUrl(value).ok;

/**
 * Checks an optional URL field: empty is accepted as '' (required-ness is the form's rule).
 * The ok value is the address to store.
 */
export const validateUrl = (value: unknown): Result<string, typeof URL_INVALID_MESSAGE> => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return ok('');
  const parsed = parseUrl(value);
  return parsed.ok ? ok(parsed.value.href) : err(URL_INVALID_MESSAGE);
};
