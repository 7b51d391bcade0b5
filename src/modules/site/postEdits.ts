/**
 * The blog post editor's changes (issue 26, /admin/posts): create, change, delete a post — each a change of the stored
 * site file that `editSite` saves as a new version, with its audit entry in the save's transaction. Who may publish is
 * checked here, against the post as stored when the save runs (src/core/publishing.ts: a draft editor saves and
 * deletes drafts only); what is refused is said in the spec's editor messages (src/core/postEditor.ts).
 */
import type { Kysely } from 'kysely';
import { checkPostSlug } from '../../core/postEditor';
import {
  deletionRefusal,
  localInputOf,
  publicationFields,
  publicationRefusal,
  shownStatus,
  STATUS_LABELS,
  type PublicationStatus,
} from '../../core/publishing';
import { err, ok, type Result } from '../../core/result';
import { freeSlug } from '../../core/slug';
import type { Database } from '../../platform/db/tables';
import type { EditFailure } from './edit';
import { save, type EditBy } from './pageEdits';
import { postSchema, type Collection, type Post, type SiteFile } from './schema';

/** What a save may set of a post; absent fields stay. `publishAt` goes with status 'scheduled' (ISO, checked). */
export interface PostChange {
  collectionId?: string;
  title?: string;
  /** As typed ('' : made from the title); checked in its blog. */
  slug?: string;
  author?: string;
  publishedOn?: string;
  excerpt?: string;
  body?: string;
  tags?: string[];
  categories?: string[];
  status?: PublicationStatus;
  publishAt?: string;
}

/** What the post editor shows of the stored site: its blogs and posts, its time zone, and the version they are of. */
export interface PostEditorSite {
  version: number;
  timeZone: string;
  blogs: { id: string; title: string; slug: string }[];
  /** In the site file's order (the oldest first). */
  posts: Post[];
}

/** The stored site as the post editor needs it, with the version it is (read first, as edit.ts does). */
export async function postEditorSite(db: Kysely<Database>, siteId: string): Promise<PostEditorSite | undefined> {
  const row = await db.selectFrom('sites').select(['version', 'settings']).where('id', '=', siteId).executeTakeFirst();
  if (!row) return undefined;
  const [collections, posts] = await Promise.all([
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('posts').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
  ]);
  const website = JSON.parse(row.settings) as SiteFile['website'];
  return {
    version: row.version,
    timeZone: website.timeZone,
    blogs: blogsOf({ collections: collections.map((r) => JSON.parse(r.data) as Collection) }).map((c) => ({
      id: c.id,
      title: c.title,
      slug: c.slug,
    })),
    posts: posts.map((r) => JSON.parse(r.data) as Post),
  };
}

export interface SavedPost {
  version: number;
  post?: Post;
}

/** A blog of the site: the collections of kind 'blog'. */
export const blogsOf = (site: Pick<SiteFile, 'collections'>) => site.collections.filter((c) => c.type === 'blog');

const noPost = (id: string) => `There is no post '${id}' on this site (it may have been deleted meanwhile).`;
const noBlog = (id: string) => `There is no blog '${id}' on this site.`;

/** The other posts' slugs in blog `collectionId`. */
const takenSlugs = (site: SiteFile, collectionId: string, except?: string) =>
  site.posts.filter((p) => p.collectionId === collectionId && p.id !== except).map((p) => p.slug);

/** What changed of a post, in words for the audit log ('title, body, status: Draft → Published'). */
function changedFields(before: Post, after: Post, now: number): string[] {
  const fields: string[] = [];
  const words: [keyof Post, string][] = [
    ['title', 'title'],
    ['slug', 'URL'],
    ['collectionId', 'blog'],
    ['author', 'author'],
    ['publishedOn', 'date'],
    ['excerpt', 'excerpt'],
    ['body', 'body'],
    ['tags', 'tags'],
    ['categories', 'categories'],
  ];
  for (const [key, word] of words) if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) fields.push(word);
  const [from, to] = [shownStatus(before, now), shownStatus(after, now)];
  if (from !== to) fields.push(`status: ${STATUS_LABELS[from]} → ${STATUS_LABELS[to]}`);
  else if (before.publishAt !== after.publishAt) fields.push('publish time');
  return fields;
}

/** A post as the audit log keeps it (its body's length, not the body). */
const auditView = (post: Post) => ({
  title: post.title,
  slug: post.slug,
  collectionId: post.collectionId,
  status: post.status ?? 'published',
  ...(post.publishAt ? { publishAt: post.publishAt } : {}),
  tags: post.tags,
  categories: post.categories,
  bodyLength: post.body.length,
});

