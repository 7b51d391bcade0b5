/**
 * Form submissions and newsletter addresses in the owner's area (issue 25, "what the storefront gathers"):
 * 'gatherings.read', through the admin module's helpers. /admin/gathered is the section's first page (its forms).
 *
 * - GET /admin/gathered, /admin/gathered/forms → the site's forms with their counts
 * - GET /admin/gathered/forms/:formId[?offset] → its submissions, newest first; …/submissions.csv → all of them as CSV
 * - GET /admin/gathered/newsletter[?status&offset] → the addresses, pending or confirmed; /admin/gathered/newsletter.csv
 * - GET /api/admin/gathered/forms, …/forms/:formId/submissions[.csv], /api/admin/gathered/newsletter[.csv]
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminTitle } from '../../ui/admin/AdminFrame';
import { FormsTable, GATHERED_PATH, GatheredNav, SubmissionsTable, SubscribersTable } from '../../ui/admin/Gathered';
import { currentStaff, requireStaff, type AdminPages } from '../admin';
import {
  formParams,
  formSubmissionsCsvPage,
  formSubmissionsPage,
  formsPage,
  gatheredHomePage,
  listFormsRoute,
  listNewsletterRoute,
  listSubmissionsRoute,
  newsletterCsvPage,
  newsletterCsvRoute,
  newsletterPage,
  newsletterQuery,
  pageQuery,
  submissionsCsvRoute,
} from './adminRoutes.schema';
import {
  formSummaries,
  newestSubscribers,
  pageOfSubmissions,
  pageOfSubscribers,
  submissionsCsv,
  subscribersToCsv,
  SUBMISSIONS_PAGE_SIZE,
  SUBSCRIBERS_PAGE_SIZE,
  type FormSummary,
} from './gathered';

export const FORMS_ADMIN_PATH = `${GATHERED_PATH}/forms`;
export const NEWSLETTER_ADMIN_PATH = `${GATHERED_PATH}/newsletter`;
const section = { section: GATHERED_PATH, permission: 'gatherings.read' } as const;

/** A file name made of safe characters only. */
const fileName = (name: string) => `${name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'form'}.csv`;

const sendCsv = (reply: FastifyReply, name: string, csv: string) =>
  reply
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName(name)}"`)
    .send(csv);

