import type { ServiceName } from '@crawl/contracts';
import type { QueueProvider } from '@crawl/queue';
import type { DocumentStore } from '@crawl/storage';
import type { BackendsFactory, ProcessBackends } from './backends.ts';
import type { ProcessParts } from './process-parts.ts';
import { contextualQueues } from './queue-context.ts';

/** The backends as the process uses them. */
export interface OpenBackends {
  /** Opens a module's database; the process keeps it to wait for its commits. */
  openStore(service: ServiceName): DocumentStore;
  /** Queues whose tasks carry the context of whoever queued them. */
  readonly queues: QueueProvider;
  readonly health: ProcessBackends['health'];
  /** What the stores still have to commit; undefined when nothing is pending, the usual case. */
  pendingCommits(): Promise<unknown>[] | undefined;
  close(): Promise<void>;
}

/** Opens the backends the composition root chose. */
export async function openBackends(factory: BackendsFactory, parts: ProcessParts): Promise<OpenBackends> {
  const backends = await factory(parts.runtime, parts.logger);
  // Tasks carry the request id and organization of whoever queued them; each queue's depth is reported.
  const queues = contextualQueues(backends.queues, parts.metrics);
  const stores: DocumentStore[] = [];
  return {
    openStore(service) {
      const store = backends.openStore(service);
      stores.push(store);
      return store;
    },
    queues,
    health: backends.health,
    pendingCommits() {
      let commits: Promise<unknown>[] | undefined;
      for (const store of stores) {
        const commit = store.pendingCommit?.();
        if (commit) (commits ??= []).push(commit);
      }
      return commits;
    },
    close: () => backends.close(),
  };
}
