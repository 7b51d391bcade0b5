/**
 * An edit of the site from /admin (issue 26): one change to the stored site file — a product, a page, the design… —
 * saved as a new site version, exactly as an import of the changed file would be (`replaceSite`: one transaction,
 * live stock kept, the search index and the cache follow). The browser edits the same file `vitrine export` writes.
 *
 * The editor's form was made from a version (`baseVersion`). Saves meanwhile are handled per thing, as an owner
 * expects of a shared editor: when the things this edit touches (`subjects`) are the same in the stored site as in the
 * base version, the change is applied to the stored site (someone else's edit of another product stays); when one of
 * them changed, nothing is written and the editor is told what changed, by whom — never overwritten silently. The
 * check is made again under the save's write lock (`expectedVersion`), so two editors saving at once both go through
 * (one after the other, each checked against the other's save) or the second is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import { describeThingChange, siteDiff, type ThingKind } from '../../core/siteDiff';
import type { Database } from '../../platform/db/tables';
import { taxRatePlace } from '../../core/checkout/tax';
import type { SiteFile, TaxRate, Website } from './schema';
import {
  ensureVersions,
  readSite,
  replaceSite,
  SiteChangedMeanwhileError,
  SiteConflictError,
  type ReplacedSite,
  type Site,
  type SiteAsset,
} from './sites';
import { validateSite } from './validate';
import { getVersion, listVersions, type SiteVersion } from './versions';

/** The lists of the website's settings whose items an edit touches one by one (issue 26: per item, not per key). */
export type SettingsList = 'coupons' | 'shippingOptions' | 'taxRates';

/** What an edit touches: one thing of the site file, the order of a kind of things, or website settings. */
export type EditSubject =
  | { kind: ThingKind; id: string }
  | { kind: 'order'; of: ThingKind }
  /** Website settings by key ('captcha'), or a part of one by its dotted path ('store.checkout.shipsTo'). */
  | { kind: 'settings'; keys: readonly string[] }
  /** One item of a settings list: a coupon by its code (any case), a shipping option by id, a tax rate by place. */
  | { kind: 'settingsItem'; list: SettingsList; id: string };

/** A settings subject of an edit. */
export type SettingsSubject = Extract<EditSubject, { kind: 'settings' | 'settingsItem' }>;

interface ListOf<T> {
  /** How the item is named in a stale save's lines ('Coupon WELCOME10 changed'). */
  words: string;
  items: (website: Website) => readonly T[];
  /** The item's identity, as a subject names it (normalised: a coupon's code in upper case). */
  key: (item: T) => string;
  normalise: (id: string) => string;
}

const SETTINGS_LISTS: { [L in SettingsList]: ListOf<unknown> } = {
  coupons: {
    words: 'Coupon',
    items: (w) => w.store.checkout.coupons,
    key: (c) => (c as { code: string }).code.toUpperCase(),
    normalise: (id) => id.toUpperCase(),
  },
  shippingOptions: {
    words: 'Shipping option',
    items: (w) => w.store.checkout.shippingOptions,
    key: (o) => (o as { id: string }).id,
    normalise: (id) => id,
  },
  taxRates: {
    words: 'Tax rate',
    items: (w) => w.store.checkout.tax.rates,
    key: (r) => taxRatePlace(r as TaxRate),
    normalise: (id) => id,
  },
};

/** The item `id` of a settings list, or undefined. */
export function settingsItem(website: Website, list: SettingsList, id: string): unknown {
  const of = SETTINGS_LISTS[list];
  const wanted = of.normalise(id);
  return of.items(website).find((item) => of.key(item) === wanted);
}

