import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where Vite writes the browser bundle and the URL prefix it is served under (see vite.config.ts). */
export const CLIENT_DIST_DIR = join(import.meta.dirname, '../../dist/client');
export const CLIENT_BASE_URL = '/client/';
/** Every page's entry: the islands of src/client/islands and the cart store. */
export const CLIENT_ENTRY = 'src/client/main.tsx';
/** The checkout page's entry: the checkout island only (its code never reaches other pages). */
export const CHECKOUT_ENTRY = 'src/client/checkout.tsx';
/** The owner's area's entry (/admin): its stylesheet and islands. */
export const ADMIN_ENTRY = 'src/client/admin.tsx';

export interface ClientAssets {
  /** Module script URLs to load (the entry). */
  scripts: string[];
  /** Imported chunks worth preloading (chunks the entry shares with other entries: React, the core). */
  preloads: string[];
  styles: string[];
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

type Manifest = Record<string, ManifestChunk>;

const EMPTY: ClientAssets = { scripts: [], preloads: [], styles: [] };

/**
 * Reads Vite's manifest once and answers the tags a page needs for `entry` (the main entry by default). Without a
 * build (a test that only exercises the server, say) pages still render, just without the browser bundle; we warn
 * once rather than fail every request.
 */
export function readClientAssets(
  distDir = CLIENT_DIST_DIR,
  warn: (message: string) => void = console.warn,
  entry: string = CLIENT_ENTRY,
): ClientAssets {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  } catch {
    warn(`vitrine: no browser bundle at ${distDir} (run \`vite build\`); pages render without JavaScript and styles.`);
    return EMPTY;
  }
  return entryAssets(manifest, entry);
}

/** The checkout page's tags (its own entry and the chunks it shares with the main entry). */
export const readCheckoutAssets = (
  distDir = CLIENT_DIST_DIR,
  warn: (message: string) => void = console.warn,
): ClientAssets => readClientAssets(distDir, warn, CHECKOUT_ENTRY);

/** The entry's script, every chunk it imports (transitively) to preload, and the stylesheets of them all. */
function entryAssets(manifest: Manifest, entryKey: string): ClientAssets {
  const entry = manifest[entryKey];
  if (!entry) return EMPTY;
  const preloads: string[] = [];
  const styles = new Set(entry.css ?? []);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    preloads.push(CLIENT_BASE_URL + chunk.file);
    chunk.css?.forEach((c) => styles.add(c));
    chunk.imports?.forEach(visit);
  };
  entry.imports?.forEach(visit);
  return {
    scripts: [CLIENT_BASE_URL + entry.file],
    preloads,
    styles: [...styles].map((c) => CLIENT_BASE_URL + c),
  };
}
