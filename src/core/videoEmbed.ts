/**
 * Video blocks (spec §3 Video: oembed {html, providerName}, overlay). A site file carries the provider's oEmbed HTML;
 * we accept only what a video provider gives for a player — one <iframe> with an https src — and never put that HTML
 * into a page as it is: the page builds its own iframe from the src (sandboxed, see VIDEO_SANDBOX), so nothing the
 * embed code carries (scripts, handlers, styles) ever runs on the shop's origin, and the page's Content-Security-
 * Policy allows that one provider origin as a frame (src/render/contentSecurityPolicy.ts), nothing more.
 */
import { err, ok, type Result } from './result';

/** Embed codes of YouTube, Vimeo, Wistia … are a few hundred characters; anything near this is not a player. */
export const VIDEO_EMBED_MAX_LENGTH = 4000;

/**
 * The player frame's sandbox. Scripts: every player is a script. Same-origin: the frame is the provider's origin, not
 * ours, so this lets the player keep its own storage (YouTube refuses to play without it) and gives it nothing of the
 * shop. Presentation: casting. No top navigation, no forms, no pop-ups, no downloads. (A srcdoc frame with these
 * flags would be worse: it would run the embed code with the shop's origin, able to read its cookies and lift its
 * own sandbox.)
 */
export const VIDEO_SANDBOX = 'allow-scripts allow-same-origin allow-presentation';
/** What the player may ask of the browser (Permissions Policy): play on the click, DRM, fullscreen, picture in picture. */
export const VIDEO_ALLOW = 'autoplay; encrypted-media; fullscreen; picture-in-picture';

export interface VideoEmbed {
  /** The player's address (https). */
  src: string;
  /** Its origin, for the page's frame-src. */
  origin: string;
  /** The embed's own title attribute, when it has one. */
  title?: string;
  /** Width / height of the embed (16 / 9 when it gives none). */
  aspectRatio: number;
}

export type VideoEmbedProblem = 'too-long' | 'not-one-iframe' | 'no-src' | 'src-not-https';

export const VIDEO_EMBED_MESSAGES: Readonly<Record<VideoEmbedProblem, string>> = {
  'too-long': `must be at most ${VIDEO_EMBED_MAX_LENGTH} characters (a provider's embed code is much shorter)`,
  'not-one-iframe': "must be the provider's embed code: one <iframe …></iframe> element and nothing else",
  'no-src': "must have the iframe's src attribute (the player's address)",
  'src-not-https': 'must have an iframe src that is an https address (like https://www.youtube.com/embed/…)',
};

const IFRAME = /^<iframe\b([^<>]*)>\s*<\/iframe>$/i;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
  '&lt;': '<',
  '&gt;': '>',
};
const decode = (text: string) => text.replace(/&(?:amp|quot|#39|#x27|lt|gt);/gi, (e) => ENTITIES[e.toLowerCase()] ?? e);

/** The attributes of the one iframe of `html` (names lower-cased, values decoded), or undefined: not one iframe. */
function iframeAttributes(html: string): Map<string, string> | undefined {
  const match = IFRAME.exec(html.trim());
  if (!match) return undefined;
  const attributes = new Map<string, string>();
  for (const [, name, double, single, bare] of match[1]!.matchAll(ATTRIBUTE)) {
    const key = name!.toLowerCase();
    if (!attributes.has(key)) attributes.set(key, decode(double ?? single ?? bare ?? ''));
  }
  return attributes;
}

const dimension = (value: string | undefined): number | undefined => {
  const n = value !== undefined && /^\d{1,5}$/.test(value.trim()) ? Number(value) : NaN;
  return n > 0 ? n : undefined;
};

/** Reads a provider's oEmbed HTML: the player it names, or why it is not one. */
export function parseVideoEmbed(html: string): Result<VideoEmbed, VideoEmbedProblem> {
  if (html.length > VIDEO_EMBED_MAX_LENGTH) return err('too-long');
  const attributes = iframeAttributes(html);
  if (!attributes) return err('not-one-iframe');
  const src = attributes.get('src')?.trim();
  if (!src) return err('no-src');
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return err('src-not-https');
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.hostname === '')
    return err('src-not-https');
  const width = dimension(attributes.get('width'));
  const height = dimension(attributes.get('height'));
  const title = attributes.get('title')?.trim();
  return ok({
    src: url.href,
    origin: url.origin,
    ...(title ? { title } : {}),
    aspectRatio: width !== undefined && height !== undefined ? width / height : 16 / 9,
  });
}

/** The player's address asked to start at once: the visitor already pressed play on the overlay. */
export function autoplayUrl(src: string): string {
  const url = new URL(src);
  url.searchParams.set('autoplay', '1');
  return url.href;
}

/** A provider's embed code made from the video's own address, for the providers whose player address follows it. */
export interface MadeEmbed {
  html: string;
  providerName: string;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** The YouTube video id of a watch, short, shorts, live or embed address; undefined for any other. */
function youTubeId(url: URL): string | undefined {
  const host = url.hostname.replace(/^(www\.|m\.|music\.)/, '');
  let id: string | undefined;
  if (host === 'youtu.be') id = url.pathname.split('/')[1];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const [, first, second] = url.pathname.split('/');
    id =
      first === 'watch'
        ? (url.searchParams.get('v') ?? undefined)
        : ['shorts', 'live', 'embed'].includes(first ?? '')
          ? second
          : undefined;
  }
  return id !== undefined && YOUTUBE_ID.test(id) ? id : undefined;
}

/** The Vimeo video id of vimeo.com/{id} (a channel's or group's address ends with it too) or player.vimeo.com/video/{id}. */
function vimeoId(url: URL): string | undefined {
  const host = url.hostname.replace(/^www\./, '');
  if (host !== 'vimeo.com' && host !== 'player.vimeo.com') return undefined;
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  return last !== undefined && /^\d{1,12}$/.test(last) ? last : undefined;
}

/**
 * The embed code of a YouTube or Vimeo video from its address (as their Share → Embed gives it, YouTube through its
 * privacy-enhanced youtube-nocookie.com player), so an owner needs only the address; undefined for other providers,
 * whose embed code the owner pastes. Nothing is fetched.
 */
export function embedFromVideoUrl(address: string, title: string): MadeEmbed | undefined {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const frame = (src: string) =>
    `<iframe width="560" height="315" src="${src}" title="${escapeAttribute(title)}" allowfullscreen></iframe>`;
  const youTube = youTubeId(url);
  if (youTube) return { html: frame(`https://www.youtube-nocookie.com/embed/${youTube}`), providerName: 'YouTube' };
  const vimeo = vimeoId(url);
  if (vimeo) return { html: frame(`https://player.vimeo.com/video/${vimeo}`), providerName: 'Vimeo' };
  return undefined;
}

const escapeAttribute = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
