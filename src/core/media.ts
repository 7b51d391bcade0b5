/**
 * The media library's rules (issue 26): the spec's editor messages for an upload (§5 'Editor messages', §8 'Editor
 * strings'), how a size limit is written in them, and the site path an uploaded file is stored at. Pure: the server
 * (src/modules/site/media.ts) and a page's form use the same texts.
 */

/** The largest upload a site accepts unless its settings say otherwise (`website.media.maxUploadBytes`): 10 MB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The highest limit a site may set (the upload is held in memory while it is checked and re-encoded). */
export const MAX_UPLOAD_BYTES_CEILING = 50 * 1024 * 1024;
/** The smallest limit a site may set. */
export const MIN_UPLOAD_BYTES = 1024;
/** Decoded images larger than this many pixels are refused (a small file can decode to gigabytes). */
export const MAX_IMAGE_PIXELS = 100_000_000;

export const MEDIA_MESSAGES = {
  /** §5: an upload without a file name. */
  fileNameMissing: 'Please enter a file name',
  /** §8: an upload that carried no bytes. */
  uploadProblem: 'There was a problem while uploading your file.',
  /** §8: bytes that are not an image we keep. */
  processingFailed: 'File processing failed',
} as const;

/**
 * A size in the words of the message: '10 MB', '1.5 MB', '500 KB', '900 bytes' (binary units, as file managers
 * show them; at most one decimal, none when whole).
 */
export function formatFileSize(bytes: number): string {
  const units: readonly [number, string][] = [
    [1024 * 1024 * 1024, 'GB'],
    [1024 * 1024, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = Math.round((bytes / size) * 10) / 10;
      return `${Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** §5: 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.' */
export const fileTooLargeMessage = (fileName: string, maxBytes: number): string =>
  `The file ${fileName} is too large. The maximum allowed file size is ${formatFileSize(maxBytes)}.`;

/** The §8 'File processing failed' with what was wrong. */
export const notAnImageMessage = (fileName: string): string =>
  `${MEDIA_MESSAGES.processingFailed}: ${fileName} is not a JPEG, PNG, WebP, GIF, TIFF or AVIF image.`;

/** The name as the owner gave it, trimmed of the folders a browser may send ('C:\\fakepath\\mug.png' → 'mug.png'). */
export const uploadedName = (fileName: string): string =>
  fileName
    .replace(/^.*[\\/]/, '')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);

/** The file name's stem as a site path's part: lower-case letters, digits and dashes ('My Mug (1).PNG' → 'my-mug-1'). */
export function fileStem(fileName: string): string {
  const name = uploadedName(fileName).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem === '' ? 'image' : stem;
}

/**
 * Where an upload is stored in the site: `images/{stem}.{ext}`, with -2, -3 … when that path is taken (an upload never
 * replaces another image).
 */
export function mediaPath(fileName: string, extension: 'jpg' | 'png' | 'webp', taken: ReadonlySet<string>): string {
  const stem = fileStem(fileName);
  for (let n = 1; ; n++) {
    const path = `images/${stem}${n === 1 ? '' : `-${n}`}.${extension}`;
    if (!taken.has(path)) return path;
  }
}
