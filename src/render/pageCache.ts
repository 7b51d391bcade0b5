import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, crc32, deflateRaw, gzip } from 'node:zlib';
import { PAGE_CODINGS, type ContentCoding } from './contentCoding';
import { contentSecurityPolicyFor } from './contentSecurityPolicy';
import { LruCache } from './lru';

/** §9 cache capacity. */
export const PAGE_CACHE_CAPACITY = 100;

export interface RenderedPage {
  status: number;
  html: string;
  /** Strong validator of the exact bytes: a quoted hash of the HTML. */
  etag: string;
  /** Its Content-Security-Policy (./contentSecurityPolicy: the hashes of its inline styles). */
  contentSecurityPolicy: string;
}

/**
 * A rendering made ready to cache and serve: its ETag and its policy (with the hosts its CAPTCHA needs, if any),
 * computed once.
 */
export const withEtag = (page: {
  status: number;
  html: string;
  policySources?: Parameters<typeof contentSecurityPolicyFor>[1];
}): RenderedPage => ({
  status: page.status,
  html: page.html,
  etag: etagOf(page.html),
  contentSecurityPolicy: contentSecurityPolicyFor(page.html, page.policySources),
});

export const etagOf = (html: string): string => `"${createHash('sha1').update(html).digest('base64url').slice(0, 22)}"`;

/** One representation of a page: its bytes in one content coding, and their strong ETag. */
export interface Representation {
  readonly coding: ContentCoding;
  /** The bytes, in one piece (joined on first use for a page filled in per answer: prefer `chunks` to send them). */
  readonly body: Buffer;
  /** The bytes as the pieces they are kept in (one for most pages), to be written in order without joining them. */
  readonly chunks: readonly Buffer[];
  readonly length: number;
  readonly etag: string;
}

/** A representation kept in one piece. */
const whole = (coding: ContentCoding, body: Buffer, etag: string): Representation => ({
  coding,
  body,
  chunks: [body],
  length: body.length,
  etag,
});

/** A representation in pieces (the parts of a page around a per-answer value), joined only if `body` is read. */
function pieces(coding: ContentCoding, chunks: Buffer[], etag: string): Representation {
  let joined: Buffer | undefined;
  return {
    coding,
    chunks,
    etag,
    length: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    get body() {
      return (joined ??= Buffer.concat(chunks));
    },
  };
}

/**
 * The ETag of a page's representation in `coding`: the HTML's own for identity, with the coding appended otherwise
 * (`"…-br"`, `"…-gzip"`), so a browser never revalidates a gzip copy against brotli bytes, nor the reverse.
 */
export const representationEtag = (etag: string, coding: ContentCoding): string =>
  coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`;

/**
 * How hard to compress: `once` for a page kept in the cache (compressed once per site version, so the smallest
 * bytes: gzip 9, brotli 11, ≈ 10 ms for a product page, off the event loop); `per-request` for bytes made for one
 * answer (the cache turned off, a page with a notice for one visitor: gzip 6, brotli 4).
 */
export type CompressionEffort = 'once' | 'per-request';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const deflateRawAsync = promisify(deflateRaw);

const gzipLevel = (effort: CompressionEffort) => (effort === 'once' ? 9 : 6);

function compress(
  bytes: Buffer,
  coding: Exclude<ContentCoding, 'identity'>,
  effort: CompressionEffort,
): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(bytes, { level: gzipLevel(effort) });
  return brotliAsync(bytes, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: effort === 'once' ? constants.BROTLI_MAX_QUALITY : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** The codings of a page filled in per answer: gzip can be spliced around the value (below), brotli cannot. */
const FILLED_CODINGS: readonly ContentCoding[] = ['gzip', 'identity'];

/** The ETag of a page filled in with `value`: it names the value too, so a browser never keeps another's copy. */
export const filledEtag = (etag: string, value: string): string =>
  `${etag.slice(0, -1)}-${createHash('sha256').update(value).digest('base64url').slice(0, 10)}"`;

/** gzip's header (RFC 1952): deflate, no name, no time, OS unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3]);

/**
 * A page whose HTML holds a placeholder replaced in every answer by a value of its own (the visitor's crumb in a
 * form's hidden field), kept as the parts between the placeholders, plain and compressed, so an answer only joins
 * them around the value. Each part is its own deflate run ending on a byte boundary (a sync flush; the last one
 * ends the stream), so the value goes between them as a stored block and the whole is one valid gzip stream; only
 * the CRC of the joined bytes is computed per answer.
 */
class FilledPage {
  readonly #parts: Buffer[];
  #deflated: Buffer[] | Promise<Buffer[]> | undefined;

  constructor(
    html: string,
    readonly placeholder: string,
    private readonly effort: CompressionEffort,
  ) {
    this.#parts = html.split(placeholder).map((part) => Buffer.from(part));
  }

  identity(value: Buffer): Buffer[] {
    return this.#parts.flatMap((part, i) => (i === 0 ? [part] : [value, part]));
  }

