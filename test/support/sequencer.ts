/**
 * The order of a run's test files: the slowest first, so that the last files to start are short ones and the workers
 * finish together (a long file started last would run on alone). How long a file takes is read from test/timings.json,
 * committed (a clean clone has no vitest cache), and written again by `npm run test:timings` (./timingsReporter.ts).
 * A file not listed there yet is given the time its size suggests, at the list's median time per byte.
 * Files of a project whose workers run one file after the other (isolate: false) come after the isolated files, each
 * such project's files together, the costlier project first: vitest keeps such a worker for the next file only when
 * the next file in the queue is of the same project (else it ends the worker, and the next file of the project starts
 * a new one). With --sequence.shuffle (to check that no file depends on another's leftovers) the order is random,
 * from --sequence.seed, as with vitest's own sequencer.
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
    const { shuffle, seed } = this.ctx.config.sequence;
    if (shuffle) return shuffled(files, seed);
    const root = this.ctx.config.root;
    const timings = readTimings();
    const keyOf = (spec: TestSpecification) => relative(root, spec.moduleId).split('\\').join('/');
    const sizeOf = (spec: TestSpecification) => statSync(spec.moduleId).size;
    const perByte = median(
      files.filter((s) => timings[keyOf(s)] !== undefined).map((s) => timings[keyOf(s)]! / Math.max(1, sizeOf(s))),
    );
    const expected = new Map(files.map((s) => [s, timings[keyOf(s)] ?? sizeOf(s) * (perByte ?? 1)]));
    const projectTime = new Map<string, number>();
    for (const [spec, ms] of expected)
      projectTime.set(spec.project.name, (projectTime.get(spec.project.name) ?? 0) + ms);
    const shared = (spec: TestSpecification) => spec.project.config.isolate === false;
    return [...files].sort((a, b) => {
      const byIsolation = Number(shared(a)) - Number(shared(b));
      if (byIsolation !== 0) return byIsolation;
      if (shared(a) && a.project.name !== b.project.name) {
        return (
          projectTime.get(b.project.name)! - projectTime.get(a.project.name)! ||
          a.project.name.localeCompare(b.project.name)
        );
      }
      return expected.get(b)! - expected.get(a)! || keyOf(a).localeCompare(keyOf(b));
    });
  }
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `items` in a random order drawn from `seed` (mulberry32, Fisher-Yates). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
