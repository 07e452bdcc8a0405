import { defineConfig } from 'vitest/config';

/**
 * Test settings every package shares. Each package's `vitest.config.ts` re-exports the default
 * (so `vitest run` in a package, the package's turbo `test` task and the root project list agree);
 * the paths are relative to the package that loads it.
 */
export const sharedTestOptions = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  env: { NODE_OPTIONS: '--disable-warning=ExperimentalWarning' },
} as const;

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
