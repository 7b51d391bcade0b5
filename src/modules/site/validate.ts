/**
 * Validation of a site file's JSON value: every problem, each named by its JSON path
 * (`products[3].variants[0].price: must be a whole number of minor units (cents)`).
 */
import type { z } from 'zod';
import {
  checkReferences,
  collectionSchema,
  formSchema,
  pageSchema,
  postSchema,
  productSchema,
  siteFileSchema,
  type SiteFile,
  type SiteParts,
} from './schema';

export type Validation = { ok: true; site: SiteFile } | { ok: false; problems: string[] };

/** The lists of the site file whose records are named by their id and name (or title) in a problem's path. */
const NAMED_LISTS: Readonly<Record<string, string>> = {
  collections: 'title',
  products: 'name',
  forms: 'name',
  pages: 'title',
  posts: 'title',
};

/** ` (id 'mug', "Speckled Mug")` for a record of the raw file, '' when it has neither. */
function recordName(raw: unknown, list: string, index: number): string {
  const nameKey = NAMED_LISTS[list];
  if (!nameKey || !isObject(raw)) return '';
  const items = raw[list];
  const item = Array.isArray(items) ? (items[index] as unknown) : undefined;
  if (!isObject(item)) return '';
  const parts: string[] = [];
  if (typeof item.id === 'string' && item.id !== '') parts.push(`id '${item.id.slice(0, 80)}'`);
  const name = item[nameKey];
  if (typeof name === 'string' && name.trim() !== '') parts.push(JSON.stringify(name.slice(0, 80)));
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * `['products', 3, 'variants', 0, 'price']` → `products[3].variants[0].price`; given the raw file, a product,
 * collection, page, post or form is named too: `products[3] (id 'mug', "Speckled Mug").variants[0].price`.
 */
export function formatPath(path: readonly PropertyKey[], raw?: unknown): string {
  let out = '';
  for (const [i, key] of path.entries()) {
    if (typeof key === 'number') {
      out += `[${key}]`;
      if (i === 1 && typeof path[0] === 'string' && raw !== undefined) out += recordName(raw, path[0], key);
    } else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

const show = (v: unknown) => (typeof v === 'string' ? `'${v}'` : String(v));
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Plain-English messages for the issues whose schema gives no message of its own. */
const messages: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is required';
      return `must be ${iss.expected === 'int' ? 'a whole number' : `a${/^[aeiou]/.test(iss.expected) ? 'n' : ''} ${iss.expected}`}, not ${typeName(iss.input)}`;
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string') return min === 1 ? 'must not be empty' : `must have at least ${min} characters`;
      if (iss.origin === 'array') return `must have at least ${min} item${min === 1 ? '' : 's'}`;
      return iss.inclusive ? `must be at least ${min}` : `must be above ${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return `must have at most ${max} characters`;
      if (iss.origin === 'array') return `must have at most ${max} items`;
      return iss.inclusive ? `must be at most ${max}` : `must be below ${max}`;
    }
    case 'invalid_value':
      return iss.values.length === 1
        ? `must be ${show(iss.values[0])}`
        : `must be one of ${iss.values.map(show).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown ${iss.keys.length === 1 ? 'key' : 'keys'} ${iss.keys.map((k) => `'${k}'`).join(', ')}`;
    case 'invalid_union': {
      if ('discriminator' in iss && iss.options) {
        return `must be one of ${(iss.options as unknown[]).map(show).join(', ')}`;
      }
      // A union of literals (productType): list the accepted values.
      const values = iss.errors.flatMap((branch) =>
        branch.length === 1 && branch[0]?.code === 'invalid_value' ? branch[0].values : [undefined],
      );
      if (values.length > 0 && values.every((v) => v !== undefined))
        return `must be one of ${values.map(show).join(', ')}`;
      return undefined;
    }
    default:
      return undefined;
  }
};

const issueLine = (path: readonly PropertyKey[], message: string, raw: unknown) =>
  path.length ? `${formatPath(path, raw)}: ${message}` : message;

/** Validates a parsed JSON value as a site file. */
export function validateSite(raw: unknown): Validation {
  const result = siteFileSchema.safeParse(raw, { error: messages });
  if (result.success) return { ok: true, site: result.data };
  const problems = result.error.issues.map((i) => issueLine(i.path, i.message, raw));
  // zod skips the cross-record checks when any field is wrong; run them over the records that did parse,
  // so one run reports broken references too.
  if (!result.error.issues.some((i) => i.code === 'custom') && isObject(raw)) {
    checkReferences(partsOf(raw), (path, message) => problems.push(issueLine(path, message, raw)));
  }
  return { ok: false, problems: [...new Set(problems)] };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function partsOf(raw: Record<string, unknown>): SiteParts {
  const unparsedIds = { collections: new Set<string>(), products: new Set<string>(), forms: new Set<string>() };
  const each = <T>(key: string, schema: z.ZodType<T>, unparsed?: Set<string>): (T | undefined)[] => {
    const list = raw[key];
    if (!Array.isArray(list)) return [];
    return list.map((item) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) return parsed.data;
      if (unparsed && isObject(item) && typeof item.id === 'string') unparsed.add(item.id);
      return undefined;
    });
  };
  return {
    collections: each('collections', collectionSchema, unparsedIds.collections),
    products: each('products', productSchema, unparsedIds.products),
    forms: each('forms', formSchema, unparsedIds.forms),
    pages: each('pages', pageSchema),
    posts: each('posts', postSchema),
    unparsedIds,
  };
}

/** Parses JSON text; a syntax error is reported with its line and column. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    let where = '';
    if (at?.[1] !== undefined) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      const column = before.length - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${column}`;
    }
    const reason = message
      .replace(/^JSON\.parse: /, '')
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/ at position \d+.*$/, '');
    return { ok: false, problem: `not valid JSON${where}: ${reason}` };
  }
}
