/**
 * The origin (scheme://host[:port]) of every absolute link in the e-mails a site sends: order confirmations, the
 * shop's new-order mail, newsletter confirmations, gift cards, subscription and restock mails. It comes from the
 * site's configured `domains` or the PUBLIC_URL setting, never from what a request claims: the Host header is the
 * client's to write, and the default site answers any Host, so a request with `Host: evil.example` would otherwise
 * make the shop mail a real customer links to another website (with their confirmation or cancel tokens).
 *
 * In order:
 *   1. PUBLIC_URL, when it names this site (its host is one of the site's domains) or the site lists no domains;
 *   2. the host the shopper used, when it is one of the site's domains exactly as listed (with its port, if listed);
 *   3. a local host (localhost, 127.x.x.x, [::1]) with the port used, when the site lists that name or no domains: a
 *      developer's machine, where a link can only lead back to the reader's own computer;
 *   4. the site's first domain (https, or http for a local one);
 *   5. http://localhost (no domains and no PUBLIC_URL: set one of them for links that work elsewhere).
 * The scheme of 2 and 3 is the request's (https behind a trusted proxy that says so).
 */

const LOCAL_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** Host without its port ('[::1]:3000' → '[::1]', 'shop.example:8080' → 'shop.example'). */
const hostName = (host: string): string => host.replace(/:\d+$/, '');

export const isLocalHost = (host: string): boolean => LOCAL_HOST.test(hostName(host));

/** PUBLIC_URL's origin, or undefined when it is not an http(s) URL. */
export function publicOrigin(publicUrl: string | undefined): URL | undefined {
  if (publicUrl === undefined || publicUrl === '') return undefined;
  try {
    const url = new URL(publicUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The origin of a site's e-mail links (see above). `protocol` and `host` are the request's ('' without one). */
export function linkOrigin(domains: readonly string[], protocol: string, host: string, publicUrl?: string): string {
  const configured = publicOrigin(publicUrl);
  if (
    configured &&
    (domains.length === 0 || domains.includes(configured.host) || domains.includes(configured.hostname))
  )
    return configured.origin;
  const requested = host.trim().toLowerCase();
  const scheme = protocol === 'https' ? 'https' : 'http';
  if (requested !== '' && domains.includes(requested)) return `${scheme}://${requested}`;
  if (
    requested !== '' &&
    isLocalHost(requested) &&
    /^[a-z0-9.[\]:]+$/.test(requested) &&
    (domains.length === 0 || domains.includes(hostName(requested)))
  ) {
    return `${scheme}://${requested}`;
  }
  const first = domains[0];
  if (first !== undefined) return `${isLocalHost(first) ? 'http' : 'https'}://${first}`;
  return 'http://localhost';
}

/**
 * An origin stored for later e-mails (a subscription's renewals and cancel links, a restock sign-up's mail), as
 * usable now: kept when the rule above would give it again for a request to that address, else replaced by what the
 * rule gives without a request. Rows stored from a request's Host before this rule (possibly another website's) are
 * read, never trusted.
 */
export function storedLinkOrigin(stored: string, domains: readonly string[], publicUrl?: string): string {
  let url: URL | undefined;
  try {
    url = new URL(stored);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
    const again = linkOrigin(domains, url.protocol.slice(0, -1), url.host, publicUrl);
    if (again === url.origin) return again;
  }
  return linkOrigin(domains, '', '', publicUrl);
}

/** Where the owner's own links (the report page's token link) point, and why there. */
export interface OwnerOrigin {
  origin: string;
  /** 'public-url': PUBLIC_URL; 'domain': the site's first public domain; 'local': this machine's server. */
  source: 'public-url' | 'domain' | 'local';
}

/**
 * The address a link printed for the shop's owner opens (`vitrine report token`): no request to follow, so
 *   1. PUBLIC_URL, when it names this site (one of its domains) or the site lists no domains;
 *   2. the site's first domain that is not a local host, over https;
 *   3. the local server `vitrine serve` runs with these settings: http://{the site's local domain, else localhost}
 *      on PORT (no port when PORT is 0, a free port chosen at start: the caller says so).
 */
export function ownerOrigin(domains: readonly string[], port: number, publicUrl?: string): OwnerOrigin {
  const configured = publicOrigin(publicUrl);
  if (
    configured &&
    (domains.length === 0 || domains.includes(configured.host) || domains.includes(configured.hostname))
  )
    return { origin: configured.origin, source: 'public-url' };
  const named = domains.find((domain) => !isLocalHost(domain));
  if (named !== undefined) return { origin: `https://${named}`, source: 'domain' };
  const local = domains.find((domain) => isLocalHost(domain));
  const host = local !== undefined ? hostName(local) : 'localhost';
  return { origin: port > 0 ? `http://${host}:${port}` : `http://${host}`, source: 'local' };
}
