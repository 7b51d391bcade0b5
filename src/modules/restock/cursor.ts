/**
 * The account area's page cursors (spec §7 `nextPageCursor`): opaque to the caller, a position in a keyset order —
 * groups by (product id, SKU), sign-ups by (signed up at, id) — so a page never repeats or skips a row because
 * others were added meanwhile. base64url of a small JSON array tagged with its list; anything else is refused.
 */

export type CursorKind = 'groups' | 'signUps';

const TAG: Record<CursorKind, string> = { groups: 'g1', signUps: 's1' };
const MAX_CURSOR_LENGTH = 600;

export const encodeCursor = (kind: CursorKind, position: readonly [string, string]): string =>
  Buffer.from(JSON.stringify([TAG[kind], ...position]), 'utf8').toString('base64url');

/** The position a cursor of `kind` names, or null when it is not one (made up, cut, or another list's). */
export function decodeCursor(kind: CursorKind, cursor: string): readonly [string, string] | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3 || value[0] !== TAG[kind]) return null;
    const [, a, b] = value as unknown[];
    if (
      typeof a !== 'string' ||
      typeof b !== 'string' ||
      a.length > 200 ||
      b.length > 200 ||
      `${a}${b}`.includes('\u0000')
    )
      return null;
    return [a, b];
  } catch {
    return null;
  }
}
