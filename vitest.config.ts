import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_OPTIONS: '--disable-warning=ExperimentalWarning' },
  },
});
