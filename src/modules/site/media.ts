/**
 * The media library (issue 26): an uploaded file becomes an image of the site. The type is sniffed from the bytes by
 * sharp (never from the name), the image is re-encoded (EXIF and other metadata dropped, its orientation applied
 * first) and stored at `images/{name}.{jpg|png|webp}` in the site's content — the same images `vitrine export` writes
 * beside the site file — and named in `website.media.images`, so an image nothing shows yet survives an export and
 * an import. The size limit is the site's (`website.media.maxUploadBytes`, 10 MB by default), refused with the spec's
 * text. Pure over a site's content: the caller saves it (`editSite`), so an upload is a site version like any edit.
 */
import sharp from 'sharp';
import {
  DEFAULT_MAX_UPLOAD_BYTES,
  fileTooLargeMessage,
  MAX_IMAGE_PIXELS,
  MEDIA_MESSAGES,
  mediaPath,
  notAnImageMessage,
  uploadedName,
} from '../../core/media';
import { err, ok, type Result } from '../../core/result';
import type { SiteContent } from './edit';
import type { SiteFile, Website } from './schema';
import type { SiteAsset } from './sites';

export interface Upload {
  bytes: Buffer;
  /** The file's name as the owner's computer gave it. */
  fileName: string;
}

export type UploadRefusal =
  /** 'Please enter a file name' (§5). */
  | { type: 'NO_FILE_NAME'; message: string }
  /** 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.' (§5). */
  | { type: 'TOO_LARGE'; message: string; maxBytes: number }
  /** No bytes came (§8 'There was a problem while uploading your file.'). */
  | { type: 'EMPTY'; message: string }
  /** Not an image sharp reads as JPEG, PNG, WebP, GIF, TIFF or AVIF (§8 'File processing failed'). */
  | { type: 'NOT_AN_IMAGE'; message: string };

/** The site's upload limit in bytes. */
export const maxUploadBytes = (website: Pick<Website, 'media'>): number =>
  website.media?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;

/** The upload's name and size checked before its bytes are read (a request's declared length). */
export function checkUpload(
  website: Pick<Website, 'media'>,
  fileName: string,
  size: number,
): Result<string, UploadRefusal> {
  const name = uploadedName(fileName);
  if (name === '') return err({ type: 'NO_FILE_NAME', message: MEDIA_MESSAGES.fileNameMissing });
  const max = maxUploadBytes(website);
  if (size > max) return err({ type: 'TOO_LARGE', message: fileTooLargeMessage(name, max), maxBytes: max });
  return ok(name);
}

/** The refusal of an upload known to be over the limit (its bytes were not kept): too large, or without a name. */
export function fileTooLargeFor(website: Pick<Website, 'media'>, fileName: string): UploadRefusal {
  const checked = checkUpload(website, fileName, Number.POSITIVE_INFINITY);
  return checked.ok ? { type: 'EMPTY', message: MEDIA_MESSAGES.uploadProblem } : checked.error;
}

