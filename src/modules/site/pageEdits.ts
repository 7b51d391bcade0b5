/**
 * The pages editor's changes (issue 26, /admin/pages): each one a change of the stored site file that `editSite` saves
 * as a new version, with its audit entry in the save's transaction. Pages: create, change (title, URL, navigation,
 * password, blocks, editor status), move up or down the navigation order, delete; collections: rename, move. Who may
 * enter is the caller's check ('pages.edit', or 'pages.draft' for a page's create, change and delete); which statuses
 * a role may set and delete is checked here against the page as stored at the save (src/core/publishing.ts: a draft
 * editor saves and deletes drafts only), refused as 'FORBIDDEN'. What is refused is said in the spec's editor messages
 * (src/core/pageEditor.ts).
 */
import type { Kysely } from 'kysely';
import { checkPagePath, pageIdFor } from '../../core/pageEditor';
import {
  defaultStatus,
  deletionRefusal,
  publicationFields,
  publicationRefusal,
  shownStatus,
  STATUS_LABELS,
  statusOf,
  type PublicationStatus,
} from '../../core/publishing';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { recordAudit, type Staff } from '../admin';
import { editSite, type EditFailure, type EditSubject, type SiteContent } from './edit';
import { pageSchema, type Block, type Collection, type Form, type Page, type SiteFile } from './schema';

/** What the pages editor shows of the stored site: its pages and collections, and what blocks can point at. */
export interface EditorSite {
  /** The version these were read at (or after: a save that came between makes the save refuse what it changed). */
  version: number;
  menuSet: boolean;
  pages: Page[];
  collections: Collection[];
  products: { id: string; name: string }[];
  forms: { id: string; name: string; kind: string }[];
  /** The site's image files (paths), for image and gallery blocks. */
  images: string[];
}

/** The stored site as the pages editor needs it (no product details, no image bytes), with the version it is. */
export async function editorSite(db: Kysely<Database>, siteId: string): Promise<EditorSite | undefined> {
  // The version first, as edit.ts reads it: the rows read after are at least that version.
  const row = await db.selectFrom('sites').select(['version', 'settings']).where('id', '=', siteId).executeTakeFirst();
  if (!row) return undefined;
  const [pages, collections, products, forms, images] = await Promise.all([
    db.selectFrom('pages').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('products').select(['id', 'data']).where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('forms').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('assets').select('path').where('site_id', '=', siteId).orderBy('path').execute(),
  ]);
  const website = JSON.parse(row.settings) as SiteFile['website'];
  return {
    version: row.version,
    menuSet: website.design?.menu !== undefined,
    pages: pages.map((r) => JSON.parse(r.data) as Page),
    collections: collections.map((r) => JSON.parse(r.data) as Collection),
    products: products.map((r) => ({ id: r.id, name: (JSON.parse(r.data) as { name: string }).name })),
    forms: forms.map((r) => {
      const form = JSON.parse(r.data) as Form;
      return { id: form.id, name: form.name, kind: form.kind };
    }),
    images: images.map((r) => r.path),
  };
}

/** What a change of a page may set; absent fields stay. `password`: a new one (kept as its hash), or null: none. */
export interface PageChange {
  title?: string;
  /** As typed: checked and normalised (src/core/pageEditor.ts). */
  path?: string;
  showInNavigation?: boolean;
  password?: string | null;
  blocks?: Block[];
  /** The editor status; with 'scheduled', `publishAt` (ISO) says when it goes live. Absent: both stay. */
  status?: PublicationStatus;
  publishAt?: string;
}

/** A save refused: the site's (./edit.ts), or the staff member's role may not give the page that status. */
export type PageEditFailure = EditFailure | { type: 'FORBIDDEN'; message: string };

export type Direction = 'up' | 'down';

/** Who saves, and the version their form was made from. */
export interface EditBy {
  staff: Staff;
  siteId: string;
  baseVersion: number;
}