  /** The gzip bytes for `value`, or undefined until the parts are compressed (then `compressed()` waits for them). */
  gzip(value: Buffer): Buffer[] | undefined {
    const deflated = this.#deflated;
    if (deflated === undefined || deflated instanceof Promise) return undefined;
    if (value.length > 0xffff) throw new RangeError('a filled-in value is at most 65,535 bytes (one stored block)');
    // A stored block (not the last): its 3 header bits, padding to the byte, LEN and its complement.
    const stored = Buffer.from([
      0,
      value.length & 0xff,
      value.length >> 8,
      ~value.length & 0xff,
      (~value.length >> 8) & 0xff,
    ]);
    let crc = 0;
    let size = 0;
    // Node 20's crc32 can answer 0 for an empty buffer once optimized: empty pieces are skipped.
    const add = (bytes: Buffer) => {
      if (bytes.length > 0) crc = crc32(bytes, crc);
      size += bytes.length;
    };
    const gzipped: Buffer[] = [GZIP_HEADER];
    this.#parts.forEach((part, i) => {
      if (i > 0) {
        gzipped.push(stored, value);
        add(value);
      }
      gzipped.push(deflated[i]!);
      add(part);
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    gzipped.push(trailer);
    return gzipped;
  }

  compressed(): Promise<Buffer[]> | Buffer[] {
    if (this.#deflated) return this.#deflated;
    const last = this.#parts.length - 1;
    const level = gzipLevel(this.effort);
    const made = Promise.all(
      this.#parts.map((part, i) =>
        deflateRawAsync(part, { level, finishFlush: i === last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }),
      ),
    ).then(
      (deflated) => (this.#deflated = deflated),
      (error: unknown) => {
        this.#deflated = undefined;
        throw error;
      },
    );
    this.#deflated = made;
    return made;
  }
}

/**
 * A rendered page with its bytes in each coding it has been asked in, each compressed once (the first request for a
 * coding waits for it; the cache starts every coding when the page enters it). A page with a per-answer value
 * (`placeholder`) is kept in parts, filled in per answer (FilledPage), in gzip or plain only.
 */
export class EncodedPage {
  readonly #representations = new Map<ContentCoding, Representation | Promise<Representation>>();
  readonly #filled: FilledPage | undefined;
  /** The codings this page can be sent in, best first. */
  readonly codings: readonly ContentCoding[];

