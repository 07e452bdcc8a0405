import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../../vitest.shared.ts';

/**
 * The fault matrix (`pnpm test:faults`): its files end in `.fault.ts`, so the package's own
 * `vitest run` never picks them up. They kill and restart processes and wait out outages, so they
 * run one file at a time (the machine's two cores go to the services under test) and each row
 * gets its own timeout.
 */
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    ...sharedTestOptions,
    include: ['test/faults/**/*.fault.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
