/**
 * What every route module receives from buildApp (src/server/app.ts): the database, its engine and the app's settings.
 * Route modules export `registerXRoutes(app, ctx)`; they stay free of global state so one process can build several
 * apps (tests). A module that needs a service of its own on the context adds it here by declaration merging (the
 * payments module's `paymentsFor`, the forms module's `verifyCaptcha`), so the platform names no module.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { CaptchaScriptUrls } from '../../core/forms/captcha';
import { linkOrigin, ownerOrigin } from '../../core/linkOrigin';
import type { Engine } from '../db/connect';
import type { Database } from '../db/tables';

export interface AppContext {
  db: Kysely<Database>;
  engine: Engine;
  /**
   * Cookies always Secure (HTTPS only), whatever the request. On by default in production, off for local
   * http://localhost; either way a request that came over https gets Secure cookies (secureCookiesFor).
   */
  secureCookies: boolean;
  /** Directory of the built browser bundle (vite build), when the caller gives one. */
  clientDir?: string;
  /** The third-party CAPTCHA scripts served from elsewhere (tests only: a local stand-in for the provider). */
  captchaScripts?: CaptchaScriptUrls;
  /** PUBLIC_URL (src/config.ts): the origin of e-mail links for the site it names (src/core/linkOrigin.ts). */
  publicUrl?: string;
  /** The port `vitrine serve` listens on (PORT): the owner's links on a machine without a domain (ownerLinkOrigin). */
  port?: number;
  /**
   * Renders the 404 answer for a non-API path (a page route module may set it to render the site's not-found page,
   * page type 100). When unset, a minimal HTML page is sent.
   */
  notFoundPage?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;
}

/** Whether this answer's cookies are Secure: always with ctx.secureCookies, else when the request is https (behind a trusted proxy: its X-Forwarded-Proto). */
export const secureCookiesFor = (ctx: AppContext, request: FastifyRequest): boolean =>
  ctx.secureCookies || request.protocol === 'https';

/**
 * The origin of the links in the e-mails a request causes (order, newsletter, gift card, subscription, restock): the
 * site's configured domains or PUBLIC_URL, never a Host the site does not list (src/core/linkOrigin.ts).
 */
export const mailLinkOrigin = (
  ctx: AppContext,
  site: { domains: readonly string[] },
  request: FastifyRequest,
): string => linkOrigin(site.domains, request.protocol, request.host, ctx.publicUrl);

/**
 * The origin of the links the shop's staff get by e-mail (the new order at /admin/orders/N): PUBLIC_URL, else the
 * site's first public domain over https, else this server on its PORT (src/core/linkOrigin.ts ownerOrigin).
 */
export const ownerLinkOrigin = (ctx: AppContext, site: { domains: readonly string[] }): string =>
  ownerOrigin(site.domains, ctx.port ?? 0, ctx.publicUrl).origin;
