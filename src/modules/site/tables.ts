/** The tables the site module owns (Kysely row types); they join the Database type of src/platform/db/tables.ts. */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Bool } from '../../platform/db/tables';

export interface SitesTable {
  id: string;
  title: string;
  /** JSON array of host names. */
  domains: string;
  is_default: Bool;
  currency: string;
  /** JSON: the site file's `website` object. */
  settings: string;
  /** Bumped on every import; rendered pages are cached per version. */
  version: number;
  updated_at: string;
  /**
   * JSON array of the upcoming publish times (ISO UTC, sorted) of the site's scheduled things as of its last save
   * (migration 031): the storefront's edition counts those that have come (src/core/publishing.ts `liveEdition`).
   */
  publish_times: Generated<string>;
}

export interface FormsTable {
  site_id: string;
  id: string;
  position: number;
  data: string;
}

export interface PagesTable {
  site_id: string;
  id: string;
  path: string;
  position: number;
  data: string;
  /** From when it is on the storefront (migration 031): null published, an ISO UTC time, or NEVER_LIVE (a draft). */
  live_from: string | null;
}

export interface PostsTable {
  site_id: string;
  id: string;
  collection_id: string;
  slug: string;
  position: number;
  data: string;
  /** From when it is on the storefront (migration 031): null published, an ISO UTC time, or NEVER_LIVE (a draft). */
  live_from: string | null;
}

/** Images shipped with a site file; `path` is the image's `file` as written in the site file. */
export interface AssetsTable {
  site_id: string;
  path: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
}

/** A site version (issue 26): one row per save; `content` is the site file as JSON, gzip (./versions.ts). */
export interface SiteVersionsTable {
  site_id: string;
  /** The sites.version this save made. */
  number: number;
  created_at: string;
  /** A staff member's e-mail, or 'vitrine import'. */
  created_by: string;
  /** 'import' | 'admin' | 'restore' */
  source: string;
  summary: string;
  content: Buffer;
}

/** The images site versions name, once per site by the SHA-256 (hex) of their bytes. */
export interface SiteVersionAssetsTable {
  site_id: string;
  sha256: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export type SiteRow = Selectable<SitesTable>;
export type NewSiteRow = Insertable<SitesTable>;
export type SiteUpdate = Updateable<SitesTable>;
export type FormRow = Selectable<FormsTable>;
export type PageRow = Selectable<PagesTable>;
export type PostRow = Selectable<PostsTable>;
export type AssetRow = Selectable<AssetsTable>;

declare module '../../platform/db/tables' {
  interface Database {
    sites: SitesTable;
    forms: FormsTable;
    pages: PagesTable;
    posts: PostsTable;
    assets: AssetsTable;
    site_versions: SiteVersionsTable;
    site_version_assets: SiteVersionAssetsTable;
  }
}
