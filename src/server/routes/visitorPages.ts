/**
 * The pages made for one visitor (../../render/visitorPageKind.ts): each module's kinds get their GET routes and the
 * module its form actions, in one scope per module. Registered before the page routes: such a page is never answered
 * from the page cache nor by the fast path. A kind at a content page's path (the cart) gets no route: the page route
 * hands it the requests it `takes` (./pages.tsx).
 */
import type { FastifyInstance } from 'fastify';
import { siteOf } from '../../modules/site';
import { CLIENT_DIST_DIR, readCheckoutAssets, readClientAssets } from '../../render/manifest';
import type { PageRenderer } from '../../render/renderPath';
import { VisitorPages, type VisitorPageModule } from '../../render/visitorPageKind';
import type { AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';

/** The answerer of every per-visitor page, with the bundle's entries (the page routes warn when it is absent). */
export function visitorPages(app: FastifyInstance, ctx: AppContext, renderer: PageRenderer): VisitorPages {
  const dir = ctx.clientDir ?? CLIENT_DIST_DIR;
  const warn = (message: string) => app.log.debug(message);
  return new VisitorPages(
    renderer,
    { main: readClientAssets(dir, warn), checkout: readCheckoutAssets(dir, warn) },
    (request, reply) => pageCrumb(request, reply, ctx),
  );
}

export async function registerVisitorPages(
  app: FastifyInstance,
  pages: VisitorPages,
  module: VisitorPageModule,
): Promise<void> {
  await app.register(async (scope) => {
    await module.scope?.(scope);
    for (const kind of module.kinds) {
      if ((kind.takes || kind.paths.length > 0) && !kind.load)
        throw new Error(`the page kind ${kind.name} answers an address: it needs a load`);
      if (kind.takes) {
        pages.atContentPath(kind);
        continue;
      }
      for (const path of kind.paths) {
        scope.get(path, kind.route ?? {}, async (request, reply) =>
          pages.answer(kind, { request, reply, site: await siteOf(request) }),
        );
      }
    }
    module.actions?.(scope, pages);
  });
}
