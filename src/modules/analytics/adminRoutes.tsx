/**
 * The owner's report in /admin (issue 25, permission report.read): the report of ./report.ts over 7, 30 or 90 days (a
 * GET form), drawn by ./reportPage.ts as on the token page — SVG charts drawn on the server, each with its table —
 * inside the admin frame. GET /api/admin/report?days=N answers the same report as JSON.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { parseInput } from '../../platform/http/validation';
import { AdminTitle } from '../../ui/admin/AdminFrame';
import { requireStaff, type AdminPages } from '../admin';
import { siteOf } from '../site';
import {
  adminReportApiQuery,
  adminReportPage,
  adminReportQuery,
  adminReportRoute,
  DEFAULT_REPORT_DAYS,
  REPORT_PERIODS,
} from './adminRoutes.schema';
import { analyticsReport } from './report';
import { reportPeriodHtml, reportSectionsHtml } from './reportPage';

export const ADMIN_REPORT_PATH = '/admin/report';

export function registerAnalyticsAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  app.get(ADMIN_REPORT_PATH, { schema: adminReportPage }, (request, reply) =>
    pages.answer(request, reply, { section: ADMIN_REPORT_PATH, permission: 'report.read' }, async ({ site }) => {
      const query = parseInput(adminReportQuery, request.query, 'query');
      const days = query.days ? Number(query.days) : DEFAULT_REPORT_DAYS;
      const report = await analyticsReport(ctx.db, { siteId: site.id, currency: site.currency, days, now: new Date() });
      return {
        title: 'Report',
        body: (
          <>
            <AdminTitle title="Report" />
            <form className="admin-filters" method="get" action={ADMIN_REPORT_PATH}>
              <label htmlFor="report-days">Period</label>
              <select id="report-days" name="days" defaultValue={String(days)}>
                {REPORT_PERIODS.map((d) => (
                  <option key={d} value={d}>{`Last ${d} days`}</option>
                ))}
              </select>
              <button type="submit" className="admin-button">
                Show
              </button>
            </form>
            <div
              className="admin-report"
              // The report's HTML: every text in it is escaped by reportPage.ts.
              dangerouslySetInnerHTML={{ __html: reportPeriodHtml(report) + reportSectionsHtml(report) }}
            />
          </>
        ),
      };
    }),
  );

  app.get('/api/admin/report', { schema: adminReportRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'report.read');
    const site = await siteOf(request);
    const query = parseInput(adminReportApiQuery, request.query, 'query');
    const days = query.days ? Number(query.days) : DEFAULT_REPORT_DAYS;
    return analyticsReport(ctx.db, { siteId: site.id, currency: site.currency, days, now: new Date() });
  });
}
