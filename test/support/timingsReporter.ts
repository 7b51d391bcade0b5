/**
 * Writes how long each test file took into test/timings.json, which ./sequencer.ts reads to start the slowest files
 * first. On in `npm run test:timings` only (VITRINE_TEST_TIMINGS=write): the times of a run on a busy machine would
 * otherwise change the committed file at every run. The files that ran replace their entries; the others are kept,
 * unless their file is gone.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { readTimings, TIMINGS_FILE } from './sequencer';

export class TimingsReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const timings = readTimings();
    for (const module of testModules) {
      if (module.state() !== 'passed') continue;
      const d = module.diagnostic();
      const key = relative(this.root, module.moduleId).split('\\').join('/');
      timings[key] = Math.round(d.prepareDuration + d.collectDuration + d.setupDuration + d.duration);
    }
    const kept = Object.entries(timings)
      .filter(([file]) => existsSync(join(this.root, file)))
      .sort(([a], [b]) => a.localeCompare(b));
    writeFileSync(TIMINGS_FILE, JSON.stringify(Object.fromEntries(kept), null, 2) + '\n');
  }
}
