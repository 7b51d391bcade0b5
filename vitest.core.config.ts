import { defineConfig } from 'vitest/config';

// The pure core's own unit tests, with its gate: they alone must cover >= 98 % of the core's lines (its rules are
// also run through the routes by the full suite, which would hide a rule left without a test of its own).
// `npm test` runs this first; `npm run test:fast` runs it without coverage.
export default defineConfig({
  test: {
    include: ['src/core/**/*.test.ts'],
    // As the full suite's: the property tests (fast-check) run 2,000 cases, slow under coverage on a busy machine.
    testTimeout: 30_000,
    // Plain functions, no module state to leak (as in the full suite's 'core' project): the files share their
    // workers instead of starting a process each, which cost more than the tests themselves.
    isolate: false,
    coverage: {
      provider: 'v8',
      include: ['src/core/**/*.ts'],
      exclude: ['src/core/**/*.test.ts'],
      reporter: ['text-summary'],
      reportsDirectory: 'coverage/core',
      thresholds: { lines: 98 },
    },
  },
});
