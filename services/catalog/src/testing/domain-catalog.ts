import { loadConfig } from '@crawl/config';
import { noMetrics } from '@crawl/metrics';
import { ManualClock } from '@crawl/clock';
import type { DataModuleContext } from '@crawl/runtime';
import type { QueueProvider } from '@crawl/queue';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import type { DocumentStore } from '@crawl/storage';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { createCatalog, type Catalog } from '../catalog.ts';
import { CatalogConfig } from '../config.ts';
import { FakeBilling } from './fake-billing.ts';
import { silentLogger } from './test-resources.ts';

export interface DomainCatalog {
  catalog: Catalog;
  store: DocumentStore;
  clock: ManualClock;
  billing: FakeBilling;
  queues: QueueProvider;
}

/**
 * The catalog's services without HTTP, on a given store (shared between two instances to play
 * two replicas), a manual clock and a fake billing.
 */
export async function domainCatalog(
  options: { store?: DocumentStore; clock?: ManualClock; billing?: FakeBilling; queues?: QueueProvider; env?: Record<string, string> } = {},
): Promise<DomainCatalog> {
  const store = options.store ?? EmbeddedDocumentStore.inMemory();
  const clock = options.clock ?? new ManualClock('2026-03-02T08:00:00.000Z');
  const billing = options.billing ?? new FakeBilling();
  const queues = options.queues ?? new InProcessQueueProvider();
  const context = {
    name: 'catalog',
    config: loadConfig(CatalogConfig, options.env ?? {}),
    store,
    clock,
    queues,
    secrets: { jwtSecret: 'domain-test-secret-that-is-long-enough-0123456789', internalSecret: 'domain-test-internal-secret-long-enough-0123' },
    logger: silentLogger(),
    metrics: noMetrics,
    client: () => {
      throw new Error('no service clients in domain tests');
    },
  } as unknown as DataModuleContext<CatalogConfig>;
  const catalog = await createCatalog(context, { billing: () => billing });
  return { catalog, store, clock, billing, queues };
}
