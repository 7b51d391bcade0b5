/**
 * New and deleted collections at /admin (issue 26), 'pages.edit' (admins, website managers, editors):
 * - GET /admin/collections/new → the form (a shop or a blog, title, URL); POST /admin/collections → 303 to the pages
 *   with a notice, or the form again with each problem by its field; the JSON twin POST /api/admin/collections
 * - GET /admin/collections/:id/delete → what the collection holds and where it is shown, then why it cannot be deleted
 *   yet or the confirmation; POST there (confirm=yes) → 303 to the pages with a notice, or the page again with why
 *   (409: it holds products or posts, a page's block shows it, it changed meanwhile); the JSON twin
 *   DELETE /api/admin/collections/:id?baseVersion=N
 * Renaming and moving a collection are the pages editor's (./pagesAdminRoutes.tsx).
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import { DeleteCollection } from '../../ui/admin/DeleteCollection';
import { NEW_COLLECTION_PATH, NewCollectionForm } from '../../ui/admin/NewCollection';
import { POSTS_PATH } from '../../ui/admin/Posts';
import { PRODUCTS_PATH } from '../../ui/admin/Products';
import { COLLECTIONS_PATH, PAGES_PATH } from '../../ui/admin/Pages';
import { requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import {
  COLLECTION_KINDS,
  collectionDeleteRefusal,
  collectionWord,
  createCollection,
  deleteCollection,
  ONE_PART_URL,
  readCollectionUse,
  type CollectionKind,
} from './collectionEdits';
import {
  createCollectionBody,
  createCollectionForm,
  createCollectionRoute,
  deleteCollectionForm,
  deleteCollectionPage,
  deleteCollectionQuery,
  deleteCollectionRoute,
  newCollectionPage,
} from './collectionsAdminRoutes.schema';
import { apiFailure, failureStatus } from './editFailure';
import { pageParams } from './pagesAdminRoutes.schema';
import { formText, formVersion, type FormBody } from './postForm';
import { siteOf } from './requestSite';

const creating = { section: PAGES_PATH, permission: 'pages.edit' } as const;
const KINDS = Object.entries(COLLECTION_KINDS).map(([value, label]) => ({ value, label }));
const isKind = (value: string): value is CollectionKind => Object.hasOwn(COLLECTION_KINDS, value);

/** Whether a refusal is about the URL (shown under its field) rather than the save. */
const aboutUrl = (message: string) =>
  /is not a valid page URL$|^This page URL already exists$|^Please enter a page URL$/.test(message) ||
  message === ONE_PART_URL;