/** Applies `patch` to `post` (in place) within `site`: the refusal's text, or null. */
function apply(site: SiteFile, post: Post, patch: PostChange, role: number, now: number): string | null {
  const from = shownStatus(post, now);
  const to = patch.status ?? from;
  const refused = publicationRefusal(role, 'post', from, to);
  if (refused) return refused;
  if (patch.collectionId !== undefined) {
    if (!blogsOf(site).some((c) => c.id === patch.collectionId)) return noBlog(patch.collectionId);
    post.collectionId = patch.collectionId;
  }
  if (patch.title !== undefined) post.title = patch.title.trim();
  if (patch.slug !== undefined || patch.collectionId !== undefined) {
    const slug = checkPostSlug(patch.slug ?? post.slug, post.title, takenSlugs(site, post.collectionId, post.id));
    if (!slug.ok) return slug.message;
    post.slug = slug.slug;
  }
  if (patch.author !== undefined) post.author = patch.author.trim();
  if (patch.publishedOn !== undefined) post.publishedOn = patch.publishedOn;
  if (patch.excerpt !== undefined) post.excerpt = patch.excerpt;
  if (patch.body !== undefined) post.body = patch.body;
  if (patch.tags !== undefined) post.tags = patch.tags;
  if (patch.categories !== undefined) post.categories = patch.categories;
  if (patch.status !== undefined) {
    if (patch.status === 'scheduled' && patch.publishAt === undefined && post.publishAt === undefined)
      return 'Choose when to publish it';
    delete post.status;
    delete post.publishAt;
    Object.assign(post, publicationFields(patch.status, patch.publishAt ?? post.publishAt));
  }
  return null;
}

/** A new post in blog `input.collectionId`, dated today in the site's time zone, as `input.status` says. */
export async function createPost(
  db: Kysely<Database>,
  by: EditBy,
  input: { collectionId: string; title: string; slug?: string; status: PublicationStatus; publishAt?: string },
  now: number = Date.now(),
): Promise<Result<SavedPost, EditFailure>> {
  let made: Post | undefined;
  const saved = await save(
    db,
    by,
    [{ kind: 'order', of: 'post' }],
    (content) => {
      const site = content.site;
      const refused = publicationRefusal(by.staff.role, 'post', null, input.status);
      if (refused) return err(refused);
      if (!blogsOf(site).some((c) => c.id === input.collectionId)) return err(noBlog(input.collectionId));
      const slug = checkPostSlug(input.slug ?? '', input.title, takenSlugs(site, input.collectionId));
      if (!slug.ok) return err(slug.message);
      made = {
        id: freeSlug(slug.slug, new Set(site.posts.map((p) => p.id))),
        collectionId: input.collectionId,
        slug: slug.slug,
        title: input.title.trim(),
        author: by.staff.email,
        publishedOn: localInputOf(new Date(now).toISOString(), site.website.timeZone).slice(0, 10),
        excerpt: '',
        body: '',
        tags: [],
        categories: [],
        commentState: 0,
        publicCommentCount: 0,
        ...publicationFields(input.status, input.publishAt),
      };
      if (input.status === 'scheduled' && input.publishAt === undefined) return err('Choose when to publish it');
      site.posts.push(made);
      return ok(content);
    },
    () => ({
      action: 'post.create',
      subject: { type: 'post', id: made!.id },
      summary: `Created the post “${made!.title}” (${STATUS_LABELS[shownStatus(made!, now)]})`,
      after: auditView(made!),
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, post: postSchema.parse(made) }) : saved;
}

/** Changes post `id` as `patch` says. */
export async function updatePost(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  patch: PostChange,
  now: number = Date.now(),
): Promise<Result<SavedPost, EditFailure>> {
  let before: Post | undefined;
  let after: Post | undefined;
  const saved = await save(
    db,
    by,
    [{ kind: 'post', id }],
    (content) => {
      const post = content.site.posts.find((p) => p.id === id);
      if (!post) return err(noPost(id));
      before = structuredClone(post);
      const refused = apply(content.site, post, patch, by.staff.role, now);
      if (refused) return err(refused);
      after = post;
      return ok(content);
    },
    () => {
      const fields = changedFields(before!, after!, now);
      return {
        action: 'post.update',
        subject: { type: 'post', id },
        summary: `Changed the post “${after!.title}”${fields.length ? `: ${fields.join(', ')}` : ''}`,
        before: auditView(before!),
        after: auditView(after!),
      };
    },
  );
  return saved.ok ? ok({ version: saved.value.version, post: postSchema.parse(after) }) : saved;
}

/** Deletes post `id` (a draft editor: a draft only). */
export async function deletePost(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  now: number = Date.now(),
): Promise<Result<SavedPost, EditFailure>> {
  let gone: Post | undefined;
  const saved = await save(
    db,
    by,
    [
      { kind: 'post', id },
      { kind: 'order', of: 'post' },
    ],
    (content) => {
      const index = content.site.posts.findIndex((p) => p.id === id);
      if (index < 0) return err(noPost(id));
      const refused = deletionRefusal(by.staff.role, 'post', shownStatus(content.site.posts[index]!, now));
      if (refused) return err(refused);
      [gone] = content.site.posts.splice(index, 1);
      return ok(content);
    },
    () => ({
      action: 'post.delete',
      subject: { type: 'post', id },
      summary: `Deleted the post “${gone!.title}”`,
      before: auditView(gone!),
    }),
  );
  return saved.ok ? ok({ version: saved.value.version }) : saved;
}
