/**
 * The fonts that ship with Vitrine (src/ui/fonts, src/core/design.ts WEB_FONTS), served from the site's own origin at
 * `/fonts/{file}.{hash}.woff2`: the name carries the first 12 hex digits of the file's SHA-256, so an address never
 * changes meaning and is cached for a year, immutable. The files are read once, when this module loads (ten files,
 * about 210 KB).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_FONT_FILES, type FontUrl } from '../core/design';

export const FONTS_DIR = join(import.meta.dirname, '../ui/fonts');
export const FONTS_PATH = '/fonts/';

interface FontFile {
  url: string;
  bytes: Buffer;
}

const byFile = new Map<string, FontFile>();
const byUrl = new Map<string, FontFile>();
for (const file of WEB_FONT_FILES) {
  const bytes = readFileSync(join(FONTS_DIR, `${file}.woff2`));
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const font = { url: `${FONTS_PATH}${file}.${hash}.woff2`, bytes };
  byFile.set(file, font);
  byUrl.set(font.url, font);
}

/** The address of a shipped font file ('inter-latin-400-normal' → '/fonts/inter-latin-400-normal.{hash}.woff2'). */
export const fontUrl: FontUrl = (file) => byFile.get(file)?.url ?? `${FONTS_PATH}${file}.woff2`;

/** The bytes served at a font address, or undefined (an unknown name, an old hash). */
export const fontAt = (path: string): Buffer | undefined => byUrl.get(path)?.bytes;
