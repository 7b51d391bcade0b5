/**
 * Blog posts at /admin/posts (issue 26: write, schedule, tag and categorise), through the admin module's helpers.
 * Staff with 'pages.read' look and preview; 'pages.draft' saves — editors (and admins, website managers) any status,
 * draft editors Draft or Needs Review of posts not live (src/core/publishing.ts, checked again by the save). Each save
 * a new site version by its author (./postEdits.ts), with its audit entry.
 *
 * - GET /admin/posts → the posts, newest first, and the new-post form; POST there (create) → 303 to its editor
 * - GET /admin/posts/:id → the editor; POST there → save → 303 back with a notice, or the form again (4xx) with each
 *   problem by its field; a post changed meanwhile is refused (409) with what changed
 * - GET /admin/posts/:id/preview → the stored post as the store shows it, drafts included (staff only)
 * - POST /admin/posts/:id/delete
 * - JSON twins under /api/admin/posts (./postsAdminRoutes.schema.ts)
 */
import fastifyFormbody from '@fastify/formbody';
import { checkPostSlug } from '../../core/postEditor';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  defaultStatus,
  deletionRefusal,
  localInputOf,
  parsePublishTime,
  publicationRefusal,
  shownStatus,
  type PublicationStatus,
} from '../../core/publishing';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import type { PageRenderer } from '../../render/renderPath';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import {
  CreatePostForm,
  DeletePostForm,
  POSTS_PATH,
  PostEditor,
  PostsTable,
  postEditorPath,
  type EditorPost,
} from '../../ui/admin/Posts';
import { ProblemList } from '../../ui/admin/Pages';
import { postPath } from '../../ui/BlogPostParts';
import { doneOf, requireStaff, withDone, type AdminPages, type AdminView, type AdminVisit, type Staff } from '../admin';
import type { EditBy } from './pageEdits';
import { createPost, deletePost, postEditorSite, updatePost, type PostChange, type PostEditorSite } from './postEdits';
import {
  editorPostOf,
  formText,
  formVersion,
  POST_FIELD_LABELS,
  postFromForm,
  statusFromForm,
  statusOfForm,
  type FormBody,
} from './postForm';
import {
  createPostBody,
  createPostForm,
  createPostRoute,
  deletePostForm,
  deletePostQuery,
  deletePostRoute,
  getPostRoute,
  listPostsRoute,
  postEditorPage,
  postParams,
  postPreviewPage,
  postsPage,
  savePostForm,
  updatePostBody,
  updatePostRoute,
} from './postsAdminRoutes.schema';
import { apiFailure, failureStatus } from './editFailure';
import { siteOf } from './requestSite';
import { scheduledAt, statusFieldsOf, whereItIs } from './statusForm';
import type { Post } from './schema';

const looking = { section: POSTS_PATH, permission: 'pages.read' } as const;
const writing = { section: POSTS_PATH, permission: 'pages.draft' } as const;

/** The post whose id is the address's, or undefined (an id that is not one is no post either). */
const postIdOf = (request: FastifyRequest): string | undefined => {
  const parsed = postParams.safeParse(request.params);
  return parsed.success ? parsed.data.id : undefined;
};

const newestFirst = (posts: readonly Post[]): Post[] =>
  [...posts].reverse().sort((a, b) => b.publishedOn.localeCompare(a.publishedOn));

