import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../../vitest.shared.ts';

/**
 * The fuzz suite (`pnpm test:fuzz`): its files end in `.fuzz.ts`, so the package's own `vitest run`
 * never picks them up and `pnpm test` stays fast. Its backends run one after the other, each with
 * a budget of minutes rather than the usual seconds.
 */
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    ...sharedTestOptions,
    include: ['test/fuzz/**/*.fuzz.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
