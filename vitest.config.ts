import { defineConfig } from 'vitest/config';

// One run holds every test: unit (src/**), integration on SQLite and PostgreSQL (src/** and test/integration),
// and browser tests in Chromium (test/browser). Coverage is reported for the pure core, which must stay >= 95 % of lines.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    coverage: {
      provider: 'v8',
      include: ['src/core/**/*.ts'],
      exclude: ['src/core/**/*.test.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 95 },
    },
  },
});
