/**
 * `vitrine import`: a site file (JSON text plus the folder its images live in) is validated whole — every problem
 * listed by its JSON path — and only a valid file replaces the site's rows, in one transaction. A refused file
 * changes nothing.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../platform/db/tables';
import type { ImportStockPlan } from '../../core/importStock';
import { replaceSite, SiteConflictError, type ReplaceSiteOptions, type Site, type SiteAsset } from './sites';
import type { SiteFile } from './schema';
import { formatPath, parseJson, validateSite } from './validate';

/** Largest image file accepted (bytes). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_FILE = /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.(jpe?g|png|webp)$/;
const CONTENT_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** A refused site file: `problems` lists every problem, one line each. */
export class SiteFileError extends Error {
  override name = 'SiteFileError';
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(
      problems.length === 1
        ? `${source} was refused: ${problems[0]}`
        : `${source} was refused, ${problems.length} problems:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
}

export interface ImportResult {
  site: Site;
  counts: {
    collections: number;
    products: number;
    variants: number;
    forms: number;
    pages: number;
    posts: number;
    images: number;
  };
  /** Which variants kept their live stock and which took the file's (src/core/importStock.ts). */
  stock: ImportStockPlan;
}

/** Validates a site file and reads its images; throws SiteFileError listing every problem. */
export async function loadSite(
  text: string,
  dir: string,
  source = 'the site file',
): Promise<{ site: SiteFile; assets: SiteAsset[] }> {
  const json = parseJson(text);
  if (!json.ok) throw new SiteFileError(source, [json.problem]);
  const validation = validateSite(json.value);
  const problems = validation.ok ? [] : [...validation.problems];
  const assets: SiteAsset[] = [];
  for (const [file, paths] of imageReferences(json.value)) {
    const loaded = await readImage(dir, file);
    if (typeof loaded === 'string') problems.push(`${formatPath(paths[0] ?? [], json.value)}: ${loaded}`);
    else assets.push(loaded);
  }
  if (!validation.ok || problems.length) throw new SiteFileError(source, problems);
  return { site: validation.site, assets };
}

/**
 * Imports site-file text whose images are in `dir`. Stored variants keep their live stock unless `options.stock` asks
 * for the file's; SKUs named there must be variants of the file.
 */
export async function importSite(
  db: Kysely<Database>,
  text: string,
  dir: string,
  source = 'the site file',
  options: ReplaceSiteOptions = {},
): Promise<ImportResult> {
  const { site, assets } = await loadSite(text, dir, source);
  if (typeof options.stock === 'object') {
    const skus = new Set(site.products.flatMap((p) => p.variants.map((v) => v.sku)));
    const unknown = options.stock.skus.filter((sku) => !skus.has(sku));
    if (unknown.length)
      throw new SiteFileError(
        source,
        unknown.map((sku) => `--stock file:${sku}: the file has no variant with SKU '${sku}'`),
      );
  }
  let stored: { site: Site; stock: ImportStockPlan };
  try {
    stored = await replaceSite(db, site, assets, options);
  } catch (error) {
    if (error instanceof SiteConflictError) throw new SiteFileError(source, error.problems);
    throw error;
  }
  return {
    site: stored.site,
    stock: stored.stock,
    counts: {
      collections: site.collections.length,
      products: site.products.length,
      variants: site.products.reduce((n, p) => n + p.variants.length, 0),
      forms: site.forms.length,
      pages: site.pages.length,
      posts: site.posts.length,
      images: assets.length,
    },
  };
}

/** Imports the site file at `path` (its images are resolved from its folder). */
export async function importSiteFile(
  db: Kysely<Database>,
  path: string,
  options: ReplaceSiteOptions = {},
): Promise<ImportResult> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.isDirectory())
      throw new SiteFileError(path, [`is a folder; give the site file inside it (e.g. ${join(path, 'site.json')})`]);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof SiteFileError) throw error;
    throw new SiteFileError(path, [fileProblem(error)]);
  }
  return importSite(db, text, dirname(resolve(path)), path, options);
}

function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `cannot be read (${(error as Error).message})`;
}

/** Image paths referenced by the raw file → the JSON paths that reference them (well-formed paths only). */
function imageReferences(raw: unknown): Map<string, (string | number)[][]> {
  const refs = new Map<string, (string | number)[][]>();
  const add = (image: unknown, path: (string | number)[]) => {
    const file = isObject(image) ? image.file : undefined;
    if (typeof file !== 'string' || !IMAGE_FILE.test(file)) return;
    refs.set(file, [...(refs.get(file) ?? []), [...path, 'file']]);
  };
  if (!isObject(raw)) return refs;
  list(raw.products).forEach((product, p) => {
    if (isObject(product)) list(product.images).forEach((image, i) => add(image, ['products', p, 'images', i]));
  });
  list(raw.pages).forEach((page, p) => {
    if (!isObject(page)) return;
    list(page.blocks).forEach((block, b) => {
      if (!isObject(block)) return;
      add(block.image, ['pages', p, 'blocks', b, 'image']);
      // A gallery block's images.
      list(block.images).forEach((image, i) => add(image, ['pages', p, 'blocks', b, 'images', i]));
    });
  });
  // A video block's overlay image (shown until the video is played).
  list(raw.pages).forEach((page, p) => {
    if (isObject(page))
      list(page.blocks).forEach(
        (block, b) => isObject(block) && add(block.overlay, ['pages', p, 'blocks', b, 'overlay']),
      );
  });
  list(raw.posts).forEach((post, p) => isObject(post) && add(post.image, ['posts', p, 'image']));
  // The design's logo and favicon.
  const design = isObject(raw.website) ? raw.website.design : undefined;
  if (isObject(design)) {
    add(design.logo, ['website', 'design', 'logo']);
    add(design.favicon, ['website', 'design', 'favicon']);
  }
  // The media library's images (uploads nothing shows yet).
  const media = isObject(raw.website) ? raw.website.media : undefined;
  if (isObject(media))
    list(media.images).forEach((file, i) => {
      if (typeof file === 'string' && IMAGE_FILE.test(file))
        refs.set(file, [...(refs.get(file) ?? []), ['website', 'media', 'images', i]]);
    });
  return refs;
}

async function readImage(dir: string, file: string): Promise<SiteAsset | string> {
  let bytes: Buffer;
  try {
    const info = await stat(join(dir, file));
    if (!info.isFile()) return `image '${file}' is not a file`;
    if (info.size > MAX_IMAGE_BYTES) return `image '${file}' is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`;
    bytes = await readFile(join(dir, file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `image file '${file}' not found next to the site file`
      : `image file '${file}' ${fileProblem(error)}`;
  }
  try {
    const meta = await sharp(bytes).metadata();
    const contentType = meta.format ? CONTENT_TYPES[meta.format] : undefined;
    if (!contentType || !meta.width || !meta.height) return `image '${file}' is not a JPEG, PNG or WebP image`;
    return { path: file, contentType, width: meta.width, height: meta.height, bytes };
  } catch {
    return `image '${file}' is not a JPEG, PNG or WebP image`;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
