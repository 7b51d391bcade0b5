/**
 * The site's versions at /admin (issue 26), through the admin module's helpers. Staff with 'versions.read' (every role
 * that enters /admin but reporting) look and compare; admins and website managers ('versions.restore') restore.
 *
 * - GET /admin/versions[?from&to&before&done] → the versions newest first (paged), the compare form (the last two by
 *   default) and the differences as a list; GET /api/admin/versions, /api/admin/versions/compare?from=&to= → JSON
 * - GET /admin/versions/:number/restore → what the restore changes and the confirmation (a required checkbox);
 *   POST there (form: crumb, confirm=yes) → 303 back with a notice; POST /api/admin/versions/:number/restore → JSON
 *
 * A restore is a save like any other (./history.ts → replaceSite: one transaction, a new version with source
 * 'restore' by the staff member's e-mail, live stock kept) with its audit entry in the same transaction.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { describeSiteDiff } from '../../core/siteDiff';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import type { Database } from '../../platform/db/tables';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { CompareForm, DiffList, RestoreForm, VERSIONS_PATH, VersionsTable } from '../../ui/admin/Versions';
import { recordAudit, requireStaff, type AdminPages, type AdminView, type AdminVisit, type Staff } from '../admin';
import { compareVersions, restoreVersion, siteHistory, type HistoryFailure } from './history';
import {
  compareQuery,
  compareVersionsRoute,
  listVersionsRoute,
  restoreConfirmPage,
  restoreFormBody,
  restoreFormRoute,
  restoreVersionRoute,
  versionParams,
  versionsPage,
  versionsPageQuery,
  versionsQuery,
} from './adminRoutes.schema';
import { siteOf } from './requestSite';

const looking = { section: VERSIONS_PATH, permission: 'versions.read' } as const;
const restoring = { section: VERSIONS_PATH, permission: 'versions.restore' } as const;

const apiFailure = (failure: HistoryFailure): ApiError =>
  failure.type === 'UNKNOWN_VERSION'
    ? new ApiError('version-not-found', failure.message)
    : new ApiError('restore-refused', failure.message);

/** The first problem of a query or form, in words for the page. */
function problemOf(result: { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }): string {
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  const what = field === 'from' ? 'The first version' : field === 'to' ? 'The second version' : 'The address';
  return `${what} ${issue?.message ?? 'is not valid'}.`;
}