/** JPEG stays JPEG, WebP stays WebP; PNG, GIF (its first frame), TIFF and AVIF become PNG. */
const OUTPUT: Readonly<Record<string, 'jpg' | 'png' | 'webp'>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'png',
  tiff: 'png',
  heif: 'png',
};
const CONTENT_TYPE = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/** The upload as a site image (not yet in a site): sniffed, re-encoded, without metadata. */
export async function imageFromUpload(
  website: Pick<Website, 'media'>,
  upload: Upload,
  taken: ReadonlySet<string>,
): Promise<Result<SiteAsset, UploadRefusal>> {
  const checked = checkUpload(website, upload.fileName, upload.bytes.length);
  if (!checked.ok) return checked;
  const name = checked.value;
  if (upload.bytes.length === 0) return err({ type: 'EMPTY', message: MEDIA_MESSAGES.uploadProblem });
  const notImage = err<UploadRefusal>({ type: 'NOT_AN_IMAGE', message: notAnImageMessage(name) });
  try {
    const input = sharp(upload.bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
    const meta = await input.metadata();
    const extension = meta.format ? OUTPUT[meta.format] : undefined;
    if (!extension || !meta.width || !meta.height) return notImage;
    // rotate() applies the EXIF orientation; sharp writes no metadata unless asked (withMetadata), so EXIF, GPS,
    // ICC comments and XMP are gone from what is stored.
    const oriented = input.rotate();
    const encoded =
      extension === 'jpg'
        ? oriented.jpeg({ quality: 85, mozjpeg: true })
        : extension === 'webp'
          ? oriented.webp({ quality: 85 })
          : oriented.png({ compressionLevel: 9 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return ok({
      path: mediaPath(name, extension, taken),
      contentType: CONTENT_TYPE[extension],
      width: info.width,
      height: info.height,
      bytes: data,
    });
  } catch {
    return notImage;
  }
}

/**
 * Adds the upload to the site's content as an image of its media library (at a path no other image has), or says
 * why not. The content is changed in place and returned with the new image.
 */
export async function addSiteImage(
  content: SiteContent,
  upload: Upload,
): Promise<Result<{ content: SiteContent; image: SiteAsset }, UploadRefusal>> {
  const image = await imageFromUpload(content.site.website, upload, new Set());
  if (!image.ok) return image;
  return ok(withLibraryImage(content, image.value));
}

/**
 * The content with `image` stored and named in the media library, at its path or, when another image has taken it
 * meanwhile, the next free one (`images/mug-2.png`): an upload never replaces an image. Synchronous, for an edit's
 * change (`editSite`): make the image first with `imageFromUpload`, then add it in the change.
 */
export function withLibraryImage(content: SiteContent, image: SiteAsset): { content: SiteContent; image: SiteAsset } {
  const taken = new Set([...content.assets.map((a) => a.path), ...imageUses(content.site).keys()]);
  const extension = /\.(jpg|png|webp)$/.exec(image.path)?.[1] as 'jpg' | 'png' | 'webp' | undefined;
  const path = taken.has(image.path) && extension ? mediaPath(image.path, extension, taken) : image.path;
  const stored = { ...image, path };
  const website = content.site.website;
  const media = website.media ?? { maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES, images: [] };
  website.media = { ...media, images: [...media.images, path] };
  content.assets = [...content.assets, stored];
  return { content, image: stored };
}

/** Where an image is shown: a product, page, post, or the design's logo or favicon. */
export interface ImageUse {
  kind: 'product' | 'page' | 'post' | 'design';
  id: string;
  /** The product's name, the page's or post's title, 'Logo' or 'Favicon'. */
  name: string;
}

/** Every image path the site shows → where (in the site file's order; one entry per thing). */
export function imageUses(site: SiteFile): Map<string, ImageUse[]> {
  const uses = new Map<string, ImageUse[]>();
  const add = (file: string | undefined, use: ImageUse) => {
    if (file === undefined) return;
    const list = uses.get(file) ?? [];
    if (!list.some((u) => u.kind === use.kind && u.id === use.id)) list.push(use);
    uses.set(file, list);
  };
  for (const product of site.products)
    for (const image of product.images) add(image.file, { kind: 'product', id: product.id, name: product.name });
  for (const page of site.pages) {
    const use: ImageUse = { kind: 'page', id: page.id, name: page.title };
    for (const block of page.blocks) {
      if (block.type === 'image') add(block.image.file, use);
      else if (block.type === 'video') add(block.overlay.file, use);
      else if (block.type === 'gallery') for (const image of block.images) add(image.file, use);
    }
  }
  for (const post of site.posts) add(post.image?.file, { kind: 'post', id: post.id, name: post.title });
  const design = site.website.design;
  add(design?.logo?.file, { kind: 'design', id: 'logo', name: 'Logo' });
  add(design?.favicon?.file, { kind: 'design', id: 'favicon', name: 'Favicon' });
  return uses;
}

/** One image of the media list. */
export interface MediaItem {
  path: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  usedBy: ImageUse[];
}

/** The site's images, newest uploads first, then the others by path, each with where it is shown. */
export function mediaItems(content: SiteContent): MediaItem[] {
  const uses = imageUses(content.site);
  const library = content.site.website.media?.images ?? [];
  const rank = (path: string) => {
    const i = library.indexOf(path);
    return i === -1 ? -1 : i;
  };
  return [...content.assets]
    .sort((a, b) => rank(b.path) - rank(a.path) || a.path.localeCompare(b.path))
    .map((a) => ({
      path: a.path,
      contentType: a.contentType,
      width: a.width,
      height: a.height,
      bytes: a.bytes.length,
      usedBy: uses.get(a.path) ?? [],
    }));
}

/** Says in words where an image is used: 'product “Mug”, page “About”'. */
export const describeUses = (uses: readonly ImageUse[]): string =>
  uses.map((u) => (u.kind === 'design' ? `the ${u.name.toLowerCase()}` : `${u.kind} “${u.name}”`)).join(', ');

/** Removes an image nothing shows from the site's content, or says why not. */
export function removeSiteImage(content: SiteContent, path: string): Result<SiteContent, string> {
  if (!content.assets.some((a) => a.path === path)) return err(`The site has no image ${path}.`);
  const uses = imageUses(content.site).get(path) ?? [];
  if (uses.length) return err(`${path} is still shown by ${describeUses(uses)}: remove it there first.`);
  content.assets = content.assets.filter((a) => a.path !== path);
  const media = content.site.website.media;
  if (media) content.site.website.media = { ...media, images: media.images.filter((p) => p !== path) };
  return ok(content);
}
