/**
 * A page made for one visitor (the checkout, an order's page, the cart with the visitor's lines, the account, a form's
 * outcome …) is a page kind too, of the per-visitor flavour: its name, the addresses it answers, the data it reads
 * from the visitor's request (cookies: the cart, the session; the address's secret) and what it shows. Unlike a
 * content page kind (./pageKind.ts) it is never cached (no page cache, no fast path: its answers say `no-store`), and
 * its form actions (the POST routes that change something and answer with a redirect or with a kind's page made with
 * their outcome) are declared with it.
 *
 * What a kind shows is either a page of its own (title, body …, put in the site's frame) or a content page made again
 * for this visitor (`contentPage`): the page a form without JavaScript was posted from, with the form's outcome in it,
 * or a locked page's lock screen with what was wrong.
 *
 * The module owns its kinds (`modules/<concept>/pages/…`, exported by its index.ts as a `VisitorPageModule`); render/
 * owns the frame (./renderPath.tsx, the same frame as content pages) and the answer (`VisitorPages`); the composition
 * (src/server/routes/visitorPages.ts) registers each kind's GET routes and its module's actions.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Site } from '../modules/site';
import { CRUMB_PLACEHOLDER, type FormPostState } from '../ui/formPost';
import type { LockedPage } from '../modules/pageLocks';
import { contentSecurityPolicyFor } from './contentSecurityPolicy';
import type { ClientAssets } from './manifest';
import type { PageLockAccess, PageRenderer, VisitorPage } from './renderPath';

/** One visitor's request for a page: their request (cookies, params, query), the reply (cookies set), the site. */
export interface Visit {
  request: FastifyRequest;
  reply: FastifyReply;
  site: Site;
}

/** What a per-visitor kind's loader gives when it answered the request itself (a redirect, the site's 404 page). */
export const ANSWERED: unique symbol = Symbol('answered');
export type Answered = typeof ANSWERED;

/** A page of the kind's own, for the site's frame, and the browser entry it loads (`main` unless said). */
export interface OwnPageView extends VisitorPage {
  /** 'checkout': the checkout's own bundle (its form's islands), in place of the main entry. */
  assets?: 'main' | 'checkout';
  /** The HTML as rendered, changed once more (the cart's notice, put in as on cached pages). */
  finish?: (html: string) => string;
}

/**
 * The content page at `path` made again for this visitor: with `formPost`, the outcome of the form posted from it
 * without JavaScript (its errors, its success text, what was typed); with `lock`, its lock screen with what was wrong.
 * It keeps everything of the content page (title, canonical, page type, the third-party CAPTCHA's sources in its
 * Content-Security-Policy); its forms get the visitor's crumb. `status`: the answer's (the content page's unless given).
 */
export interface ContentPageView {
  contentPage: { path: string; formPost?: FormPostState; lock?: PageLockAccess };
  status?: number;
}

/** What a per-visitor kind's view gives: a page of its own, or a content page made again with an outcome. */
export type VisitorPageView = OwnPageView | ContentPageView;

export interface VisitorPageKind<Data> {
  /** The kind's name, as its file is named. */
  name: string;
  /**
   * The addresses it answers (Fastify route paths, GET). A kind that `takes` a content page's path is answered by the
   * page route instead (src/server/routes/pages.tsx): its path has no route of its own.
   */
  paths: readonly string[];
  /**
   * For a kind at a content page's path (the cart): whether this request gets the visitor's page rather than the
   * cached one (it carries the cookie the page is made from).
   */
  takes?: (request: FastifyRequest) => boolean;
  /** Its GET route's options: the description (docs/openapi.json), hooks of its own. */
  route?: RouteShorthandOptions;
  /** Its answers' headers besides the content type, in order: never cached (`no-store`, `private, no-store` …). */
  headers: Readonly<Record<string, string>>;
  /**
   * Reads the page's data for this visitor; ANSWERED when it answered the request itself. Absent for a kind shown by
   * its module's form actions only (no `paths`: a form's outcome).
   */
  load?(visit: Visit): Promise<Data | Answered>;
  /** The page. */
  view(visit: Visit, data: Data): VisitorPageView;
}