type Change = (content: SiteContent) => Result<SiteContent, string>;

export interface SavedEdit {
  version: number;
  /** The page or collection as saved (undefined after a delete). */
  page?: Page;
  collection?: Collection;
}

const noPage = (id: string) => `There is no page '${id}' on this site (it may have been deleted meanwhile).`;
const noCollection = (id: string) => `There is no collection '${id}' on this site.`;

const taken = (site: SiteFile, except?: string) => ({
  pages: site.pages.filter((p) => p.id !== except).map((p) => p.path),
  collections: site.collections.map((c) => c.slug),
});

/** Moves `list[index]` one place up or down; false at the end it would leave. */
function move<T>(list: T[], index: number, direction: Direction): boolean {
  const to = direction === 'up' ? index - 1 : index + 1;
  if (index < 0 || to < 0 || to >= list.length) return false;
  const [item] = list.splice(index, 1);
  list.splice(to, 0, item!);
  return true;
}

/** Saves `change` through editSite, with the audit entry `audit` gives for the saved site (the pages and posts editors). */
export async function save(
  db: Kysely<Database>,
  by: EditBy,
  subjects: EditSubject[],
  change: Change,
  audit: (saved: SiteFile) => {
    action: string;
    subject: { type: string; id: string };
    summary: string;
    before?: unknown;
    after?: unknown;
  },
): Promise<Result<{ version: number; site: SiteFile }, EditFailure>> {
  let savedSite: SiteFile | undefined;
  const saved = await editSite(db, by.siteId, {
    baseVersion: by.baseVersion,
    subjects,
    change: (content) => {
      const changed = change(content);
      if (changed.ok) savedSite = changed.value.site;
      return changed;
    },
    author: { createdBy: by.staff.email },
    alsoInTransaction: async (trx) => {
      const entry = audit(savedSite!);
      await recordAudit(trx, { siteId: by.siteId, actor: by.staff.actor, ...entry });
    },
  });
  if (!saved.ok) return saved;
  return ok({ version: saved.value.version.number, site: savedSite! });
}

