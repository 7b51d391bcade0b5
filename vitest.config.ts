import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BROWSER_TEST_TIMEOUT_MS } from './test/browser/timeout';
import { SlowestFirstSequencer } from './test/support/sequencer';
import { TimingsReporter } from './test/support/timingsReporter';

/**
 * Test files run side by side, in worker processes (one per file, or shared: the projects below). A good part of a file's time is spent waiting — on PostgreSQL,
 * on Chromium, on the timers of the tests that check a delay — so there is one worker more than cores (vitest's
 * default, one less than the cores, ran the files one at a time on a 2-core machine). More would leave the tests that
 * time real work (a CLI process starting, a write loop) too little of the CPU. VITRINE_TEST_WORKERS sets another number.
 */
const workers = Number(process.env.VITRINE_TEST_WORKERS) || availableParallelism() + 1;

/** The pure core's tests share one process (no module state to leak: plain functions, no I/O): no process per file. */
const shared = ['src/core/**/*.test.{ts,tsx}'];
/**
 * The other unit tests and the integration tests share their workers too: a worker runs one file after the other
 * instead of a process starting per file and importing the app again (about 2 s of CPU each time, as much as many
 * files' tests). The app holds no state of its own between apps (its caches are per app, or keyed by what they
 * cache), the tests restore what they change in process.env, and a test file's own module is evaluated anew each time.
 * The browser tests share their workers the same way (project `app`): each file launches nothing of its own but
 * browser contexts in the run's one Chromium and a server of its own, and importing the app again per file cost
 * about as much CPU as a short browser file's tests.
 * Isolated, in a process of their own (project `alone`): the files that change what the process holds for the next
 * files — a module replaced with vi.mock, kinds of mail of a test's own in the process-wide registry
 * (src/platform/mail/kinds.ts).
 */
const server = ['src/**/*.test.{ts,tsx}', 'test/integration/**/*.test.{ts,tsx}'];
const alone = ['test/integration/assets-hardening.test.ts', 'test/integration/outbox.test.ts'];
// Migrated template databases for the whole run (test/support/globalSetup.ts, made once for both projects), and one
// Chromium that the browser test files share, started when the first one asks (test/support/chromiumServer.ts).
const templates = 'test/support/globalSetup.ts';
const chromium = 'test/support/chromiumServer.ts';

// One run holds every test: unit (src/**), integration on SQLite and PostgreSQL (src/** and test/integration),
// and browser tests in Chromium (test/browser). Coverage is reported for the pure core, which must stay >= 95 % of lines.
// The order is the slowest files first (test/support/sequencer.ts, from test/timings.json: `npm run test:timings`).
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits up to 5 s (vitest's default is 1 s): with files side by side on 2 cores, a dialog opening in
    // Chromium has been seen to take longer than 1 s to show. A poll that succeeds returns at once.
    expect: { poll: { timeout: 5_000 } },
    maxWorkers: workers,
    sequence: { sequencer: SlowestFirstSequencer },
    // VITRINE_TEST_CPU=FILE: each test file's CPU seconds appended to FILE (test/support/cpuUsage.ts).
    setupFiles: process.env.VITRINE_TEST_CPU ? ['test/support/cpuUsage.ts'] : [],
    reporters: process.env.VITRINE_TEST_TIMINGS === 'write' ? ['default', new TimingsReporter()] : ['default'],
    coverage: {
      provider: 'v8',
      include: ['src/core/**/*.ts'],
      exclude: ['src/core/**/*.test.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 95 },
    },
    projects: [
      { extends: true, test: { name: 'core', include: shared, isolate: false } },
      {
        extends: true,
        test: {
          name: 'server',
          include: server,
          exclude: [...configDefaults.exclude, ...shared, ...alone],
          isolate: false,
          globalSetup: [templates],
        },
      },
      {
        extends: true,
        test: {
          name: 'app',
          include: ['test/browser/**/*.test.{ts,tsx}'],
          isolate: false,
          testTimeout: BROWSER_TEST_TIMEOUT_MS,
          globalSetup: [templates, chromium],
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: alone, globalSetup: [templates] },
      },
    ],
  },
});
