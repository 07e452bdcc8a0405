import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import type { DocumentStore } from '@crawl/storage';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { MongoDocumentStore } from '@crawl/storage-mongo';

export type StoreBackend = 'embedded' | 'mongodb';

/**
 * Runs a repository suite once per storage backend: the embedded SQLite store always, and
 * MongoDB when `TEST_MONGO_URL` is set (CI: FerretDB). In CI a missing server fails the suite
 * instead of skipping it. `open()` gives a fresh, isolated store; every store is closed (and
 * its MongoDB database dropped) after the suite.
 */
export function describeOnEachStore(name: string, suite: (open: () => Promise<DocumentStore>, backend: StoreBackend) => void): void {
  const url = process.env.TEST_MONGO_URL;
  if (!url && process.env.CI === 'true') throw new Error(`CI requires TEST_MONGO_URL for the ${name} suite on MongoDB`);
  const backends: StoreBackend[] = url ? ['embedded', 'mongodb'] : ['embedded'];
  for (const backend of backends) {
    describe(`${name} (${backend})`, () => {
      const opened: DocumentStore[] = [];
      afterAll(async () => {
        for (const store of opened) {
          if (store instanceof MongoDocumentStore) await store.dropDatabase().catch(() => undefined);
          await store.close();
        }
      });
      suite(async () => {
        const store =
          backend === 'embedded'
            ? EmbeddedDocumentStore.inMemory()
            : new MongoDocumentStore({ url: url as string, database: `crawl_repo_${randomUUID().slice(0, 8)}` });
        opened.push(store);
        return store;
      }, backend);
    });
  }
}