  constructor(
    readonly page: RenderedPage,
    readonly effort: CompressionEffort,
    /** A string of the HTML replaced in every answer by a value of its own (the visitor's crumb); absent: none. */
    placeholder?: string,
  ) {
    this.#filled =
      placeholder !== undefined && page.html.includes(placeholder)
        ? new FilledPage(page.html, placeholder, effort)
        : undefined;
    this.codings = this.#filled ? FILLED_CODINGS : PAGE_CODINGS;
    if (!this.#filled) this.#representations.set('identity', whole('identity', Buffer.from(page.html), page.etag));
  }

  get status(): number {
    return this.page.status;
  }

  /** Its bytes are made per answer, with a value of that answer's own (`fill`, required then). */
  get perVisitor(): boolean {
    return this.#filled !== undefined;
  }

  /** The ETag of the representation in `coding` (filled in with `fill`), known without making its bytes. */
  etag(coding: ContentCoding, fill?: string): string {
    return representationEtag(this.#filled ? filledEtag(this.page.etag, filledValue(fill)) : this.page.etag, coding);
  }

  /** The representation in `coding` if its bytes can be had now (identity always can). */
  ready(coding: ContentCoding, fill?: string): Representation | undefined {
    if (this.#filled) {
      const value = Buffer.from(filledValue(fill));
      const chunks =
        coding === 'identity' ? this.#filled.identity(value) : coding === 'gzip' ? this.#filled.gzip(value) : undefined;
      return chunks && pieces(coding, chunks, this.etag(coding, fill));
    }
    const held = this.#representations.get(coding);
    return held instanceof Promise ? undefined : held;
  }

  /** The representation in `coding`, compressed on the first call (concurrent callers share that work). */
  representation(coding: ContentCoding, fill?: string): Representation | Promise<Representation> {
    if (!this.codings.includes(coding)) throw new Error(`this page is not kept in ${coding}`);
    if (this.#filled) {
      const now = this.ready(coding, fill);
      if (now) return now;
      return Promise.resolve(this.#filled.compressed()).then(() => this.ready(coding, fill)!);
    }
    const held = this.#representations.get(coding);
    if (held) return held;
    const identity = this.ready('identity')!;
    const made = compress(identity.body, coding as Exclude<ContentCoding, 'identity'>, this.effort).then(
      (body) => {
        const representation = whole(coding, body, representationEtag(this.page.etag, coding));
        this.#representations.set(coding, representation);
        return representation;
      },
      (error: unknown) => {
        // Not kept: the next request tries again.
        this.#representations.delete(coding);
        throw error;
      },
    );
    this.#representations.set(coding, made);
    return made;
  }

  /** Starts compressing in every coding (a page entering the cache); resolves when all are ready. */
  async encodeAll(): Promise<void> {
    if (this.#filled) await this.#filled.compressed();
    else await Promise.all([this.representation('br'), this.representation('gzip')]);
  }
}

function filledValue(fill: string | undefined): string {
  if (fill === undefined) throw new Error('this page is filled in per answer: give the value');
  return fill;
}

/** What a page was made from, besides its site version: the products whose stock it shows, read at `stockEpoch`. */
export interface PageStock {
  siteId: string;
  productIds: readonly string[];
  /** PageCache.stockEpoch when the page's stock was read (before rendering began). */
  since: number;
}

/**
 * Rendered pages per (site id, site version, path), each with its compressed copies. Pages carry no per-visitor
 * state, so one rendering serves every visitor; a re-import bumps the site version, so stale entries are never read
 * again and age out of the LRU. A page that shows stock is kept under its products too: `stockChanged` drops it at
 * once (issue 23: sold-out marks and scarcity texts true within a second of a sale).
 */
export class PageCache {
  readonly #lru: LruCache<string, EncodedPage>;
  /** `${siteId}\0${productId}` → the keys of the kept pages that show it. */
  readonly #pagesShowing = new Map<string, Set<string>>();
  /** A kept page's key → the product tags it is listed under (to unlist it when it leaves). */
  readonly #tagsOf = new Map<string, readonly string[]>();
  /** Product tag → the epoch of its last stock change, so a page rendered before that change is not kept after it. */
  readonly #changedAt = new Map<string, number>();
  #epoch = 0;

  constructor(
    /** Off for measuring (the benchmark's uncached run): every request renders. */
    public enabled = true,
    capacity = PAGE_CACHE_CAPACITY,
  ) {
    this.#lru = new LruCache(capacity, (key) => this.#unlist(key));
  }

  /** A number that grows with every stock change seen: read it before a render reads stock (PageStock.since). */
  get stockEpoch(): number {
    return this.#epoch;
  }

  /** The stock of these products changed: every kept page showing one is dropped (the next request renders it anew). */
  stockChanged(siteId: string, productIds: Iterable<string>): number {
    const epoch = ++this.#epoch;
    let dropped = 0;
    for (const productId of productIds) {
      const tag = productTag(siteId, productId);
      this.#changedAt.set(tag, epoch);
      for (const key of this.#pagesShowing.get(tag) ?? []) {
        if (this.#lru.delete(key)) dropped++;
        this.#unlist(key);
      }
    }
    // Past the products a shop can have, forget the oldest marks: the epoch check only matters for renders under way.
    if (this.#changedAt.size > CHANGE_MARKS_KEPT) this.#changedAt.clear();
    return dropped;
  }

  #unlist(key: string): void {
    for (const tag of this.#tagsOf.get(key) ?? []) {
      const keys = this.#pagesShowing.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#pagesShowing.delete(tag);
    }
    this.#tagsOf.delete(key);
  }

  /** The key of a page: its site, the site's storefront edition (its version, or `{version}.{n}`: issue 26), its path. */
  static key(siteId: string, edition: number | string, path: string): string {
    return `${siteId}\u0000${edition}\u0000${path}`;
  }

  get size(): number {
    return this.#lru.size;
  }

  get(key: string): EncodedPage | undefined {
    return this.enabled ? this.#lru.get(key) : undefined;
  }

  /**
   * Keeps the page and starts compressing it in every coding. A failed compression is not fatal: a request asking for
   * that coding compresses again (and reports the failure). A page showing stock (`stock`) is not kept when one of
   * its products' stock changed since it was read: it is served once, and the next request renders it anew.
   */
  set(key: string, page: EncodedPage, stock?: PageStock): void {
    if (!this.enabled) return;
    const tags = stock ? stock.productIds.map((id) => productTag(stock.siteId, id)) : [];
    if (stock && tags.some((tag) => (this.#changedAt.get(tag) ?? 0) > stock.since)) return;
    this.#unlist(key);
    this.#lru.set(key, page);
    if (tags.length > 0) {
      this.#tagsOf.set(key, tags);
      for (const tag of tags) {
        let keys = this.#pagesShowing.get(tag);
        if (!keys) this.#pagesShowing.set(tag, (keys = new Set()));
        keys.add(key);
      }
    }
    page.encodeAll().catch(() => {});
  }

  clear(): void {
    this.#lru.clear();
    this.#pagesShowing.clear();
    this.#tagsOf.clear();
  }
}

/** How many products' last stock change are remembered (for renders under way) before the marks start over. */
const CHANGE_MARKS_KEPT = 100_000;

const productTag = (siteId: string, productId: string): string => `${siteId}\u0000${productId}`;
