/**
 * Pages, collections and blocks at /admin (issue 26), through the admin module's helpers. Staff with 'pages.read' look
 * and preview; 'pages.edit' (admins, website managers, editors) save, publish and order; 'pages.draft' (a draft editor
 * too) creates, saves and deletes a page with the editor statuses its role may set (src/core/publishing.ts, checked by
 * ./pageEdits.ts at the save: a draft editor's pages are Draft or Needs Review) — each save a new site version by its
 * author, through `editSite` (./pageEdits.ts), with its audit entry in the save's transaction.
 *
 * - GET /admin/pages → the pages in navigation order (move up / down), the collections (rename, move), the new-page
 *   form; POST /admin/pages (create) → 303 to the new page's editor
 * - GET /admin/pages/:id → the editor: settings, blocks, add a block, the preview frame, delete; POST there → save,
 *   with the form's op (save, up:N, down:N, remove:N, add) → 303 back with a notice, or the form again (4xx) with each
 *   problem by its field; a page changed meanwhile is refused (409) with what changed and by whom
 * - GET /admin/pages/:id/preview → the stored page as staff see it (a draft too, which the store answers 404); POST
 *   there (the editor's form, `formtarget` the frame) → the unsaved draft as the store would show it:
 *   PageRenderer.renderDraft, the storefront's own render
 * - POST /admin/pages/:id/move, /delete; /admin/collections/:id (rename), /admin/collections/:id/move
 * - JSON twins under /api/admin/pages and /api/admin/collections (./pagesAdminRoutes.schema.ts)
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../core/html';
import { deletionRefusal, publicationRefusal, shownStatus, type PublicationStatus } from '../../core/publishing';
import { checkPagePath, normalisePagePath } from '../../core/pageEditor';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import type { PageRenderer } from '../../render/renderPath';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { NEW_COLLECTION_PATH } from '../../ui/admin/NewCollection';
import {
  COLLECTIONS_PATH,
  CollectionsTable,
  CreatePageForm,
  DeletePageForm,
  PAGES_PATH,
  PageEditor,
  PagesTable,
  pagePath,
  ProblemList,
  type EditorChoices,
} from '../../ui/admin/Pages';
import { doneOf, requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit, type Staff } from '../admin';
import { hashPassword } from '../siteUsers';
import { readStatusChange, statusFieldsOf, whereItIs, type StatusChange } from './statusForm';
import {
  createPage,
  deletePage,
  editorSite,
  moveCollection,
  movePage,
  renameCollection,
  updatePage,
  type Direction,
  type EditBy,
  type EditorSite,
  type PageChange,
} from './pageEdits';
import {
  ADDABLE_BLOCKS,
  applyBlockAction,
  BLOCK_NAMES,
  blockAction,
  blockChoices,
  draftFromForm,
  problemLabel,
  schemaProblems,
  type FieldProblem,
  type FormBody,
  type NewVideo,
} from './pageForm';
import {
  createPageBody,
  createPageForm,
  createPageRoute,
  deletePageForm,
  deletePageRoute,
  deleteQuery,
  getPageRoute,
  listPagesRoute,
  moveBody,
  moveCollectionForm,
  moveCollectionRoute,
  movePageForm,
  movePageRoute,
  pageEditorPage,
  pageParams,
  pagesPage,
  previewBody,
  previewPage,
  previewPageForm,
  previewPageRoute,
  renameCollectionBody,
  renameCollectionForm,
  renameCollectionRoute,
  savePageForm,
  updatePageBody,
  updatePageRoute,
} from './pagesAdminRoutes.schema';
import { apiFailure, failureStatus } from './editFailure';
import { siteOf, type RequestSite } from './requestSite';
import type { Page } from './schema';

const looking = { section: PAGES_PATH, permission: 'pages.read' } as const;
const editing = { section: PAGES_PATH, permission: 'pages.edit' } as const;
/** Creating, saving and deleting a page: also a draft editor's (the save checks which statuses: ./pageEdits.ts). */
const drafting = { section: PAGES_PATH, permission: 'pages.draft' } as const;

/** A page as the API shows it: never its password. */
const pageView = (page: Page) => {
  const { password, ...rest } = page;
  return { ...rest, pageType: page.pageType ?? 2, locked: password !== undefined };
};

