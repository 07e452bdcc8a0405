import { join } from 'node:path';
import type { ServiceName } from '@crawl/contracts';
import { ensurePrivateDataDir, type RuntimeConfig } from '@crawl/runtime';
import type { DocumentStore } from '@crawl/storage';

export interface StorageBackend {
  openStore(service: ServiceName): DocumentStore;
  /** Present when a database server is configured (the spec's `mongo` indicator). */
  readonly ping?: () => Promise<void>;
  close(): Promise<void>;
}

/**
 * One database per service: a MongoDB database when MONGO_URL is set, else an SQLite file under
 * DATA_DIR. The adapter package is imported only when chosen, so the embedded process never
 * loads the MongoDB driver.
 */
export async function openStorage(runtime: RuntimeConfig): Promise<StorageBackend> {
  const opened: DocumentStore[] = [];
  const track = (store: DocumentStore) => {
    opened.push(store);
    return store;
  };
  const closeAll = async () => {
    await Promise.all(opened.map((store) => store.close()));
  };
  const mongoUrl = runtime.MONGO_URL;
  if (!mongoUrl) {
    const { EmbeddedDocumentStore } = await import('@crawl/storage-sqlite');
    ensurePrivateDataDir(runtime.DATA_DIR);
    return { openStore: (service) => track(new EmbeddedDocumentStore({ path: join(runtime.DATA_DIR, `${service}.db`) })), close: closeAll };
  }
  const { MongoDocumentStore } = await import('@crawl/storage-mongo');
  const open = (database: string) => new MongoDocumentStore({ url: mongoUrl, database, operationTimeoutMs: runtime.MONGO_OPERATION_TIMEOUT_MS });
  const databaseOf = (service: string) => runtime.MONGO_DATABASE ?? `${runtime.MONGO_DB_PREFIX}${service.replace(/-/g, '_')}`;
  // A process whose modules own no data (a gateway alone) still reports the database it is
  // configured with: it pings through a connection of its own, opened on first use.
  let probe: DocumentStore | undefined;
  return {
    openStore: (service) => track(open(databaseOf(service))),
    ping: async () => {
      const store = opened[0] ?? (probe ??= track(open(databaseOf('health'))));
      await store.ping();
    },
    close: closeAll,
  };
}
