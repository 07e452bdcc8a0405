import { join } from 'node:path';
import type { ServiceName } from '@crawl/contracts';
import { EmbeddedDocumentStore, MongoDocumentStore, type DocumentStore } from '@crawl/storage';
import type { RuntimeConfig } from './runtime-config.ts';

/** One database per service: an SQLite file under DATA_DIR, or a MongoDB database. */
export function openStore(runtime: RuntimeConfig, service: ServiceName): DocumentStore {
  if (runtime.MONGO_URL) {
    const database = runtime.MONGO_DATABASE ?? `${runtime.MONGO_DB_PREFIX}${service.replace(/-/g, '_')}`;
    return new MongoDocumentStore({ url: runtime.MONGO_URL, database, operationTimeoutMs: runtime.MONGO_OPERATION_TIMEOUT_MS });
  }
  return new EmbeddedDocumentStore({ path: join(runtime.DATA_DIR, `${service}.db`) });
}
