import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where Vite writes the browser bundle and the URL prefix it is served under (see vite.config.ts). */
export const CLIENT_DIST_DIR = join(import.meta.dirname, '../../dist/client');
export const CLIENT_BASE_URL = '/client/';
export const CLIENT_ENTRY = 'src/client/main.tsx';

export interface ClientAssets {
  /** Module script URLs to load (the entry). */
  scripts: string[];
  /** Imported chunks worth preloading. */
  preloads: string[];
  styles: string[];
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

const EMPTY: ClientAssets = { scripts: [], preloads: [], styles: [] };

/**
 * Reads Vite's manifest once and answers the tags a page needs. Without a build (a test that only exercises the
 * server, say) pages still render, just without the browser bundle; we warn once rather than fail every request.
 */
export function readClientAssets(distDir = CLIENT_DIST_DIR, warn: (message: string) => void = console.warn): ClientAssets {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    warn(`vitrine: no browser bundle at ${distDir} (run \`vite build\`); pages render without JavaScript and styles.`);
    return EMPTY;
  }
  const entry = manifest[CLIENT_ENTRY];
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