/** The value at a dotted path of the website's settings ('store.checkout.shipsTo'), or undefined. */
export function settingsAt(website: Website, path: string): unknown {
  let value: unknown = website;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** What settings subjects name, in `website` (an audit entry's before and after): by path, and by item. */
export function settingsValues(website: Website, subjects: readonly SettingsSubject[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const subject of subjects) {
    if (subject.kind === 'settings') for (const key of subject.keys) values[key] = settingsAt(website, key) ?? null;
    else values[`${subject.list}:${subject.id}`] = settingsItem(website, subject.list, subject.id) ?? null;
  }
  return values;
}

export type EditFailure =
  /** The site has no such site, or the base version is unknown. */
  | { type: 'NOT_FOUND'; message: string }
  /** A thing this edit touches was changed by another save since the base version. */
  | { type: 'STALE'; message: string; changes: string[] }
  /** The change itself refused (a product that no longer exists, a slug already taken…). */
  | { type: 'REFUSED'; message: string }
  /** The changed site file is not valid: the schema's problems, each with its path. */
  | { type: 'INVALID'; message: string; problems: string[] }
  | { type: 'DOMAIN_TAKEN'; message: string; problems: string[] };

export interface SiteContent {
  site: SiteFile;
  assets: SiteAsset[];
}

export interface SiteEdit {
  /** The version the editor's form was made from. */
  baseVersion: number;
  subjects: readonly EditSubject[];
  /** The change, applied to the stored site (a copy: it may be changed in place): the new content, or why not. */
  change: (current: SiteContent) => Result<SiteContent, string>;
  /** Who edits (a staff member's e-mail) and, before the version's summary, what (optional). */
  author: { createdBy: string; note?: string };
  /** More work in the save's transaction (the audit entry). */
  alsoInTransaction?: (trx: Kysely<Database>, saved: { site: Site; version: SiteVersion }) => Promise<void>;
  /**
   * The editor's own rules beyond the site file's (an import takes what they refuse): problems of the changed site as
   * the schema words them ('products[3].tags[1]: …'), refused with its problems.
   */
  moreProblems?: (site: SiteFile) => string[];
}

/**
 * How many times a save that met another process's save under the write lock reads the site again. In one process,
 * edits of a site take turns (`turns`), so only other processes' saves come between.
 */
const ATTEMPTS = 8;

/** Per site, the end of the last edit queued in this process. */
const turns = new Map<string, Promise<unknown>>();

/** Runs `work` after this process's earlier edits of the site (whatever their outcome). */
function inTurn<T>(siteId: string, work: () => Promise<T>): Promise<T> {
  const previous = turns.get(siteId) ?? Promise.resolve();
  const mine = previous.then(work, work);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(siteId, settled);
  void settled.then(() => {
    if (turns.get(siteId) === settled) turns.delete(siteId);
  });
  return mine;
}

const KIND_KEYS: Readonly<Record<ThingKind, 'products' | 'collections' | 'pages' | 'posts' | 'forms'>> = {
  product: 'products',
  collection: 'collections',
  page: 'pages',
  post: 'posts',
  form: 'forms',
};

const KIND_WORDS: Readonly<Record<ThingKind, string>> = {
  product: 'products',
  collection: 'collections',
  page: 'pages',
  post: 'posts',
  form: 'forms',
};

/** What changed, between the base and the stored site, of the things an edit touches: lines for the editor. */
function staleChanges(base: SiteFile, stored: SiteFile, subjects: readonly EditSubject[]): string[] {
  const lines: string[] = [];
  const things = subjects.filter(
    (s): s is { kind: ThingKind; id: string } =>
      s.kind !== 'order' && s.kind !== 'settings' && s.kind !== 'settingsItem',
  );
  if (things.length) {
    const touched = new Set(things.map((t) => `${t.kind}:${t.id}`));
    const only = (site: SiteFile) => {
      const pick = (kind: ThingKind) => site[KIND_KEYS[kind]].filter((r) => touched.has(`${kind}:${r.id}`));
      return {
        website: {},
        products: pick('product'),
        collections: pick('collection'),
        pages: pick('page'),
        posts: pick('post'),
        forms: pick('form'),
      };
    };
    const diff = siteDiff(only(base), only(stored));
    lines.push(...diff.things.map(describeThingChange));
  }
  for (const subject of subjects) {
    if (subject.kind === 'order') {
      const ids = (site: SiteFile) => site[KIND_KEYS[subject.of]].map((r) => r.id);
      if (!isDeepStrictEqual(ids(base), ids(stored))) lines.push(`The order of the ${KIND_WORDS[subject.of]} changed`);
    } else if (subject.kind === 'settings') {
      const changed = subject.keys.filter(
        (key) => !isDeepStrictEqual(settingsAt(base.website, key), settingsAt(stored.website, key)),
      );
      if (changed.length) lines.push(`Website settings: ${changed.join(', ')} changed`);
    } else if (subject.kind === 'settingsItem') {
      const before = settingsItem(base.website, subject.list, subject.id);
      const now = settingsItem(stored.website, subject.list, subject.id);
      if (!isDeepStrictEqual(before, now)) {
        const what = before === undefined ? 'added' : now === undefined ? 'removed' : 'changed';
        lines.push(`${SETTINGS_LISTS[subject.list].words} ${subject.id} ${what}`);
      }
    }
  }
  return lines;
}

/** Who saved the versions after `base`, up to `stored`: 'owner@example.com (version 7)'. */
async function savedBy(db: Kysely<Database>, siteId: string, base: number, stored: number): Promise<string> {
  const { versions } = await listVersions(db, siteId, { limit: Math.min(stored - base, 20), before: stored + 1 });
  const names = versions.filter((v) => v.number > base).map((v) => `${v.createdBy} (version ${v.number})`);
  return names.reverse().join(', ');
}

/** The site's stored version number and content; undefined for an unknown site. */
async function storedContent(
  db: Kysely<Database>,
  siteId: string,
): Promise<{ version: number; content: SiteContent } | undefined> {
  // The version first: rows read after a save that came between are newer than it, and the save under the lock,
  // expecting this number, then reads again.
  const row = await db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirst();
  if (!row) return undefined;
  const content = await readSite(db, siteId);
  return content && { version: row.version, content };
}

/** Applies `edit` to the stored site and saves it as a new version (source 'admin'), or says why not. */
export function editSite(
  db: Kysely<Database>,
  siteId: string,
  edit: SiteEdit,
): Promise<Result<ReplacedSite, EditFailure>> {
  return inTurn(siteId, () => saveEdit(db, siteId, edit));
}

async function saveEdit(
  db: Kysely<Database>,
  siteId: string,
  edit: SiteEdit,
): Promise<Result<ReplacedSite, EditFailure>> {
  await ensureVersions(db, siteId);
  const base = await getVersion(db, siteId, edit.baseVersion);
  if (!base) return err({ type: 'NOT_FOUND', message: `This site has no version ${edit.baseVersion}.` });
  for (let attempt = 1; ; attempt++) {
    const stored = await storedContent(db, siteId);
    if (!stored) return err({ type: 'NOT_FOUND', message: `There is no site '${siteId}'.` });
    if (stored.version !== edit.baseVersion) {
      const changes = staleChanges(base.content.site, stored.content.site, edit.subjects);
      if (changes.length) {
        const who = await savedBy(db, siteId, edit.baseVersion, stored.version);
        return err({
          type: 'STALE',
          message: `Not saved: this was changed since you opened it${who ? `, by ${who}` : ''}. Reload to see the changes, then make yours again.`,
          changes,
        });
      }
    }
    const changed = edit.change(structuredClone(stored.content));
    if (!changed.ok) return err({ type: 'REFUSED', message: changed.error });
    const valid = validateSite(changed.value.site);
    const problems = [...(valid.ok ? [] : valid.problems), ...(edit.moreProblems?.(changed.value.site) ?? [])];
    if (!valid.ok || problems.length) return err({ type: 'INVALID', message: `Not saved: ${problems[0]}`, problems });
    try {
      const saved = await replaceSite(db, valid.site, changed.value.assets, {
        stock: 'live',
        expectedVersion: stored.version,
        author: {
          createdBy: edit.author.createdBy,
          source: 'admin',
          ...(edit.author.note ? { note: edit.author.note } : {}),
        },
        ...(edit.alsoInTransaction ? { alsoInTransaction: edit.alsoInTransaction } : {}),
      });
      return ok(saved);
    } catch (error) {
      if (error instanceof SiteChangedMeanwhileError) {
        if (attempt < ATTEMPTS) continue;
        return err({
          type: 'STALE',
          message: 'Not saved: the site was saved by others several times while this was saving. Try again.',
          changes: [],
        });
      }
      if (error instanceof SiteConflictError)
        return err({
          type: 'DOMAIN_TAKEN',
          message: `Not saved: ${error.problems.join('; ')}.`,
          problems: error.problems,
        });
      throw error;
    }
  }
}
