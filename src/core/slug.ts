/** Identifiers made from names: a product's or a post's slug (lower-case letters, digits, dashes; at most 64). */

/** 'Café au lait!' → 'cafe-au-lait' (accents dropped, at most 64 characters); `fallback` when nothing is left. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** `base`, or `base-2`, `base-3` …: the first one not in `taken` (at most 64 characters). */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const slug = `${base.slice(0, 64 - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(slug)) return slug;
  }
}
