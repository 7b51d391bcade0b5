/**
 * How an /admin page is answered: the signed-in staff member with the page's permission gets the page in the admin
 * frame; nobody signed in is sent to the sign-in (303, coming back here after); a role without the permission gets a
 * 403 page that shows no data. Every answer is private: `Cache-Control: no-store`, `noindex`, never the page cache.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { CRUMB_FIELD } from '../../core/crumb';
import { entersAdmin, type StaffPermission } from '../../core/staffAccess';
import type { AppContext } from '../../platform/http/appContext';
import { pageCrumb } from '../../platform/http/crumb';
import { renderDocument } from '../../render/document';
import { ADMIN_ENTRY, CLIENT_DIST_DIR, readClientAssets, type ClientAssets } from '../../render/manifest';
import { AdminFrame, AdminTitle } from '../../ui/admin/AdminFrame';
import { siteOf, type Site } from '../site';
import { currentSiteUser } from '../siteUsers';
import { notAllowedMessage, staffFrom, type Staff } from './access';
import { ADMIN_SECTIONS } from './sections';

/** What a page's builder is given. */
export interface AdminVisit {
  staff: Staff;
  site: Site;
  /** The crumb every form of the page posts back (hidden field `crumbField`). */
  crumb: string;
  crumbField: string;
}

export interface AdminView {
  title: string;
  body: ReactNode;
  status?: number;
}

export const SIGN_IN_PATH = '/account/sign-in';

export class AdminPages {
  private readonly assets: ClientAssets;

  constructor(
    private readonly ctx: AppContext,
    warn: (message: string) => void,
  ) {
    this.assets = readClientAssets(ctx.clientDir ?? CLIENT_DIST_DIR, warn, ADMIN_ENTRY);
  }

  /**
   * Answers an admin page of `section` (its path in the navigation) that needs `permission` (null: any staff), built
   * by `build` once access is settled.
   */
  async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { section: string; permission: StaffPermission | null },
    build: (visit: AdminVisit) => Promise<AdminView> | AdminView,
  ): Promise<FastifyReply> {
    const site = await siteOf(request);
    const user = await currentSiteUser(request);
    if (!user) {
      return this.private(reply).redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(request.url)}`, 303);
    }
    const staff = staffFrom(user);
    const visit: AdminVisit = { staff, site, crumb: pageCrumb(request, reply, this.ctx), crumbField: CRUMB_FIELD };
    const allowed = options.permission === null ? entersAdmin(user.role) : staff.can(options.permission);
    const view: AdminView = allowed
      ? await build(visit)
      : {
          title: 'Not allowed',
          status: 403,
          body: (
            <>
              <AdminTitle title="Not allowed" />
              <p>{notAllowedMessage(user.role)}</p>
            </>
          ),
        };
    return this.send(reply, visit, options.section, view);
  }

  /**
   * Answers a form POST (no JavaScript) of `section` that needs `permission`: nobody signed in → the sign-in, a role
   * without it → the 403 page (nothing changes, no data); else `act` runs and answers the path to go back to (303
   * there, with its notice in the path) or a view (the page again with what was refused, at its status).
   */
  async action(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { section: string; permission: StaffPermission },
    act: (visit: AdminVisit) => Promise<string | AdminView>,
  ): Promise<FastifyReply> {
    const user = await currentSiteUser(request);
    if (!user || !staffFrom(user).can(options.permission))
      return this.answer(request, reply, options, () => ({ title: '', body: null }));
    const staff = staffFrom(user);
    const visit: AdminVisit = {
      staff,
      site: await siteOf(request),
      crumb: pageCrumb(request, reply, this.ctx),
      crumbField: CRUMB_FIELD,
    };
    const outcome = await act(visit);
    if (typeof outcome === 'string') return this.private(reply).redirect(outcome, 303);
    return this.send(reply, visit, options.section, outcome);
  }

  /** Sends `view` in the frame (for a POST that shows the page again with an error). */
  send(reply: FastifyReply, visit: AdminVisit, section: string, view: AdminView): FastifyReply {
    const { staff, site } = visit;
    const sections = entersAdmin(staff.role)
      ? ADMIN_SECTIONS.filter((s) => s.permission === null || staff.can(s.permission))
      : [];
    const html = renderDocument(
      <AdminFrame
        siteTitle={site.title}
        staff={{ email: staff.email, role: staff.roleName }}
        sections={sections}
        current={section}
        crumb={visit.crumb}
        crumbField={visit.crumbField}
      >
        {view.body}
      </AdminFrame>,
      {
        title: `${view.title} · ${site.title} admin`,
        description: `${site.title}: the owner's area`,
        lang: site.settings.locale,
        noindex: true,
        // Never a Referer to another site; the area's own forms keep their Origin (the crumb check reads it).
        noReferrer: 'same-origin',
      },
      this.assets,
    );
    return this.private(reply)
      .code(view.status ?? 200)
      .type('text/html; charset=utf-8')
      .send(html);
  }

  /**
   * Never cached, never indexed, and its addresses (orders, customers' e-mails) never sent to another site: the
   * referrer only to this site's own pages. Not 'no-referrer', with which a browser posts the page's forms with
   * `Origin: null`, refused by the crumb check as another website's (every admin form would fail).
   */
  private private(reply: FastifyReply): FastifyReply {
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .header('referrer-policy', 'same-origin');
  }
}