/** A page of the lists (the editor's table and the JSON list), with the status the owner sees now. */
const pageRow = (p: Page, now: number) => ({
  id: p.id,
  title: p.title,
  path: p.path,
  showInNavigation: p.showInNavigation,
  locked: p.password !== undefined,
  blocks: p.blocks.length,
  status: shownStatus(p, now),
});

const choicesOf = (site: EditorSite): EditorChoices => ({
  ...blockChoices(site),
  addable: ADDABLE_BLOCKS.map((kind) => ({ kind, name: BLOCK_NAMES[kind] })),
  blockNames: BLOCK_NAMES,
});

/** A number from a form field, or undefined. */
const formVersion = (body: FormBody): number => {
  const value = Number(typeof body.baseVersion === 'string' ? body.baseVersion : NaN);
  return Number.isInteger(value) && value > 0 && value < 2_147_483_648 ? value : 0;
};
const text = (body: FormBody, name: string): string => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** The page whose id is the address's, or undefined (an id that is not one is no page either). */
const pageIdOf = (request: FastifyRequest): string | undefined => {
  const parsed = pageParams.safeParse(request.params);
  return parsed.success ? parsed.data.id : undefined;
};

/**
 * A JSON call's `status` and `publishAt` (in the site's time zone or with its offset, only with 'scheduled', after
 * now — or the stored page's own, which stays): nothing when it sends no status; a 400 naming the field when wrong.
 */
function statusOfCall(
  typed: PublicationStatus | undefined,
  publishAt: string | undefined,
  timeZone: string,
  stored?: Page,
): StatusChange | undefined {
  if (publishAt !== undefined && typed !== 'scheduled')
    throw new ApiError('invalid-input', "publishAt is only for status 'scheduled'", { field: 'publishAt' });
  if (typed === undefined) return undefined;
  const status = readStatusChange(typed, publishAt, timeZone, Date.now(), stored);
  if (!status.ok)
    throw new ApiError('invalid-input', `${status.error.field}: ${status.error.message}`, {
      field: status.error.field,
    });
  return status.value;
}

/**
 * Why `staff` may not save `page` at all (with any status), or null when it may: the role may not change pages, or a
 * draft editor's page is live.
 */
const saveRefusal = (staff: Staff, page: Page, now: number): string | null => {
  if (!staff.can('pages.draft')) return `Your account (${staff.roleName}) may look and preview, not save.`;
  if (page.path === '/' && !staff.can('pages.edit'))
    return 'A draft editor changes drafts only: the home page (/) is always published.';
  return publicationRefusal(staff.role, 'page', shownStatus(page, now), 'draft');
};