export function registerVersionsAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const restoreAs = (staff: Staff, siteId: string, number: number) =>
    restoreVersion(ctx.db, siteId, number, {
      createdBy: staff.email,
      alsoInTransaction: async (trx: Kysely<Database>, saved) => {
        await recordAudit(trx, {
          siteId,
          actor: staff.actor,
          action: 'site.restore',
          subject: { type: 'site', id: siteId },
          summary: `Restored version ${number} as version ${saved.version.number}`,
          before: { version: saved.version.number - 1 },
          after: { version: saved.version.number, restored: number },
        });
      },
    });

  const versionsView = async (
    visit: AdminVisit,
    query: { from?: number; to?: number; before?: number; limit?: number },
    notice?: { kind: 'done' | 'error'; text: string },
    status = 200,
  ): Promise<AdminView> => {
    const siteId = visit.site.id;
    const history = await siteHistory(ctx.db, siteId, {
      limit: query.limit ?? 20,
      ...(query.before !== undefined ? { before: query.before } : {}),
    });
    const latest = history.latest;
    const to = query.to ?? latest ?? undefined;
    const from = query.from ?? (to !== undefined && to > 1 ? to - 1 : undefined);
    let compared: AdminView['body'] = null;
    let problem = notice;
    let answerStatus = status;
    if (from !== undefined && to !== undefined && !notice) {
      const result = await compareVersions(ctx.db, siteId, from, to);
      if (result.ok)
        compared = (
          <DiffList heading={`From version ${from} to version ${to}`} lines={describeSiteDiff(result.value.diff)} />
        );
      else {
        problem = { kind: 'error', text: result.error.message };
        answerStatus = 404;
      }
    }
    return {
      title: 'Versions',
      status: answerStatus,
      body: (
        <>
          <AdminTitle title="Versions" />
          {problem ? <AdminNotice kind={problem.kind}>{problem.text}</AdminNotice> : null}
          <p className="admin-muted">
            Every save of the site (an import, a restore) is a version. Compare any two, or restore one: the restore is
            a new version, and live stock stays as sold.
          </p>
          <CompareForm from={from} to={to} latest={latest} />
          {compared}
          <h2>History</h2>
          <VersionsTable
            rows={history.versions}
            latest={latest}
            canRestore={visit.staff.can('versions.restore')}
            next={history.next}
            first={query.before === undefined}
          />
        </>
      ),
    };
  };

  app.get(VERSIONS_PATH, { schema: versionsPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const parsed = versionsPageQuery.safeParse(request.query);
      if (!parsed.success) return versionsView(visit, {}, { kind: 'error', text: problemOf(parsed) }, 400);
      const { done, ...query } = parsed.data;
      return versionsView(visit, query, done ? { kind: 'done', text: done } : undefined);
    }),
  );

  const confirmView = async (visit: AdminVisit, number: number, notice?: string, status = 200): Promise<AdminView> => {
    const history = await siteHistory(ctx.db, visit.site.id, { limit: 1 });
    const compared = await compareVersions(ctx.db, visit.site.id, history.latest ?? number, number);
    const title = `Restore version ${number}`;
    if (!compared.ok)
      return {
        title,
        status: 404,
        body: (
          <>
            <AdminTitle title={title} />
            <AdminNotice kind="error">{compared.error.message}</AdminNotice>
            <p>
              <a href={VERSIONS_PATH}>Back to the versions</a>
            </p>
          </>
        ),
      };
    return {
      title,
      status,
      body: (
        <>
          <AdminTitle title={title} />
          {notice ? <AdminNotice kind="error">{notice}</AdminNotice> : null}
          <RestoreForm
            number={number}
            latest={history.latest}
            lines={describeSiteDiff(compared.value.diff)}
            crumb={visit.crumb}
            crumbField={visit.crumbField}
          />
        </>
      ),
    };
  };

  /** The version number of the address, or the page that says it is not one (404: there is no such version). */
  const numberOf = (request: FastifyRequest): number | undefined => {
    const parsed = versionParams.safeParse(request.params);
    return parsed.success ? parsed.data.number : undefined;
  };
  const noSuchVersion = (visit: AdminVisit, raw: unknown): AdminView => ({
    title: 'No such version',
    status: 404,
    body: (
      <>
        <AdminTitle title="No such version" />
        <AdminNotice kind="error">{`'${String(raw).slice(0, 40)}' is not a version of this site.`}</AdminNotice>
        <p>
          <a href={VERSIONS_PATH}>Back to the versions</a>
        </p>
      </>
    ),
  });

  app.get(`${VERSIONS_PATH}/:number/restore`, { schema: restoreConfirmPage }, (request, reply) =>
    pages.answer(request, reply, restoring, (visit) => {
      const number = numberOf(request);
      if (number === undefined) return noSuchVersion(visit, (request.params as { number?: unknown }).number);
      return confirmView(visit, number);
    }),
  );

  app.get('/api/admin/versions', { schema: listVersionsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'versions.read');
    const site = await siteOf(request);
    const query = parseInput(versionsQuery, request.query, 'query');
    return siteHistory(ctx.db, site.id, {
      limit: query.limit ?? 20,
      ...(query.before !== undefined ? { before: query.before } : {}),
    });
  });

  app.get('/api/admin/versions/compare', { schema: compareVersionsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'versions.read');
    const site = await siteOf(request);
    const { from, to } = parseInput(compareQuery, request.query, 'query');
    const compared = await compareVersions(ctx.db, site.id, from, to);
    if (!compared.ok) throw apiFailure(compared.error);
    return { ...compared.value, lines: describeSiteDiff(compared.value.diff) };
  });

  app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 8 * 1024 });

    scope.post(`${VERSIONS_PATH}/:number/restore`, { schema: restoreFormRoute }, (request, reply: FastifyReply) =>
      pages.action(request, reply, restoring, async (visit) => {
        const number = numberOf(request);
        if (number === undefined) return noSuchVersion(visit, (request.params as { number?: unknown }).number);
        const body = restoreFormBody.safeParse(request.body ?? {});
        if (!body.success || body.data.confirm !== 'yes')
          return confirmView(visit, number, `Tick “Yes, restore version ${number}” to restore it.`, 422);
        const restored = await restoreAs(visit.staff, visit.site.id, number);
        if (!restored.ok)
          return restored.error.type === 'UNKNOWN_VERSION'
            ? versionsView(visit, {}, { kind: 'error', text: restored.error.message }, 404)
            : versionsView(visit, {}, { kind: 'error', text: restored.error.message }, 409);
        const made = restored.value.version.number;
        const done = `Restored version ${number} as version ${made}. Live stock stays as sold.`;
        return `${VERSIONS_PATH}?from=${number}&to=${made}&done=${encodeURIComponent(done)}`;
      }),
    );

    scope.post(`/api/admin/versions/:number/restore`, { schema: restoreVersionRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'versions.restore');
      const site = await siteOf(request);
      const { number } = parseInput(versionParams, request.params, 'params');
      const restored = await restoreAs(staff, site.id, number);
      if (!restored.ok) throw apiFailure(restored.error);
      return { restored: number, version: restored.value.version };
    });
  });
}