export function registerPostsAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pages: AdminPages,
  renderer: PageRenderer,
): void {
  const by = (staff: Staff, siteId: string, baseVersion: number): EditBy => ({ staff, siteId, baseVersion });
  const readSite = async (siteId: string): Promise<PostEditorSite> => {
    const site = await postEditorSite(ctx.db, siteId);
    if (!site) throw new ApiError('site-not-found', `There is no site '${siteId}'.`);
    return site;
  };
  const addressOf = (site: PostEditorSite, post: Post): string =>
    postPath(site.blogs.find((b) => b.id === post.collectionId)?.slug ?? '', post.slug);

  /** A post as the JSON calls show it. */
  const postView = (site: PostEditorSite, post: Post, now: number) => ({
    id: post.id,
    collectionId: post.collectionId,
    slug: post.slug,
    title: post.title,
    author: post.author,
    publishedOn: post.publishedOn,
    excerpt: post.excerpt,
    body: post.body,
    tags: post.tags,
    categories: post.categories,
    status: shownStatus(post, now),
    ...(post.status === 'scheduled' && post.publishAt ? { publishAt: post.publishAt } : {}),
    path: addressOf(site, post),
  });

  // ---------------------------------------------------------------- the posts list

  const listView = async (
    visit: AdminVisit,
    options: {
      notice?: { kind: 'done' | 'error'; text: string };
      create?: { values: { title: string; collectionId: string; status: PublicationStatus; publishAt: string } };
      problems?: Record<string, string>;
      status?: number;
    } = {},
  ): Promise<AdminView> => {
    const site = await readSite(visit.site.id);
    const now = Date.now();
    const status = statusFieldsOf(null, visit.staff.role, 'post', site.timeZone, now, options.create?.values);
    return {
      title: 'Blog posts',
      status: options.status ?? 200,
      body: (
        <>
          <AdminTitle title="Blog posts" />
          {options.notice ? <AdminNotice kind={options.notice.kind}>{options.notice.text}</AdminNotice> : null}
          <PostsTable
            rows={newestFirst(site.posts).map((p) => {
              const shown = shownStatus(p, now);
              return {
                id: p.id,
                title: p.title,
                blog: site.blogs.find((b) => b.id === p.collectionId)?.title ?? p.collectionId,
                publishedOn: p.publishedOn,
                status: shown,
                ...(shown === 'scheduled' && p.publishAt
                  ? { publishAt: localInputOf(p.publishAt, site.timeZone).replace('T', ' ') }
                  : {}),
                tags: p.tags,
              };
            })}
          />
          {site.blogs.length === 0 ? (
            <p className="admin-muted">This site has no blog: add a collection of type blog to its site file first.</p>
          ) : status.choices.length > 0 && visit.staff.can('pages.draft') ? (
            <CreatePostForm
              crumb={visit.crumb}
              crumbField={visit.crumbField}
              version={site.version}
              blogs={site.blogs}
              status={status}
              {...(options.create ? { values: options.create.values } : {})}
              {...(options.problems ? { problems: options.problems } : {})}
            />
          ) : (
            <p className="admin-muted">{`Your account (${visit.staff.roleName}) may look at the posts, not write them.`}</p>
          )}
        </>
      ),
    };
  };

  app.get(POSTS_PATH, { schema: postsPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const done = doneOf(request.query);
      return listView(visit, done ? { notice: { kind: 'done', text: done } } : {});
    }),
  );

  // ---------------------------------------------------------------- a post's editor

  interface EditorState {
    typed?: EditorPost;
    baseVersion?: number;
    problems?: Record<string, string>;
    notice?: { kind: 'done' | 'error'; text: string; lines?: readonly string[] };
    status?: number;
  }

  const noSuchPost = (id: string | undefined): AdminView => ({
    title: 'No such post',
    status: 404,
    body: (
      <>
        <AdminTitle title="No such post" />
        <AdminNotice kind="error">{`There is no post '${String(id ?? '').slice(0, 64)}' on this site.`}</AdminNotice>
        <p>
          <a href={POSTS_PATH}>Back to the posts</a>
        </p>
      </>
    ),
  });

  const editorView = async (visit: AdminVisit, id: string | undefined, state: EditorState = {}): Promise<AdminView> => {
    const site = await readSite(visit.site.id);
    const stored = site.posts.find((p) => p.id === id);
    if (!stored) return noSuchPost(id);
    const now = Date.now();
    const from = shownStatus(stored, now);
    const status = statusFieldsOf(
      stored,
      visit.staff.role,
      'post',
      site.timeZone,
      now,
      state.typed ? { status: state.typed.status, publishAt: state.typed.publishAt } : undefined,
    );
    const choices = visit.staff.can('pages.draft') ? status.choices : [];
    const problems = state.problems ?? {};
    const live = from === 'published';
    return {
      title: `Edit ${stored.title}`,
      status: state.status ?? 200,
      body: (
        <>
          <AdminTitle title={`Edit “${stored.title}”`}>
            {live ? <a href={addressOf(site, stored)}>View on the store</a> : null}
            <a href={`${postEditorPath(stored.id)}/preview`}>Preview</a>
            <a href={POSTS_PATH}>All posts</a>
          </AdminTitle>
          {state.notice ? (
            <AdminNotice kind={state.notice.kind}>
              {state.notice.text}
              {state.notice.lines?.length ? ` What changed: ${state.notice.lines.join('; ')}.` : null}
            </AdminNotice>
          ) : null}
          {choices.length === 0 ? (
            <AdminNotice kind="done">
              {visit.staff.can('pages.draft')
                ? `A draft editor changes drafts only: this post is ${from === 'scheduled' ? 'Scheduled' : 'Published'}. An editor may set it back to Draft.`
                : `Your account (${visit.staff.roleName}) may look and preview, not save.`}
            </AdminNotice>
          ) : null}
          <ProblemList
            problems={Object.entries(problems).map(([field, message]) => ({
              field,
              label: POST_FIELD_LABELS[field] ?? field,
              message,
            }))}
          />
          <PostEditor
            crumb={visit.crumb}
            crumbField={visit.crumbField}
            version={state.typed && state.baseVersion ? state.baseVersion : site.version}
            post={state.typed ?? editorPostOf(stored, site.timeZone, now)}
            blogs={site.blogs}
            status={{ ...status, choices }}
            problems={problems}
            canSave={choices.length > 0}
          />
          {deletionRefusal(visit.staff.role, 'post', from) === null && visit.staff.can('pages.draft') ? (
            <DeletePostForm crumb={visit.crumb} crumbField={visit.crumbField} version={site.version} post={stored} />
          ) : null}
        </>
      ),
    };
  };

  app.get(`${POSTS_PATH}/:id`, { schema: postEditorPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const done = doneOf(request.query);
      return editorView(visit, postIdOf(request), done ? { notice: { kind: 'done', text: done } } : {});
    }),
  );

  app.get(`${POSTS_PATH}/:id/preview`, { schema: postPreviewPage }, async (request, reply) => {
    await requireStaff(request, 'pages.read');
    const site = await siteOf(request);
    const data = await readSite(site.id);
    const post = data.posts.find((p) => p.id === postIdOf(request));
    const rendered = post ? await renderer.renderPreview(site, addressOf(data, post)) : undefined;
    if (!rendered) throw new ApiError('post-not-found', 'There is no such post on this site.');
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .code(200)
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  });

  // ---------------------------------------------------------------- the JSON calls (reads)

  app.get('/api/admin/posts', { schema: listPostsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'pages.read');
    const site = await readSite((await siteOf(request)).id);
    const now = Date.now();
    return { version: site.version, posts: newestFirst(site.posts).map((p) => postView(site, p, now)) };
  });

  app.get('/api/admin/posts/:id', { schema: getPostRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'pages.read');
    const { id } = parseInput(postParams, request.params, 'params');
    const site = await readSite((await siteOf(request)).id);
    const post = site.posts.find((p) => p.id === id);
    if (!post) throw new ApiError('post-not-found', `There is no post '${id}' on this site.`);
    return { version: site.version, post: postView(site, post, Date.now()) };
  });

  // ---------------------------------------------------------------- writes: forms and JSON calls

  app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 256 * 1024 });

    scope.post(POSTS_PATH, { schema: createPostForm }, (request, reply) =>
      pages.action(request, reply, writing, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const site = await readSite(visit.site.id);
        const now = Date.now();
        const values = {
          title: formText(body, 'title'),
          collectionId: formText(body, 'collectionId'),
          status: statusOfForm(body) ?? defaultStatus(visit.staff.role, 'post'),
          publishAt: formText(body, 'publishAt'),
        };
        const status = statusFromForm({ ...body, status: values.status }, site.timeZone, now);
        const problems: Record<string, string> = { ...status.problems };
        if (values.title.trim() === '') problems.title = 'must not be empty';
        else if (values.title.length > 200) problems.title = 'must be at most 200 characters';
        const refused = publicationRefusal(visit.staff.role, 'post', null, values.status);
        if (refused) problems.status = refused;
        if (Object.keys(problems).length)
          return listView(visit, {
            create: { values },
            problems,
            status: refused ? 403 : 400,
            notice: { kind: 'error', text: `Not created: ${Object.values(problems).join('; ')}.` },
          });
        const made = await createPost(
          ctx.db,
          by(visit.staff, visit.site.id, formVersion(body)),
          {
            collectionId: values.collectionId,
            title: values.title,
            status: values.status,
            ...(status.change.publishAt ? { publishAt: status.change.publishAt } : {}),
          },
          now,
        );
        if (!made.ok)
          return listView(visit, {
            create: { values },
            status: failureStatus(made.error),
            notice: { kind: 'error', text: made.error.message },
          });
        return withDone(
          postEditorPath(made.value.post!.id),
          `Created “${made.value.post!.title}” (version ${made.value.version}).`,
        );
      }),
    );

    scope.post(`${POSTS_PATH}/:id`, { schema: savePostForm }, (request, reply) =>
      pages.action(request, reply, writing, async (visit) => {
        const id = postIdOf(request);
        const body = (request.body ?? {}) as FormBody;
        const site = await readSite(visit.site.id);
        const stored = site.posts.find((p) => p.id === id);
        if (!stored || !id) return noSuchPost(id);
        const now = Date.now();
        const baseVersion = formVersion(body);
        const form = postFromForm(body, stored, site.timeZone, now);
        const refused =
          form.change.status &&
          publicationRefusal(visit.staff.role, 'post', shownStatus(stored, now), form.change.status);
        if (refused) form.problems.status = refused;
        const collectionId = form.change.collectionId ?? stored.collectionId;
        const slug = checkPostSlug(
          form.change.slug ?? '',
          form.change.title || stored.title,
          site.posts.filter((p) => p.collectionId === collectionId && p.id !== id).map((p) => p.slug),
        );
        if (!slug.ok) form.problems.slug = slug.message;
        const problems = Object.keys(form.problems);
        if (problems.length)
          return editorView(visit, id, {
            typed: form.typed,
            baseVersion,
            problems: form.problems,
            // Refused for the role (403), for a URL another post has (409), or for what was typed (400).
            status: refused
              ? 403
              : problems.length === 1 && slug.ok === false && /already exists/.test(slug.message)
                ? 409
                : 400,
          });
        const saved = await updatePost(ctx.db, by(visit.staff, visit.site.id, baseVersion), id, form.change, now);
        if (!saved.ok) {
          const stale = saved.error.type === 'STALE';
          return editorView(visit, id, {
            ...(stale ? {} : { typed: form.typed, baseVersion }),
            status: failureStatus(saved.error),
            notice: {
              kind: 'error',
              text: saved.error.message,
              ...(saved.error.type === 'STALE' ? { lines: saved.error.changes } : {}),
            },
          });
        }
        const post = saved.value.post!;
        const where = whereItIs(shownStatus(post, now), post.publishAt, site.timeZone);
        return withDone(postEditorPath(post.id), `Saved: version ${saved.value.version}. ${where}`);
      }),
    );

    scope.post(`${POSTS_PATH}/:id/delete`, { schema: deletePostForm }, (request, reply) =>
      pages.action(request, reply, writing, async (visit) => {
        const body = (request.body ?? {}) as FormBody;
        const id = postIdOf(request);
        if (formText(body, 'confirm') !== 'yes')
          return editorView(visit, id, {
            status: 422,
            notice: { kind: 'error', text: 'Tick “Yes, delete” to delete the post.' },
          });
        const site = await readSite(visit.site.id);
        const post = site.posts.find((p) => p.id === id);
        if (!post || !id) return noSuchPost(id);
        const deleted = await deletePost(ctx.db, by(visit.staff, visit.site.id, formVersion(body)), id);
        if (!deleted.ok)
          return editorView(visit, id, {
            status: failureStatus(deleted.error),
            notice: { kind: 'error', text: deleted.error.message },
          });
        return withDone(POSTS_PATH, `Deleted “${post.title}” (version ${deleted.value.version}).`);
      }),
    );

    // The JSON twins.

    /** The publish time a call sends with 'scheduled', checked as the form's; undefined for other statuses. */
    const publishTimeOf = (
      status: PublicationStatus | undefined,
      typed: string | undefined,
      timeZone: string,
      stored?: Post,
    ) => {
      if (status !== 'scheduled') return undefined;
      const time = parsePublishTime(typed ?? '', timeZone, Date.now(), scheduledAt(stored));
      if (!time.ok) throw new ApiError('invalid-input', `publishAt: ${time.message}`, { field: 'publishAt' });
      return time.publishAt;
    };
    const refuseStatus = (staff: Staff, from: PublicationStatus | null, to: PublicationStatus | undefined) => {
      const refused = to === undefined ? null : publicationRefusal(staff.role, 'post', from, to);
      if (refused) throw new ApiError('publication-refused', refused, { field: 'status' });
    };

    scope.post('/api/admin/posts', { schema: createPostRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.draft');
      const site = await siteOf(request);
      const body = parseInput(createPostBody, request.body, 'body');
      const data = await readSite(site.id);
      if (!data.blogs.some((b) => b.id === body.collectionId))
        throw new ApiError('blog-not-found', `There is no blog '${body.collectionId}' on this site.`);
      const status = body.status ?? defaultStatus(staff.role, 'post');
      refuseStatus(staff, null, status);
      const publishAt = publishTimeOf(status, body.publishAt, data.timeZone);
      const made = await createPost(ctx.db, by(staff, site.id, body.baseVersion), {
        collectionId: body.collectionId,
        title: body.title,
        status,
        ...(body.slug !== undefined ? { slug: body.slug } : {}),
        ...(publishAt ? { publishAt } : {}),
      });
      if (!made.ok) throw apiFailure(made.error);
      const now = Date.now();
      return reply.code(201).send({ version: made.value.version, post: postView(data, made.value.post!, now) });
    });

    scope.patch('/api/admin/posts/:id', { schema: updatePostRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.draft');
      const site = await siteOf(request);
      const { id } = parseInput(postParams, request.params, 'params');
      const { baseVersion, publishAt: typedTime, ...fields } = parseInput(updatePostBody, request.body, 'body');
      const data = await readSite(site.id);
      const stored = data.posts.find((p) => p.id === id);
      if (!stored) throw new ApiError('post-not-found', `There is no post '${id}' on this site.`);
      const now = Date.now();
      refuseStatus(staff, shownStatus(stored, now), fields.status ?? shownStatus(stored, now));
      const publishAt = publishTimeOf(fields.status, typedTime, data.timeZone, stored);
      const change: PostChange = { ...fields, ...(publishAt ? { publishAt } : {}) };
      const saved = await updatePost(ctx.db, by(staff, site.id, baseVersion), id, change, now);
      if (!saved.ok) throw apiFailure(saved.error);
      const after = await readSite(site.id);
      return { version: saved.value.version, post: postView(after, saved.value.post!, now) };
    });

    scope.delete('/api/admin/posts/:id', { schema: deletePostRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'pages.draft');
      const site = await siteOf(request);
      const { id } = parseInput(postParams, request.params, 'params');
      const { baseVersion } = parseInput(deletePostQuery, request.query, 'query');
      const stored = (await readSite(site.id)).posts.find((p) => p.id === id);
      if (!stored) throw new ApiError('post-not-found', `There is no post '${id}' on this site.`);
      const refused = deletionRefusal(staff.role, 'post', shownStatus(stored, Date.now()));
      if (refused) throw new ApiError('publication-refused', refused);
      const deleted = await deletePost(ctx.db, by(staff, site.id, baseVersion), id);
      if (!deleted.ok) throw apiFailure(deleted.error);
      return { version: deleted.value.version };
    });
  });
}