/** A new page at the end of the pages (the navigation's end), with a heading of its title; its id made from its path. */
export async function createPage(
  db: Kysely<Database>,
  by: EditBy,
  input: {
    title: string;
    path: string;
    showInNavigation: boolean;
    /** Absent: the role's default (a draft editor's new page is a Draft). With 'scheduled', `publishAt` (ISO). */
    status?: PublicationStatus | undefined;
    publishAt?: string | undefined;
  },
): Promise<Result<SavedEdit, PageEditFailure>> {
  let made: Page | undefined;
  // The home page, '/', is always published: the path is taken by then (the site file's schema says it otherwise).
  const status = input.status ?? defaultStatus(by.staff.role, 'page');
  const forbidden = publicationRefusal(by.staff.role, 'page', null, status);
  if (forbidden !== null) return err({ type: 'FORBIDDEN', message: forbidden });
  const publication = publicationFields(status, input.publishAt);
  const saved = await save(
    db,
    by,
    [{ kind: 'order', of: 'page' }],
    (content) => {
      const path = checkPagePath(input.path, taken(content.site));
      if (!path.ok) return err(path.message);
      made = {
        id: pageIdFor(
          path.path,
          content.site.pages.map((p) => p.id),
        ),
        path: path.path,
        title: input.title.trim(),
        pageType: 2,
        showInNavigation: input.showInNavigation,
        blocks: [{ type: 'heading', text: input.title.trim(), level: 1 }],
        ...publication,
      };
      content.site.pages.push(made);
      return ok(content);
    },
    () => ({
      action: 'page.create',
      subject: { type: 'page', id: made!.id },
      summary: `Created the page “${made!.title}” at ${made!.path}`,
      after: auditView(made!),
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, page: pageSchema.parse(made) }) : saved;
}

/** What changed of a page, in words for the audit log ('title, blocks'). */
const changedFields = (before: Page, after: Page): string[] => {
  const fields: string[] = [];
  if (before.title !== after.title) fields.push('title');
  if (before.path !== after.path) fields.push('URL');
  if (before.showInNavigation !== after.showInNavigation) fields.push('navigation');
  if (before.password !== after.password) fields.push(after.password === undefined ? 'password removed' : 'password');
  if (JSON.stringify(before.blocks) !== JSON.stringify(after.blocks)) fields.push('blocks');
  if (statusOf(before) !== statusOf(after))
    fields.push(`status: ${STATUS_LABELS[statusOf(before)]} → ${STATUS_LABELS[statusOf(after)]}`);
  else if (before.publishAt !== after.publishAt) fields.push('publish time');
  return fields;
};

/**
 * Changes page `id` as `patch` says (the password already hashed by the caller), if the staff member's role may save
 * the page, as it is stored now, with the status it will have (`publicationRefusal`, at `now`: a scheduled page whose
 * time has come is published).
 */
export async function updatePage(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  patch: PageChange,
  note?: string,
  now: number = Date.now(),
): Promise<Result<SavedEdit, PageEditFailure>> {
  let before: Page | undefined;
  let after: Page | undefined;
  let forbidden: string | undefined;
  const saved = await save(
    db,
    by,
    [{ kind: 'page', id }],
    (content) => {
      const page = content.site.pages.find((p) => p.id === id);
      if (!page) return err(noPage(id));
      const from = shownStatus(page, now);
      forbidden = publicationRefusal(by.staff.role, 'page', from, patch.status ?? from) ?? undefined;
      if (forbidden !== undefined) return err(forbidden);
      before = structuredClone(page);
      if (patch.status !== undefined) {
        delete page.status;
        delete page.publishAt;
        Object.assign(page, publicationFields(patch.status, patch.publishAt));
      }
      if (patch.path !== undefined) {
        const path = checkPagePath(patch.path, taken(content.site, id));
        if (!path.ok) return err(path.message);
        page.path = path.path;
      }
      if (patch.title !== undefined) page.title = patch.title.trim();
      if (patch.showInNavigation !== undefined) page.showInNavigation = patch.showInNavigation;
      if (patch.password === null) delete page.password;
      else if (patch.password !== undefined) page.password = patch.password;
      if (patch.blocks !== undefined) page.blocks = patch.blocks;
      after = page;
      return ok(content);
    },
    () => {
      const fields = changedFields(before!, after!);
      return {
        action: 'page.update',
        subject: { type: 'page', id },
        summary: `Changed the page “${after!.title}”${fields.length ? `: ${fields.join(', ')}` : ''}${note ? ` (${note})` : ''}`,
        before: auditView(before!),
        after: auditView(after!),
      };
    },
  );
  if (!saved.ok && forbidden !== undefined) return err({ type: 'FORBIDDEN', message: forbidden });
  return saved.ok ? ok({ version: saved.value.version, page: pageSchema.parse(after) }) : saved;
}

/** A page as the audit log keeps it: never its password, only whether it has one; its blocks' kinds. */
const auditView = (page: Page) => ({
  title: page.title,
  path: page.path,
  showInNavigation: page.showInNavigation,
  locked: page.password !== undefined,
  blocks: page.blocks.map((b) => b.type),
  status: statusOf(page),
  ...(page.publishAt !== undefined ? { publishAt: page.publishAt } : {}),
});

/** Moves page `id` one place up or down the pages (the navigation's order when the design has no menu). */
export async function movePage(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  direction: Direction,
): Promise<Result<SavedEdit & { order: string[] }, EditFailure>> {
  let title = '';
  let order: string[] = [];
  const saved = await save(
    db,
    by,
    [{ kind: 'order', of: 'page' }],
    (content) => {
      const pages = content.site.pages;
      const index = pages.findIndex((p) => p.id === id);
      if (index < 0) return err(noPage(id));
      title = pages[index]!.title;
      if (!move(pages, index, direction))
        return err(`“${title}” is already the ${direction === 'up' ? 'first' : 'last'} page.`);
      order = pages.map((p) => p.id);
      return ok(content);
    },
    () => ({
      action: 'page.move',
      subject: { type: 'page', id },
      summary: `Moved the page “${title}” ${direction}`,
      after: { order },
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, order }) : saved;
}

/** Deletes page `id`, and its place in the design's menu and footer links (a draft editor: a draft page only). */
export async function deletePage(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  now: number = Date.now(),
): Promise<Result<SavedEdit, PageEditFailure>> {
  let gone: Page | undefined;
  let forbidden: string | undefined;
  const saved = await save(
    db,
    by,
    [
      { kind: 'page', id },
      { kind: 'order', of: 'page' },
    ],
    (content) => {
      const index = content.site.pages.findIndex((p) => p.id === id);
      if (index < 0) return err(noPage(id));
      if (content.site.pages[index]!.path === '/')
        return err('The home page cannot be deleted: give another page the URL / first, then delete this one.');
      forbidden = deletionRefusal(by.staff.role, 'page', shownStatus(content.site.pages[index]!, now)) ?? undefined;
      if (forbidden !== undefined) return err(forbidden);
      [gone] = content.site.pages.splice(index, 1);
      const design = content.site.website.design;
      if (design?.menu) design.menu = design.menu.filter((entry) => entry !== id);
      if (design) design.footerLinks = design.footerLinks.filter((link) => !('page' in link) || link.page !== id);
      return ok(content);
    },
    () => ({
      action: 'page.delete',
      subject: { type: 'page', id },
      summary: `Deleted the page “${gone!.title}” (${gone!.path})`,
      before: auditView(gone!),
    }),
  );
  if (!saved.ok && forbidden !== undefined) return err({ type: 'FORBIDDEN', message: forbidden });
  return saved.ok ? ok({ version: saved.value.version }) : saved;
}

/** Renames collection `id` (its title: the navigation's and its page's heading; its URL stays). */
export async function renameCollection(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  title: string,
): Promise<Result<SavedEdit, EditFailure>> {
  let before = '';
  let after: Collection | undefined;
  const saved = await save(
    db,
    by,
    [{ kind: 'collection', id }],
    (content) => {
      const collection = content.site.collections.find((c) => c.id === id);
      if (!collection) return err(noCollection(id));
      before = collection.title;
      collection.title = title.trim();
      after = collection;
      return ok(content);
    },
    () => ({
      action: 'collection.update',
      subject: { type: 'collection', id },
      summary: `Renamed the collection “${before}” to “${after!.title}”`,
      before: { title: before },
      after: { title: after!.title },
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, collection: after! }) : saved;
}

/** Moves collection `id` one place up or down (the navigation lists the shop and the blog in this order). */
export async function moveCollection(
  db: Kysely<Database>,
  by: EditBy,
  id: string,
  direction: Direction,
): Promise<Result<SavedEdit & { order: string[] }, EditFailure>> {
  let title = '';
  let order: string[] = [];
  const saved = await save(
    db,
    by,
    [{ kind: 'order', of: 'collection' }],
    (content) => {
      const collections = content.site.collections;
      const index = collections.findIndex((c) => c.id === id);
      if (index < 0) return err(noCollection(id));
      title = collections[index]!.title;
      if (!move(collections, index, direction))
        return err(`“${title}” is already the ${direction === 'up' ? 'first' : 'last'} collection.`);
      order = collections.map((c) => c.id);
      return ok(content);
    },
    () => ({
      action: 'collection.move',
      subject: { type: 'collection', id },
      summary: `Moved the collection “${title}” ${direction}`,
      after: { order },
    }),
  );
  return saved.ok ? ok({ version: saved.value.version, order }) : saved;
}
