import { randomUUID } from 'node:crypto';
import type { DocumentStore } from '@crawl/storage';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { MongoDocumentStore } from '@crawl/storage-mongo';

export interface StoreFactory {
  label: string;
  make(): DocumentStore;
  /**
   * How many concurrent requests a race test fires: fewer on MongoDB, whose CI server (FerretDB)
   * serialises conditional updates with lock documents that give up after 10 s under a long queue.
   * Every burst still exceeds what the credits or the limits allow, so the race is real.
   */
  burst(embedded: number, mongodb: number): number;
}

/**
 * The stores the billing domain tests run over: always the embedded one, and MongoDB too when
 * TEST_MONGO_URL names a server (CI points it at FerretDB; `scripts/ferretdb.sh start`).
 * Each MongoDB store is a fresh database.
 */
export function billingStores(): StoreFactory[] {
  const factories: StoreFactory[] = [{ label: 'embedded', make: () => EmbeddedDocumentStore.inMemory(), burst: (embedded) => embedded }];
  const url = process.env.TEST_MONGO_URL;
  if (url) {
    factories.push({
      label: 'mongodb',
      make: () => new MongoDocumentStore({ url, database: `crawl_billing_test_${randomUUID().slice(0, 8)}` }),
      burst: (_embedded, mongodb) => mongodb,
    });
  }
  return factories;
}
