/**
 * Where an /admin form goes back to: a page of its own section only (never another site, never a path of another
 * section), with the notice of what was done in its query (`done`), which the page shows once.
 */

/** `back` when it is `section` or one of its pages (no '//', no scheme), else `section`. */
export function backTo(back: unknown, section: string): string {
  if (typeof back !== 'string' || back.length > 600 || back.includes('//') || /[\s\\]/.test(back)) return section;
  return back === section || back.startsWith(`${section}/`) || back.startsWith(`${section}?`) ? back : section;
}

/** `path` with the notice `done` (replacing one it had). */
export function withDone(path: string, done: string): string {
  const url = new URL(path, 'http://admin.invalid');
  url.searchParams.set('done', done);
  return `${url.pathname}${url.search}`;
}

/** The notice a page was sent back with, or undefined. */
export function doneOf(query: unknown): string | undefined {
  const done = (query as { done?: unknown } | undefined)?.done;
  return typeof done === 'string' && done !== '' ? done.slice(0, 300) : undefined;
}