export function registerFormAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const { db } = ctx;

  const findForm = async (siteId: string, formId: string): Promise<FormSummary | undefined> =>
    (await formSummaries(db, siteId)).find((f) => f.id === formId);

  /** A CSV download of an /admin page: the page's answers for nobody or a role without the permission (no data). */
  const csvPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    make: (siteId: string) => Promise<{ name: string; csv: string } | undefined>,
  ) => {
    const staff = await currentStaff(request);
    if (!staff || !staff.can('gatherings.read'))
      return pages.answer(request, reply, section, () => ({ title: '', body: null }));
    const file = await make(staff.siteId);
    if (!file)
      return pages.answer(request, reply, section, () => ({
        title: 'Not found',
        status: 404,
        body: (
          <>
            <AdminTitle title="Not found" />
            <p>There is no such form.</p>
          </>
        ),
      }));
    return sendCsv(reply, file.name, file.csv);
  };

  const formsView = (request: FastifyRequest, reply: FastifyReply) =>
    pages.answer(request, reply, section, async (visit) => ({
      title: 'Form submissions',
      body: (
        <>
          <AdminTitle title="Form submissions" />
          <GatheredNav current={FORMS_ADMIN_PATH} />
          <FormsTable rows={await formSummaries(db, visit.site.id)} />
        </>
      ),
    }));
  app.get(GATHERED_PATH, { schema: gatheredHomePage }, formsView);
  app.get(FORMS_ADMIN_PATH, { schema: formsPage }, formsView);

  app.get(`${FORMS_ADMIN_PATH}/:formId`, { schema: formSubmissionsPage }, (request, reply) =>
    pages.answer(request, reply, section, async (visit) => {
      const { formId } = parseInput(formParams, request.params, 'params');
      const { offset } = parseInput(pageQuery, request.query, 'query');
      const form = await findForm(visit.site.id, formId);
      if (!form)
        return {
          title: 'Not found',
          status: 404,
          body: (
            <>
              <AdminTitle title="Not found" />
              <p>{`There is no form ${formId}.`}</p>
              <p>
                <a href={FORMS_ADMIN_PATH}>Back to the forms</a>
              </p>
            </>
          ),
        };
      const page = await pageOfSubmissions(db, visit.site.id, formId, offset);
      const path = `${FORMS_ADMIN_PATH}/${encodeURIComponent(formId)}`;
      const link = (o: number) => (o > 0 ? `${path}?offset=${o}` : path);
      const title = `${form.name || form.id}: submissions`;
      return {
        title,
        body: (
          <>
            <p>
              <a href={FORMS_ADMIN_PATH}>Forms</a>
            </p>
            <AdminTitle title={title}>
              <a className="admin-button admin-button-quiet" href={`${path}/submissions.csv`}>
                Download CSV
              </a>
            </AdminTitle>
            <p className="admin-muted">{`${form.submissions} submission${form.submissions === 1 ? '' : 's'}, newest first.`}</p>
            <SubmissionsTable rows={page.submissions} />
            <nav className="admin-pager" aria-label="Pages">
              {offset > 0 ? <a href={link(Math.max(0, offset - SUBMISSIONS_PAGE_SIZE))}>Newer</a> : null}
              {page.hasNextPage ? <a href={link(offset + SUBMISSIONS_PAGE_SIZE)}>Older</a> : null}
            </nav>
          </>
        ),
      };
    }),
  );

  app.get(`${FORMS_ADMIN_PATH}/:formId/submissions.csv`, { schema: formSubmissionsCsvPage }, (request, reply) =>
    csvPage(request, reply, async (siteId) => {
      const { formId } = parseInput(formParams, request.params, 'params');
      const form = await findForm(siteId, formId);
      return form && { name: `${form.id}-submissions`, csv: await submissionsCsv(db, siteId, formId) };
    }),
  );

  app.get(NEWSLETTER_ADMIN_PATH, { schema: newsletterPage }, (request, reply) =>
    pages.answer(request, reply, section, async (visit) => {
      const { status, offset } = parseInput(newsletterQuery, request.query, 'query');
      const page = await pageOfSubscribers(db, visit.site.id, { status, offset });
      const link = (o: number, csv = false) => {
        const p = new URLSearchParams();
        if (status) p.set('status', status);
        if (o > 0) p.set('offset', String(o));
        const base = csv ? `${NEWSLETTER_ADMIN_PATH}.csv` : NEWSLETTER_ADMIN_PATH;
        return p.size ? `${base}?${p}` : base;
      };
      return {
        title: 'Newsletter addresses',
        body: (
          <>
            <AdminTitle title="Newsletter addresses">
              <a className="admin-button admin-button-quiet" href={link(0, true)}>
                Download CSV
              </a>
            </AdminTitle>
            <GatheredNav current={NEWSLETTER_ADMIN_PATH} />
            <form className="admin-filters" method="get" action={NEWSLETTER_ADMIN_PATH}>
              <label>
                {'Status '}
                <select name="status" defaultValue={status ?? ''}>
                  <option value="">All</option>
                  <option value="pending">Pending</option>
                  <option value="confirmed">Confirmed</option>
                </select>
              </label>
              <button type="submit" className="admin-button">
                Apply
              </button>
            </form>
            <p className="admin-muted">Newest first. Pending: the e-mailed confirmation link is not used yet.</p>
            <SubscribersTable rows={page.subscribers} />
            <nav className="admin-pager" aria-label="Pages">
              {offset > 0 ? <a href={link(Math.max(0, offset - SUBSCRIBERS_PAGE_SIZE))}>Previous</a> : null}
              {page.hasNextPage ? <a href={link(offset + SUBSCRIBERS_PAGE_SIZE)}>Next</a> : null}
            </nav>
          </>
        ),
      };
    }),
  );

  app.get(`${NEWSLETTER_ADMIN_PATH}.csv`, { schema: newsletterCsvPage }, (request, reply) =>
    csvPage(request, reply, async (siteId) => {
      const { status } = parseInput(newsletterQuery, request.query, 'query');
      return { name: 'newsletter', csv: subscribersToCsv(await newestSubscribers(db, siteId, status)) };
    }),
  );

  // ---------------------------------------------------------------- the JSON calls

  app.get('/api/admin/gathered/forms', { schema: listFormsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    return { forms: await formSummaries(db, staff.siteId) };
  });

  app.get('/api/admin/gathered/forms/:formId/submissions', { schema: listSubmissionsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { formId } = parseInput(formParams, request.params, 'params');
    const { offset } = parseInput(pageQuery, request.query, 'query');
    if (!(await findForm(staff.siteId, formId))) throw new ApiError('form-not-found', `There is no form ${formId}.`);
    const page = await pageOfSubmissions(db, staff.siteId, formId, offset);
    return {
      submissions: page.submissions.map(({ id, createdAt, pagePath, answers }) => ({
        id,
        createdAt,
        pagePath,
        answers,
      })),
      offset,
      hasNextPage: page.hasNextPage,
    };
  });

  app.get(
    '/api/admin/gathered/forms/:formId/submissions.csv',
    { schema: submissionsCsvRoute },
    async (request, reply) => {
      const staff = await requireStaff(request, 'gatherings.read');
      const { formId } = parseInput(formParams, request.params, 'params');
      if (!(await findForm(staff.siteId, formId))) throw new ApiError('form-not-found', `There is no form ${formId}.`);
      return sendCsv(reply, `${formId}-submissions`, await submissionsCsv(db, staff.siteId, formId));
    },
  );

  app.get('/api/admin/gathered/newsletter', { schema: listNewsletterRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const staff = await requireStaff(request, 'gatherings.read');
    const { status, offset } = parseInput(newsletterQuery, request.query, 'query');
    const page = await pageOfSubscribers(db, staff.siteId, { status, offset });
    return {
      subscribers: page.subscribers.map(({ email, status: s, sourceFormId, createdAt, confirmedAt }) => ({
        email,
        status: s,
        sourceFormId,
        createdAt,
        confirmedAt,
      })),
      offset,
      hasNextPage: page.hasNextPage,
    };
  });

  app.get('/api/admin/gathered/newsletter.csv', { schema: newsletterCsvRoute }, async (request, reply) => {
    const staff = await requireStaff(request, 'gatherings.read');
    const { status } = parseInput(newsletterQuery, request.query, 'query');
    return sendCsv(reply, 'newsletter', subscribersToCsv(await newestSubscribers(db, staff.siteId, status)));
  });
}
