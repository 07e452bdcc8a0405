import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from './vitest.shared.ts';

/**
 * `vitest` from the repository root: every package with tests is a project (its own
 * `vitest.config.ts`), plus the repository tools under `scripts/`. `pnpm test` runs the same tests
 * package by package through turbo instead, so unchanged packages come from the cache.
 */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'e2e/vitest.config.ts',
      { test: { ...sharedTestOptions, name: 'tools', include: ['scripts/**/*.test.ts'] } },
    ],
  },
});