/** A per-visitor kind is declared as is: this only checks its shape and ties its loader's data to its view. */
export const visitorPageKind = <Data>(kind: VisitorPageKind<Data>): VisitorPageKind<Data> => kind;

/**
 * A module's pages for one visitor: its kinds, and its form actions (POST routes) registered in the same scope,
 * after the kinds' GET routes. `scope` prepares that scope first (a form-body parser, a header on every answer).
 */
export interface VisitorPageModule {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
  kinds: readonly VisitorPageKind<any>[];
  scope?: (scope: FastifyInstance) => Promise<void>;
  actions?: (scope: FastifyInstance, pages: VisitorPages) => void;
}

/** Renders a per-visitor kind's page in the site's frame, and answers with it. */
export class VisitorPages {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
  readonly #atContentPaths: VisitorPageKind<any>[] = [];

  constructor(
    private readonly renderer: PageRenderer,
    private readonly assets: { main: ClientAssets; checkout: ClientAssets },
    /** The visitor's crumb (set as a cookie when they have none), for the forms of a content page made again. */
    private readonly crumb: (request: FastifyRequest, reply: FastifyReply) => string,
  ) {}

  /** A kind that takes a content page's path for some requests (the cart): the page route asks `takenBy`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
  atContentPath(kind: VisitorPageKind<any>): void {
    this.#atContentPaths.push(kind);
  }

  /** The kind that makes the content page at `path` for this request, if one takes it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own data
  takenBy(path: string, request: FastifyRequest): VisitorPageKind<any> | undefined {
    return this.#atContentPaths.find((kind) => kind.paths.includes(path) && kind.takes?.(request) === true);
  }

  /**
   * The kind's page for this data (an action's outcome, or its loader's), as HTML with its status; a content page made
   * again also with its Content-Security-Policy (its third-party CAPTCHA's sources: not read from the HTML alone).
   */
  async render<Data>(
    kind: VisitorPageKind<Data>,
    visit: Visit,
    data: Data,
  ): Promise<{ status: number; html: string; contentSecurityPolicy?: string }> {
    const page = kind.view(visit, data);
    if ('contentPage' in page) {
      const { path, formPost = null, lock } = page.contentPage;
      const rendered = await this.renderer.render(visit.site, path, { formPost, ...(lock ? { lock } : {}) });
      return {
        status: page.status ?? rendered.status,
        html: rendered.html.replaceAll(CRUMB_PLACEHOLDER, this.crumb(visit.request, visit.reply)),
        contentSecurityPolicy: contentSecurityPolicyFor(rendered.html, rendered.policySources),
      };
    }
    const rendered = await this.renderer.renderVisitorPage(visit.site, page, this.assets[page.assets ?? 'main']);
    return { status: rendered.status, html: page.finish ? page.finish(rendered.html) : rendered.html };
  }

  /** Answers with the kind's page for this data, with the kind's headers. */
  async send<Data>(kind: VisitorPageKind<Data>, visit: Visit, data: Data): Promise<FastifyReply> {
    const { status, html, contentSecurityPolicy } = await this.render(kind, visit, data);
    const reply = visit.reply.code(status);
    for (const [name, value] of Object.entries(kind.headers)) reply.header(name, value);
    if (contentSecurityPolicy !== undefined) reply.header('content-security-policy', contentSecurityPolicy);
    return reply.type('text/html; charset=utf-8').send(html);
  }

  /** The site file's page at `path` when it asks for a password (a lock screen's form names it). */
  lockedPage(site: Site, path: string): Promise<LockedPage | undefined> {
    return this.renderer.lockedPage(site, path);
  }

  /** Answers a GET of the kind: its loader's data in its page, or the loader's own answer. */
  async answer<Data>(kind: VisitorPageKind<Data>, visit: Visit): Promise<FastifyReply> {
    if (!kind.load) throw new Error(`the page kind ${kind.name} is shown by its module's actions only`);
    const data = await kind.load(visit);
    return data === ANSWERED ? visit.reply : this.send(kind, visit, data);
  }
}
