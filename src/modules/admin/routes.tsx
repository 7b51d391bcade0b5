/**
 * The owner's area's shell (issue 25): every /admin page and /api/admin call asks for a signed-in staff member with
 * the permission it needs (./access.ts, ./adminPage.tsx).
 *
 * - GET /admin → home: the shop's day (orders to fulfil, sales, stock, restock sign-ups, latest orders) and the
 *   sections, for what the staff member may see (./home.ts); GET /api/admin/home → the same figures as JSON
 * - GET /admin/audit[?cursor] → the audit log, newest first (admins); GET /api/admin/audit → the same as JSON
 *
 * The sections' own pages and calls are registered by their modules (orders, catalog …) with the same helpers.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { parseInput } from '../../platform/http/validation';
import { AdminTitle } from '../../ui/admin/AdminFrame';
import { AuditTable } from '../../ui/admin/AuditTable';
import { AdminHome } from '../../ui/admin/Home';
import { siteOf } from '../site';
import { requireStaff } from './access';
import { type AdminPages } from './adminPage';
import { listAudit } from './audit';
import { homeFigures } from './home';
import { adminAuditPage, adminAuditRoute, adminHomePage, adminHomeRoute, auditQuery } from './routes.schema';
import { ADMIN_PATH } from './sections';

export const AUDIT_PATH = '/admin/audit';

export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  app.get(ADMIN_PATH, { schema: adminHomePage }, (request, reply) =>
    pages.answer(request, reply, { section: ADMIN_PATH, permission: null }, async ({ staff, site }) => ({
      title: 'Home',
      body: (
        <>
          <AdminTitle title={site.title} />
          <AdminHome figures={await homeFigures(ctx.db, site, staff)} email={staff.email} roleName={staff.roleName} />
        </>
      ),
    })),
  );

  app.get('/api/admin/home', { schema: adminHomeRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, null);
    return homeFigures(ctx.db, await siteOf(request), staff);
  });

  app.get(AUDIT_PATH, { schema: adminAuditPage }, (request, reply) =>
    pages.answer(request, reply, { section: AUDIT_PATH, permission: 'audit.read' }, async ({ site }) => {
      const { cursor } = parseInput(auditQuery, request.query, 'query');
      const page = await listAudit(ctx.db, site.id, { cursor });
      return {
        title: 'Audit log',
        body: (
          <>
            <AdminTitle title="Audit log" />
            <AuditTable records={page.records} />
            <nav className="admin-pager" aria-label="Pages">
              {cursor ? <a href={AUDIT_PATH}>Newest</a> : null}
              {page.next ? <a href={`${AUDIT_PATH}?cursor=${encodeURIComponent(page.next)}`}>Older</a> : null}
            </nav>
          </>
        ),
      };
    }),
  );

  app.get('/api/admin/audit', { schema: adminAuditRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'audit.read');
    const site = await siteOf(request);
    const { cursor } = parseInput(auditQuery, request.query, 'query');
    return listAudit(ctx.db, site.id, { cursor });
  });
}
