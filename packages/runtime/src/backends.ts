import type { ServiceName } from '@crawl/contracts';
import type { Logger } from '@crawl/logging';
import type { QueueProvider } from '@crawl/queue';
import type { DocumentStore } from '@crawl/storage';
import type { RuntimeConfig } from './runtime-config.ts';

/**
 * What a process runs on: the composition root (the server) chooses the adapters and hands them
 * in, so the registry never loads a driver. Backends are opened once per process and closed after
 * every module has stopped.
 */
export interface ProcessBackends {
  /** Opens the database of a module that owns data (one per service). */
  openStore(service: ServiceName): DocumentStore;
  readonly queues: QueueProvider;
  /** Health indicators of the backends by name (`mongo`, `redis`): resolve when up, throw when down. */
  readonly health?: Readonly<Record<string, () => Promise<void>>>;
  /** Closes what `openStore` opened and any connection of its own (the queues close separately, first). */
  close(): Promise<void>;
}

/** Chooses and opens the backends from the process's settings. */
export type BackendsFactory = (runtime: RuntimeConfig, logger: Logger) => Promise<ProcessBackends> | ProcessBackends;
