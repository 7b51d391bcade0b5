/**
 * JSON text with object keys sorted at every level, so that the same answers always give the same text: cart
 * entries merge when sku and additional fields are equal, and equality is by this text.
 */

/** Deeper answers are no form's; the limit also keeps the recursion far from the stack's end. */
export const MAX_CANONICAL_JSON_DEPTH = 32;

/** The canonical text, or undefined when nested deeper than `maxDepth` levels. */
export function canonicalJson(value: unknown, maxDepth = MAX_CANONICAL_JSON_DEPTH, depth = 0): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (depth >= maxDepth) return undefined;
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = canonicalJson(item, maxDepth, depth + 1);
      if (text === undefined) return undefined;
      parts.push(text);
    }
    return `[${parts.join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) {
    const text = canonicalJson(record[key], maxDepth, depth + 1);
    if (text === undefined) return undefined;
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
