import { join } from 'node:path';
import type { BackendsFactory } from '@crawl/runtime';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import type { DocumentStore } from '@crawl/storage';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';

/** The all-in-one's backends for a test process: SQLite files under DATA_DIR, in-process queues. */
export const embeddedBackends: BackendsFactory = (runtime) => {
  const opened: DocumentStore[] = [];
  return {
    openStore(service) {
      const store = new EmbeddedDocumentStore({ path: join(runtime.DATA_DIR, `${service}.db`) });
      opened.push(store);
      return store;
    },
    queues: new InProcessQueueProvider(),
    async close() {
      await Promise.all(opened.map((store) => store.close()));
    },
  };
};
