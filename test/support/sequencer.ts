/**
 * The order of a run's test files: the slowest first, so that the last files to start are short ones and the workers
 * finish together (a long file started last would run on alone). How long a file takes is read from test/timings.json,
 * committed (a clean clone has no vitest cache), and written again by `npm run test:timings` (./timingsReporter.ts).
 * A file not listed there yet is given the time its size suggests, at the list's median time per byte.
 * Files of a project that shares one process between its files (isolate: false) come last, together, so that one
 * worker runs them one after the other.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const TIMINGS_FILE = join(import.meta.dirname, '../timings.json');

/** Milliseconds per test file (its path from the repository's root, with forward slashes). */
export type Timings = Record<string, number>;

export function readTimings(): Timings {
  return existsSync(TIMINGS_FILE) ? (JSON.parse(readFileSync(TIMINGS_FILE, 'utf8')) as Timings) : {};
}

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const timings = readTimings();
    const keyOf = (spec: TestSpecification) => relative(root, spec.moduleId).split('\\').join('/');
    const sizeOf = (spec: TestSpecification) => statSync(spec.moduleId).size;
    const perByte = median(
      files.filter((s) => timings[keyOf(s)] !== undefined).map((s) => timings[keyOf(s)]! / Math.max(1, sizeOf(s))),
    );
    const expected = new Map(files.map((s) => [s, timings[keyOf(s)] ?? sizeOf(s) * (perByte ?? 1)]));
    return [...files].sort((a, b) => {
      const shared = Number(a.project.config.isolate === false) - Number(b.project.config.isolate === false);
      if (shared !== 0) return shared;
      return expected.get(b)! - expected.get(a)! || keyOf(a).localeCompare(keyOf(b));
    });
  }
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
