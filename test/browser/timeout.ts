/**
 * A browser test is a journey through pages: it waits on Chromium and on a server that share two cores with the other
 * test files, and under a busy CI run the longer journeys have taken more than vitest's 30 s. The limit only turns a
 * hang into a failure, so browser tests get 120 s (a test that needs more says so): the browser projects'
 * `testTimeout` in vitest.config.ts.
 */
export const BROWSER_TEST_TIMEOUT_MS = 120_000;
