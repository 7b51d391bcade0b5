/**
 * Edits of the website's settings from /admin (issue 26: the design, the store's settings): what the editor's forms
 * are made from, read fresh from the database (never the request cache, so a form is made from the version just
 * saved), and a save of some of `website`'s keys — through editSite (a new site version; a save of the same keys by
 * someone else since the form's version refused with what changed and by whom) with its audit entry in the save's
 * transaction.
 */
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { recordAudit, type Staff } from '../admin';
import { editSite, settingsValues, type EditFailure, type SettingsList, type SettingsSubject } from './edit';
import type { Collection, Page, Website } from './schema';
import type { ReplacedSite } from './sites';

/** What the design and settings editors are made from. */
export interface SettingsEditorState {
  /** The site version the values are of: the forms' baseVersion. */
  version: number;
  title: string;
  website: Website;
  pages: Pick<Page, 'id' | 'title' | 'path' | 'showInNavigation'>[];
  collections: Pick<Collection, 'id' | 'title' | 'type' | 'slug'>[];
  /** The site's image files (paths as the site file writes them), for a logo or favicon. */
  images: string[];
  /** The site's forms (the promo popup holds one). */
  forms: { id: string; name: string }[];
}

/** The site's settings, pages, collections and image paths as stored now; undefined for an unknown site. */
export async function readSettingsEditor(
  db: Kysely<Database>,
  siteId: string,
): Promise<SettingsEditorState | undefined> {
  const row = await db
    .selectFrom('sites')
    .select(['version', 'title', 'settings'])
    .where('id', '=', siteId)
    .executeTakeFirst();
  if (!row) return undefined;
  const [pages, collections, assets, forms] = await Promise.all([
    db.selectFrom('pages').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('collections').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
    db.selectFrom('assets').select('path').where('site_id', '=', siteId).orderBy('path').execute(),
    db.selectFrom('forms').select('data').where('site_id', '=', siteId).orderBy('position').execute(),
  ]);
  return {
    version: row.version,
    title: row.title,
    website: JSON.parse(row.settings) as Website,
    pages: pages.map((r) => {
      const page = JSON.parse(r.data) as Page;
      return { id: page.id, title: page.title, path: page.path, showInNavigation: page.showInNavigation };
    }),
    collections: collections.map((r) => {
      const c = JSON.parse(r.data) as Collection;
      return { id: c.id, title: c.title, type: c.type, slug: c.slug };
    }),
    images: assets.map((a) => a.path).filter((path) => /\.(jpe?g|png|webp)$/i.test(path)),
    forms: forms.map((r) => {
      const form = JSON.parse(r.data) as { id: string; name?: string };
      return { id: form.id, name: form.name ?? form.id };
    }),
  };
}

export type SettingsKey = keyof Website;

export interface SettingsSave {
  baseVersion: number;
  /**
   * What of `website` this save changes: keys or dotted paths ('store.checkout.shipsTo'), and items of the settings'
   * lists (a coupon, a shipping option, a tax rate). The stale check compares them with the base version, so saves of
   * other coupons, options or rates meanwhile are kept (editSite).
   */
  subjects: readonly SettingsSubject[];
  staff: Staff;
  /** The audit entry's action ('design.edit', 'settings.edit') and, in words, what was done. */
  action: string;
  summary: string;
  /** The change, applied to the stored settings (a copy): the new settings, or why not. */
  change: (website: Website) => Result<Website, string>;
}

/** Settings subjects by key or dotted path. */
export const settingsKeys = (...keys: string[]): SettingsSubject => ({ kind: 'settings', keys });

/** One item of a settings list. */
export const settingsListItem = (list: SettingsList, id: string): SettingsSubject => ({
  kind: 'settingsItem',
  list,
  id,
});

/** Saves a change of the website's settings as a new version with its audit entry, or says why not. */
export async function saveSettings(
  db: Kysely<Database>,
  siteId: string,
  save: SettingsSave,
): Promise<Result<ReplacedSite, EditFailure>> {
  let before: Record<string, unknown> = {};
  let after: Record<string, unknown> = {};
  const saved = await editSite(db, siteId, {
    baseVersion: save.baseVersion,
    subjects: save.subjects,
    author: { createdBy: save.staff.email },
    change: (current) => {
      const changed = save.change(current.site.website);
      if (!changed.ok) return err(changed.error);
      before = settingsValues(current.site.website, save.subjects);
      after = settingsValues(changed.value, save.subjects);
      return ok({ ...current, site: { ...current.site, website: changed.value } });
    },
    alsoInTransaction: async (trx, { version }) => {
      await recordAudit(trx, {
        siteId,
        actor: save.staff.actor,
        action: save.action,
        subject: { type: 'site', id: siteId },
        summary: `${save.summary} (version ${version.number})`,
        before,
        after,
      });
    },
  });
  return saved;
}