export function registerCollectionsAdminRoutes(app: FastifyInstance, ctx: AppContext, pages: AdminPages): void {
  const formView = async (
    visit: AdminVisit,
    state: {
      values?: { title: string; kind: string; slug: string };
      problems?: Record<string, string>;
      notice?: string;
      status?: number;
      version?: number;
    } = {},
  ): Promise<AdminView> => {
    const row = await ctx.db.selectFrom('sites').select('version').where('id', '=', visit.site.id).executeTakeFirst();
    return {
      title: 'New collection',
      status: state.status ?? 200,
      body: (
        <>
          <AdminTitle title="New collection">
            <a href={PAGES_PATH}>All pages</a>
          </AdminTitle>
          {state.notice ? <AdminNotice kind="error">{state.notice}</AdminNotice> : null}
          <NewCollectionForm
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            version={state.version ?? row?.version ?? 0}
            kinds={KINDS}
            values={state.values ?? { title: '', kind: 'products', slug: '' }}
            problems={state.problems ?? {}}
          />
        </>
      ),
    };
  };

  app.get(NEW_COLLECTION_PATH, { schema: newCollectionPage }, (request, reply) =>
    pages.answer(request, reply, creating, (visit) => formView(visit)),
  );

  // ---------------------------------------------------------------- a collection's delete

  /** The collection whose id is the address's, or undefined (an id that is not one is no collection either). */
  const collectionIdOf = (request: FastifyRequest): string | undefined => {
    const parsed = pageParams.safeParse(request.params);
    return parsed.success ? parsed.data.id : undefined;
  };

  const noSuchCollection = (id: string | undefined): AdminView => ({
    title: 'No such collection',
    status: 404,
    body: (
      <>
        <AdminTitle title="No such collection" />
        <AdminNotice kind="error">{`There is no collection '${String(id ?? '').slice(0, 64)}' on this site.`}</AdminNotice>
        <p>
          <a href={PAGES_PATH}>Back to the pages</a>
        </p>
      </>
    ),
  });

  const deleteView = async (
    visit: AdminVisit,
    id: string | undefined,
    state: { notice?: string; lines?: readonly string[]; status?: number } = {},
  ): Promise<AdminView> => {
    const read = id === undefined ? undefined : await readCollectionUse(ctx.db, visit.site.id, id);
    if (!read) return noSuchCollection(id);
    const { collection, use } = read;
    const word = collectionWord(collection);
    return {
      title: `Delete ${collection.title}`,
      status: state.status ?? 200,
      body: (
        <>
          <AdminTitle title={`Delete the ${word} “${collection.title}”`}>
            <a href={`/${collection.slug}`}>View on the store</a>
            <a href={PAGES_PATH}>All pages</a>
          </AdminTitle>
          {state.notice ? (
            <AdminNotice kind="error">
              {state.notice}
              {state.lines?.length ? ` What changed: ${state.lines.join('; ')}.` : null}
            </AdminNotice>
          ) : null}
          <DeleteCollection
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            version={read.version}
            collection={collection}
            word={word}
            itemWord={collection.type === 'blog' ? 'post' : 'product'}
            itemsPath={collection.type === 'blog' ? POSTS_PATH : PRODUCTS_PATH}
            items={use.items}
            shownBy={use.shownBy}
            header={use.header}
            refusal={collectionDeleteRefusal(collection, use)}
          />
        </>
      ),
    };
  };

  app.get(`${COLLECTIONS_PATH}/:id/delete`, { schema: deleteCollectionPage }, (request, reply) =>
    pages.answer(request, reply, creating, (visit) => deleteView(visit, collectionIdOf(request))),
  );

  app.register(async (scope) => {
    await scope.register(fastifyFormbody);

    scope.post(COLLECTIONS_PATH, { schema: createCollectionForm }, (request, reply) =>
      pages.action(request, reply, creating, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const values = { title: formText(body, 'title'), kind: formText(body, 'kind'), slug: formText(body, 'slug') };
        const problems: Record<string, string> = {};
        if (values.title.trim() === '') problems.title = 'must not be empty';
        else if (values.title.length > 200) problems.title = 'must be at most 200 characters';
        if (!isKind(values.kind)) problems.kind = 'Choose a shop or a blog';
        const version = formVersion(body);
        if (Object.keys(problems).length || !isKind(values.kind))
          return formView(visit, { values, problems, status: 400, version });
        const made = await createCollection(
          ctx.db,
          { staff: visit.staff, siteId: visit.site.id, baseVersion: version },
          {
            title: values.title,
            kind: values.kind,
            slug: values.slug,
          },
        );
        if (!made.ok) {
          const message = made.error.message;
          return aboutUrl(message)
            ? formView(visit, {
                values,
                problems: { slug: message },
                status: message === 'This page URL already exists' ? 409 : 400,
                version,
              })
            : formView(visit, { values, notice: message, status: failureStatus(made.error) });
        }
        const { collection } = made.value;
        return withDone(
          PAGES_PATH,
          `Created the ${collection.type === 'blog' ? 'blog' : 'shop'} “${collection.title}” at /${collection.slug} (version ${made.value.version}).`,
        );
      }),
    );

    scope.post(`${COLLECTIONS_PATH}/:id/delete`, { schema: deleteCollectionForm }, (request, reply) =>
      pages.action(request, reply, creating, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const id = collectionIdOf(request);
        if (formText(body, 'confirm') !== 'yes')
          return deleteView(visit, id, { status: 422, notice: 'Tick “Yes, delete” to delete the collection.' });
        const read = id === undefined ? undefined : await readCollectionUse(ctx.db, visit.site.id, id);
        if (!read || id === undefined) return noSuchCollection(id);
        const deleted = await deleteCollection(
          ctx.db,
          { staff: visit.staff, siteId: visit.site.id, baseVersion: formVersion(body) },
          id,
        );
        if (!deleted.ok)
          return deleteView(visit, id, {
            status: failureStatus(deleted.error),
            notice: deleted.error.message,
            ...(deleted.error.type === 'STALE' ? { lines: deleted.error.changes } : {}),
          });
        const { collection } = deleted.value;
        return withDone(
          PAGES_PATH,
          `Deleted the ${collectionWord(collection)} “${collection.title}” at /${collection.slug} (version ${deleted.value.version}).`,
        );
      }),
    );

    scope.delete('/api/admin/collections/:id', { schema: deleteCollectionRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.edit');
      const site = await siteOf(request);
      const { id } = parseInput(pageParams, request.params, 'params');
      const { baseVersion } = parseInput(deleteCollectionQuery, request.query, 'query');
      if (!(await readCollectionUse(ctx.db, site.id, id)))
        throw new ApiError('collection-not-found', `There is no collection '${id}' on this site.`);
      const deleted = await deleteCollection(ctx.db, { staff, siteId: site.id, baseVersion }, id);
      if (!deleted.ok) throw apiFailure(deleted.error);
      return { version: deleted.value.version, collection: deleted.value.collection };
    });

    scope.post('/api/admin/collections', { schema: createCollectionRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.edit');
      const site = await siteOf(request);
      const body = parseInput(createCollectionBody, request.body, 'body');
      const made = await createCollection(ctx.db, { staff, siteId: site.id, baseVersion: body.baseVersion }, body);
      if (!made.ok) {
        const message = made.error.message;
        if (made.error.type === 'REFUSED' && aboutUrl(message) && message !== 'This page URL already exists')
          throw new ApiError('invalid-input', message, { field: 'slug' });
        throw made.error.type === 'STALE'
          ? new ApiError('site-edit-stale', message)
          : made.error.type === 'NOT_FOUND'
            ? new ApiError('version-not-found', message)
            : new ApiError('site-edit-refused', message);
      }
      return reply.code(201).send({ version: made.value.version, collection: made.value.collection });
    });
  });
}
