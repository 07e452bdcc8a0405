import { randomUUID } from 'node:crypto';

export interface TestBackend {
  name: 'embedded' | 'mongodb';
  /** Settings that select the backend with fresh, isolated databases (one per service). */
  env(): Record<string, string>;
}

const embedded: TestBackend = { name: 'embedded', env: () => ({}) };

/**
 * The storage backends route suites run on: always the embedded store, plus MongoDB when
 * `TEST_MONGO_URL` points at a server (CI: FerretDB, see docs/ferretdb.md). In CI a missing
 * server is an error, not a silent pass.
 */
export function testBackends(): TestBackend[] {
  const url = process.env.TEST_MONGO_URL;
  if (!url) {
    if (process.env.CI === 'true') throw new Error('CI requires TEST_MONGO_URL for the catalog route suites on MongoDB');
    return [embedded];
  }
  return [embedded, { name: 'mongodb', env: () => ({ MONGO_URL: url, MONGO_DB_PREFIX: `ct${randomUUID().slice(0, 8)}_` }) }];
}
