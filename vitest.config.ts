import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// Two projects: extension-side unit tests (WXT's fake browser; test/ mirrors lib/ and components/)
// and server tests (plain Node).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [WxtVitest()],
        test: {
          name: 'unit',
          include: ['test/{scripts,lib,components,fixtures,repository,bench}/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A few suites open a PGlite database in a hook: slow on a busy shared machine, not a failure.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