export function registerPagesAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pages: AdminPages,
  renderer: PageRenderer,
): void {
  const by = (staff: Staff, siteId: string, baseVersion: number): EditBy => ({ staff, siteId, baseVersion });
  const readSiteOf = async (siteId: string): Promise<EditorSite> => {
    const site = await editorSite(ctx.db, siteId);
    if (!site) throw new ApiError('site-not-found', `There is no site '${siteId}'.`);
    return site;
  };

  // ---------------------------------------------------------------- the pages list

  const listView = async (
    visit: AdminVisit,
    options: {
      notice?: { kind: 'done' | 'error'; text: string };
      create?: {
        values: { title: string; path: string; status?: string; publishAt?: string };
        problems: Record<string, string>;
      };
      status?: number;
    } = {},
  ): Promise<AdminView> => {
    const site = await readSiteOf(visit.site.id);
    const canEdit = visit.staff.can('pages.edit');
    const canCreate = visit.staff.can('pages.draft');
    const forms = { crumb: visit.crumb, crumbField: visit.crumbField, version: site.version, canEdit };
    const now = Date.now();
    return {
      title: 'Pages',
      status: options.status ?? 200,
      body: (
        <>
          <AdminTitle title="Pages" />
          {options.notice ? <AdminNotice kind={options.notice.kind}>{options.notice.text}</AdminNotice> : null}
          <p className="admin-muted">
            {site.menuSet
              ? 'The header shows the menu set in the design; pages hidden from navigation are still at their URL.'
              : 'The header shows the home page, the collections, then the pages in this order; a page hidden from navigation is still at its URL.'}{' '}
            Every save is a new version (see Versions).
          </p>
          <PagesTable {...forms} menuSet={site.menuSet} rows={site.pages.map((p) => pageRow(p, now))} />
          <h2>Collections</h2>
          <CollectionsTable {...forms} rows={site.collections} />
          {canEdit ? (
            <p>
              <a href={NEW_COLLECTION_PATH}>New collection</a> (a shop or a blog)
            </p>
          ) : null}
          {canCreate ? (
            <CreatePageForm
              {...forms}
              {...(options.create ? { values: options.create.values, problems: options.create.problems } : {})}
              status={statusFieldsOf(
                null,
                visit.staff.role,
                'page',
                visit.site.settings.timeZone,
                now,
                options.create?.values.status ? options.create.values : undefined,
              )}
            />
          ) : (
            <p className="admin-muted">{`Your account (${visit.staff.roleName}) may look at the pages, not change them.`}</p>
          )}
        </>
      ),
    };
  };

  app.get(PAGES_PATH, { schema: pagesPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const done = doneOf(request.query);
      return listView(visit, done ? { notice: { kind: 'done', text: done } } : {});
    }),
  );

  // ---------------------------------------------------------------- a page's editor

  interface EditorState {
    /** The draft to show instead of the stored page (a refused save keeps what was typed)… */
    draft?: Page;
    /** …and the version its form was made from: saved again, it is still checked against others' saves since. */
    baseVersion?: number;
    problems?: readonly FieldProblem[];
    /** The Status fieldset as sent (a refused save shows it again as chosen). */
    typedStatus?: { status?: string; publishAt?: string };
    notice?: { kind: 'done' | 'error'; text: string; lines?: readonly string[] };
    status?: number;
    /** The add form as typed (a refused new block is shown again with its fields). */
    adding?: { kind: string; video: NewVideo };
  }

  const noSuchPage = (id: string | undefined): AdminView => ({
    title: 'No such page',
    status: 404,
    body: (
      <>
        <AdminTitle title="No such page" />
        <AdminNotice kind="error">{`There is no page '${String(id ?? '').slice(0, 64)}' on this site.`}</AdminNotice>
        <p>
          <a href={PAGES_PATH}>Back to the pages</a>
        </p>
      </>
    ),
  });

  const editorView = async (visit: AdminVisit, id: string | undefined, state: EditorState = {}): Promise<AdminView> => {
    const site = await readSiteOf(visit.site.id);
    const stored = site.pages.find((p) => p.id === id);
    if (!stored) return noSuchPage(id);
    const page = state.draft ?? stored;
    const problems = state.problems ?? [];
    const byField = Object.fromEntries(problems.map((p) => [p.field, p.message]));
    const now = Date.now();
    const refusal = saveRefusal(visit.staff, stored, now);
    const canEdit = refusal === null;
    const timeZone = visit.site.settings.timeZone;
    return {
      title: `Edit ${stored.title}`,
      status: state.status ?? 200,
      body: (
        <>
          <AdminTitle title={`Edit “${stored.title}”`}>
            <a href={stored.path}>View on the store</a>
            <a href={PAGES_PATH}>All pages</a>
          </AdminTitle>
          {state.notice ? (
            <AdminNotice kind={state.notice.kind}>
              {state.notice.text}
              {state.notice.lines?.length ? (
                <>
                  {' What changed: '}
                  {state.notice.lines.join('; ')}.
                </>
              ) : null}
            </AdminNotice>
          ) : null}
          {refusal === null ? null : <AdminNotice kind="done">{refusal}</AdminNotice>}
          <ProblemList problems={problems.map((p) => ({ ...p, label: problemLabel(page, p.field) }))} />
          <PageEditor
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            version={state.draft && state.baseVersion ? state.baseVersion : site.version}
            page={{ ...page, locked: stored.password !== undefined, blocks: page.blocks as never }}
            choices={choicesOf(site)}
            problems={byField}
            canEdit={canEdit}
            {...(canEdit && stored.path !== '/'
              ? {
                  status: statusFieldsOf(stored, visit.staff.role, 'page', timeZone, now, state.typedStatus),
                }
              : {})}
            {...(state.adding ? { adding: state.adding } : {})}
          />
          {canEdit &&
          stored.path !== '/' &&
          deletionRefusal(visit.staff.role, 'page', shownStatus(stored, now)) === null ? (
            <DeletePageForm crumb={visit.crumb} crumbField={visit.crumbField} version={site.version} page={stored} />
          ) : null}
        </>
      ),
    };
  };

  app.get(`${PAGES_PATH}/:id`, { schema: pageEditorPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const done = doneOf(request.query);
      return editorView(visit, pageIdOf(request), done ? { notice: { kind: 'done', text: done } } : {});
    }),
  );

  /** Saves a page's change as staff; the failure as the editor shows it. */
  const savePage = async (
    staff: Staff,
    siteId: string,
    baseVersion: number,
    id: string,
    change: PageChange,
    note?: string,
  ) => {
    const patch = { ...change };
    if (typeof patch.password === 'string') patch.password = await hashPassword(patch.password);
    return updatePage(ctx.db, by(staff, siteId, baseVersion), id, patch, note);
  };

  // ---------------------------------------------------------------- the preview

  const sendPreview = async (reply: FastifyReply, site: RequestSite, page: Page) => {
    const rendered = await renderer.renderDraft(site, page);
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .code(200)
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  };

  /** A draft that cannot be shown: what to correct, in the frame. */
  const sendNotShown = (reply: FastifyReply, page: Page, problems: readonly FieldProblem[]) =>
    reply
      .header('cache-control', 'no-store')
      .code(400)
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Preview not shown</title></head><body><main><h1>Preview not shown</h1><p>Correct these first:</p><ul>${problems
          .map((p) => `<li>${escapeHtml(`${problemLabel(page, p.field)}: ${p.message}`)}</li>`)
          .join('')}</ul></main></body></html>`,
      );

  app.get(`${PAGES_PATH}/:id/preview`, { schema: previewPage }, async (request, reply) => {
    await requireStaff(request, 'pages.read');
    const site = await siteOf(request);
    const stored = (await readSiteOf(site.id)).pages.find((p) => p.id === pageIdOf(request));
    if (!stored) throw new ApiError('page-not-found', 'There is no such page on this site.');
    return sendPreview(reply, site, stored);
  });

  // ---------------------------------------------------------------- the JSON calls (reads)

  app.get('/api/admin/pages', { schema: listPagesRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'pages.read');
    const site = await readSiteOf((await siteOf(request)).id);
    return {
      version: site.version,
      menuSet: site.menuSet,
      pages: site.pages.map((p) => pageRow(p, Date.now())),
      collections: site.collections,
    };
  });

  app.get('/api/admin/pages/:id', { schema: getPageRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'pages.read');
    const { id } = parseInput(pageParams, request.params, 'params');
    const site = await readSiteOf((await siteOf(request)).id);
    const page = site.pages.find((p) => p.id === id);
    if (!page) throw new ApiError('page-not-found', `There is no page '${id}' on this site.`);
    return { version: site.version, page: pageView(page) };
  });

  // ---------------------------------------------------------------- writes: forms and JSON calls

  app.register(async (scope) => {
    // An editor's form holds every block's fields (a gallery's images' captions): more than the other admin forms.
    await scope.register(fastifyFormbody, { bodyLimit: 512 * 1024 });

    scope.post(PAGES_PATH, { schema: createPageForm }, (request, reply) =>
      pages.action(request, reply, drafting, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const values = {
          title: text(body, 'title'),
          path: text(body, 'path'),
          status: text(body, 'status'),
          publishAt: text(body, 'publishAt'),
        };
        const problems: Record<string, string> = {};
        const status =
          body.status === undefined
            ? undefined
            : readStatusChange(body.status, body.publishAt, visit.site.settings.timeZone, Date.now());
        if (status && !status.ok) problems[status.error.field] = status.error.message;
        if (values.title.trim() === '') problems.title = 'must not be empty';
        else if (values.title.length > 200) problems.title = 'must be at most 200 characters';
        const site = await readSiteOf(visit.site.id);
        const path = checkPagePath(values.path, {
          pages: site.pages.map((p) => p.path),
          collections: site.collections.map((c) => c.slug),
        });
        if (!path.ok) problems.path = path.message;
        if (Object.keys(problems).length)
          return listView(visit, {
            create: { values, problems },
            status: !path.ok && path.message.startsWith('This') && !problems.title ? 409 : 400,
            notice: { kind: 'error', text: `Not created: ${Object.values(problems).join('; ')}.` },
          });
        const made = await createPage(ctx.db, by(visit.staff, visit.site.id, formVersion(body)), {
          title: values.title,
          path: values.path,
          showInNavigation: text(body, 'showInNavigation') === 'yes',
          ...(status?.ok ? status.value : {}),
        });
        if (!made.ok)
          return listView(visit, {
            create: { values, problems: made.error.type === 'FORBIDDEN' ? { status: made.error.message } : {} },
            status: failureStatus(made.error),
            notice: { kind: 'error', text: made.error.message },
          });
        const page = made.value.page!;
        const where = whereItIs(shownStatus(page, Date.now()), page.publishAt, visit.site.settings.timeZone);
        return withDone(pagePath(page.id), `Created “${page.title}” (version ${made.value.version}). ${where}`);
      }),
    );

    scope.post(`${PAGES_PATH}/:id`, { schema: savePageForm }, (request, reply) =>
      pages.action(request, reply, drafting, async (visit) => {
        const id = pageIdOf(request);
        const body = (request.body ?? {}) as FormBody;
        const site = await readSiteOf(visit.site.id);
        const stored = site.pages.find((p) => p.id === id);
        if (!stored || !id) return noSuchPage(id);
        const baseVersion = formVersion(body);
        const draft = draftFromForm(site, stored, body);
        const action = blockAction(body);
        // The Status fieldset (the home page's form has none: it is always published).
        const timeZone = visit.site.settings.timeZone;
        const typedStatus = { status: text(body, 'status'), publishAt: text(body, 'publishAt') };
        const status =
          body.status === undefined
            ? undefined
            : readStatusChange(body.status, body.publishAt, timeZone, Date.now(), stored);
        const problems = [...draft.problems, ...(status && !status.ok ? [status.error] : [])];
        if (text(body, 'blockCount') !== String(stored.blocks.length) && action.kind !== 'save')
          return editorView(visit, id, {
            status: 409,
            notice: {
              kind: 'error',
              text: 'Not saved: the blocks of this page changed since you opened it. Reload to see the changes, then make yours again.',
            },
          });
        if (problems.length)
          return editorView(visit, id, { draft: draft.page, baseVersion, problems, typedStatus, status: 400 });
        const applied = applyBlockAction(draft.page.blocks, action, blockChoices(site));
        if (!applied.ok)
          return typeof applied.error === 'string'
            ? editorView(visit, id, {
                draft: draft.page,
                baseVersion,
                status: 409,
                notice: { kind: 'error', text: applied.error },
              })
            : editorView(visit, id, {
                draft: draft.page,
                baseVersion,
                status: 400,
                problems: applied.error,
                ...(action.kind === 'add' ? { adding: { kind: action.block, video: action.video } } : {}),
              });
        const chosen: StatusChange | undefined = status?.ok ? status.value : undefined;
        const change: PageChange = {
          ...chosen,
          title: draft.page.title,
          path: draft.page.path,
          showInNavigation: draft.page.showInNavigation,
          blocks: applied.value.blocks,
          ...('set' in draft.password
            ? { password: draft.password.set }
            : 'remove' in draft.password
              ? { password: null }
              : {}),
        };
        const saved = await savePage(visit.staff, visit.site.id, baseVersion, id, change);
        if (!saved.ok && saved.error.type === 'FORBIDDEN')
          return editorView(visit, id, {
            draft: draft.page,
            baseVersion,
            typedStatus,
            problems: [{ field: 'status', message: saved.error.message }],
            status: 403,
          });
        if (!saved.ok) {
          const stale = saved.error.type === 'STALE';
          return editorView(visit, id, {
            // A stale save shows the page as it is now (the form's values were over an older one).
            ...(stale ? {} : { draft: draft.page, baseVersion }),
            status: failureStatus(saved.error),
            notice: {
              kind: 'error',
              text: saved.error.message,
              ...(saved.error.type === 'STALE' ? { lines: saved.error.changes } : {}),
            },
          });
        }
        const page = saved.value.page!;
        const where = whereItIs(shownStatus(page, Date.now()), page.publishAt, timeZone);
        const done = `${applied.value.done === 'Saved.' ? 'Saved' : applied.value.done.replace(/\.$/, '')}: version ${saved.value.version}. ${where}`;
        const anchor = applied.value.focus !== null ? `#block-${applied.value.focus + 1}` : '';
        return `${withDone(pagePath(page.id), done)}${anchor}`;
      }),
    );

    scope.post(`${PAGES_PATH}/:id/preview`, { schema: previewPageForm }, async (request, reply) => {
      await requireStaff(request, 'pages.read');
      const site = await siteOf(request);
      const data = await readSiteOf(site.id);
      const stored = data.pages.find((p) => p.id === pageIdOf(request));
      if (!stored) throw new ApiError('page-not-found', 'There is no such page on this site.');
      const draft = draftFromForm(data, stored, (request.body ?? {}) as FormBody);
      if (draft.problems.length) return sendNotShown(reply, draft.page, draft.problems);
      return sendPreview(reply, site, draft.page);
    });

    const moveAction = (kind: 'page' | 'collection') => (request: FastifyRequest, reply: FastifyReply) =>
      pages.action(request, reply, editing, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const id = pageIdOf(request) ?? '';
        const direction: Direction = text(body, 'direction') === 'up' ? 'up' : 'down';
        const edit = by(visit.staff, visit.site.id, formVersion(body));
        const moved =
          kind === 'page'
            ? await movePage(ctx.db, edit, id, direction)
            : await moveCollection(ctx.db, edit, id, direction);
        if (!moved.ok)
          return listView(visit, {
            status: failureStatus(moved.error),
            notice: { kind: 'error', text: moved.error.message },
          });
        return withDone(PAGES_PATH, `Moved ${direction} (version ${moved.value.version}).`);
      });
    scope.post(`${PAGES_PATH}/:id/move`, { schema: movePageForm }, moveAction('page'));
    scope.post(`${COLLECTIONS_PATH}/:id/move`, { schema: moveCollectionForm }, moveAction('collection'));

    scope.post(`${COLLECTIONS_PATH}/:id`, { schema: renameCollectionForm }, (request, reply) =>
      pages.action(request, reply, editing, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const title = text(body, 'title').trim();
        if (title === '' || title.length > 200)
          return listView(visit, {
            status: 400,
            notice: { kind: 'error', text: 'Not renamed: a collection’s name must be 1 to 200 characters.' },
          });
        const renamed = await renameCollection(
          ctx.db,
          by(visit.staff, visit.site.id, formVersion(body)),
          pageIdOf(request) ?? '',
          title,
        );
        if (!renamed.ok)
          return listView(visit, {
            status: failureStatus(renamed.error),
            notice: { kind: 'error', text: renamed.error.message },
          });
        return withDone(PAGES_PATH, `Renamed to “${title}” (version ${renamed.value.version}).`);
      }),
    );

    scope.post(`${PAGES_PATH}/:id/delete`, { schema: deletePageForm }, (request, reply) =>
      pages.action(request, reply, drafting, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const id = pageIdOf(request);
        if (text(body, 'confirm') !== 'yes')
          return editorView(visit, id, {
            status: 422,
            notice: { kind: 'error', text: 'Tick “Yes, delete” to delete the page.' },
          });
        const site = await readSiteOf(visit.site.id);
        const page = site.pages.find((p) => p.id === id);
        if (!page || !id) return noSuchPage(id);
        const deleted = await deletePage(ctx.db, by(visit.staff, visit.site.id, formVersion(body)), id);
        if (!deleted.ok)
          return editorView(visit, id, {
            status: failureStatus(deleted.error),
            notice: { kind: 'error', text: deleted.error.message },
          });
        return withDone(PAGES_PATH, `Deleted “${page.title}” (version ${deleted.value.version}).`);
      }),
    );

    // The JSON twins.

    scope.post('/api/admin/pages', { schema: createPageRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.draft');
      const site = await siteOf(request);
      const { status: typedStatus, publishAt, ...body } = parseInput(createPageBody, request.body, 'body');
      const status = statusOfCall(typedStatus, publishAt, site.settings.timeZone);
      const format = checkPagePath(body.path, { pages: [], collections: [] });
      if (!format.ok) throw new ApiError('invalid-input', format.message, { field: 'path' });
      const made = await createPage(ctx.db, by(staff, site.id, body.baseVersion), { ...body, ...status });
      if (!made.ok) throw apiFailure(made.error);
      return reply.code(201).send({ version: made.value.version, page: pageView(made.value.page!) });
    });

    scope.patch('/api/admin/pages/:id', { schema: updatePageRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.draft');
      const site = await siteOf(request);
      const { id } = parseInput(pageParams, request.params, 'params');
      const {
        baseVersion,
        status: typedStatus,
        publishAt,
        ...fields
      } = parseInput(updatePageBody, request.body, 'body');
      const stored = (await readSiteOf(site.id)).pages.find((p) => p.id === id);
      const change: PageChange = {
        ...fields,
        ...statusOfCall(typedStatus, publishAt, site.settings.timeZone, stored),
      };
      if (change.path !== undefined) {
        const format = checkPagePath(change.path, { pages: [], collections: [] });
        if (!format.ok) throw new ApiError('invalid-input', format.message, { field: 'path' });
      }
      if (!stored) throw new ApiError('page-not-found', `There is no page '${id}' on this site.`);
      const saved = await savePage(staff, site.id, baseVersion, id, change);
      if (!saved.ok) throw apiFailure(saved.error);
      return { version: saved.value.version, page: pageView(saved.value.page!) };
    });

    scope.post('/api/admin/pages/:id/preview', { schema: previewPageRoute }, async (request, reply) => {
      await requireStaff(request, 'pages.read');
      const site = await siteOf(request);
      const { id } = parseInput(pageParams, request.params, 'params');
      const draftFields = parseInput(previewBody, request.body, 'body');
      const stored = (await readSiteOf(site.id)).pages.find((p) => p.id === id);
      if (!stored) throw new ApiError('page-not-found', `There is no page '${id}' on this site.`);
      const draft: Page = {
        ...stored,
        ...(draftFields.title !== undefined ? { title: draftFields.title } : {}),
        ...(draftFields.path !== undefined ? { path: normalisePagePath(draftFields.path) } : {}),
        ...(draftFields.showInNavigation !== undefined ? { showInNavigation: draftFields.showInNavigation } : {}),
        ...(draftFields.blocks !== undefined ? { blocks: draftFields.blocks } : {}),
      };
      const problem = schemaProblems(draft)[0];
      if (problem)
        throw new ApiError('invalid-input', `${problemLabel(draft, problem.field)}: ${problem.message}`, {
          field: problem.field,
        });
      return sendPreview(reply, site, draft);
    });

    const moveCall = (kind: 'page' | 'collection') => async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.edit');
      const site = await siteOf(request);
      const { id } = parseInput(pageParams, request.params, 'params');
      const { baseVersion, direction } = parseInput(moveBody, request.body, 'body');
      const known = await readSiteOf(site.id);
      if (kind === 'page' ? !known.pages.some((p) => p.id === id) : !known.collections.some((c) => c.id === id))
        throw new ApiError(`${kind}-not-found`, `There is no ${kind} '${id}' on this site.`);
      const edit = by(staff, site.id, baseVersion);
      const moved =
        kind === 'page'
          ? await movePage(ctx.db, edit, id, direction)
          : await moveCollection(ctx.db, edit, id, direction);
      if (!moved.ok) throw apiFailure(moved.error);
      return { version: moved.value.version, order: moved.value.order };
    };
    scope.post('/api/admin/pages/:id/move', { schema: movePageRoute }, moveCall('page'));
    scope.post('/api/admin/collections/:id/move', { schema: moveCollectionRoute }, moveCall('collection'));

    scope.delete('/api/admin/pages/:id', { schema: deletePageRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.draft');
      const site = await siteOf(request);
      const { id } = parseInput(pageParams, request.params, 'params');
      const { baseVersion } = parseInput(deleteQuery, request.query, 'query');
      if (!(await readSiteOf(site.id)).pages.some((p) => p.id === id))
        throw new ApiError('page-not-found', `There is no page '${id}' on this site.`);
      const deleted = await deletePage(ctx.db, by(staff, site.id, baseVersion), id);
      if (!deleted.ok) throw apiFailure(deleted.error);
      return { version: deleted.value.version };
    });

    scope.patch('/api/admin/collections/:id', { schema: renameCollectionRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.edit');
      const site = await siteOf(request);
      const { id } = parseInput(pageParams, request.params, 'params');
      const { baseVersion, title } = parseInput(renameCollectionBody, request.body, 'body');
      if (!(await readSiteOf(site.id)).collections.some((c) => c.id === id))
        throw new ApiError('collection-not-found', `There is no collection '${id}' on this site.`);
      const renamed = await renameCollection(ctx.db, by(staff, site.id, baseVersion), id, title);
      if (!renamed.ok) throw apiFailure(renamed.error);
      return { version: renamed.value.version, collection: renamed.value.collection };
    });
  });
}
