import { MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import type { Collection, CollectionOptions, Document, DocumentStore } from '@crawl/storage';
import { DocumentLocks, type DocumentLocksOptions, type DocumentLockStats } from './document-locks.ts';
import { MongoCollection, type CollectionSettings } from './mongo-collection.ts';
import { translate } from './mongo-errors.ts';

export interface MongoDocumentStoreOptions {
  url: string;
  database: string;
  /**
   * Serialise updates with lock documents. `auto` (default) turns it on for servers that identify
   * as FerretDB, whose v1 does not apply them atomically.
   */
  lockedUpdates?: 'auto' | 'always' | 'never';
  /** Tuning of the lock documents (lease, hand-over, backoff); see DocumentLocks. */
  locks?: DocumentLocksOptions;
  /** How long an operation waits for a reachable server before failing (then 503). */
  serverSelectionTimeoutMs?: number;
  /**
   * Time limit of each operation, sent as `maxTimeMS` (an update's includes its lock wait). Past it
   * the operation fails with StorageUnavailableError (503). Default 10 s.
   */
  operationTimeoutMs?: number;
  /** `maxTimeMS` of the cursor behind `stream`/`streamJson` (exports read for long). Default 5 min. */
  streamTimeoutMs?: number;
  /** Diagnostics: sees each command sent to the server (name and body). */
  onCommand?: (command: { name: string; body: Readonly<CommandStartedEvent['command']> }) => void;
}

/** The production store: the official driver, one database per service. */
export class MongoDocumentStore implements DocumentStore {
  readonly kind = 'mongodb' as const;
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #lockedUpdates: 'auto' | 'always' | 'never';
  readonly #lockOptions: DocumentLocksOptions;
  readonly #settings: CollectionSettings;
  #locks: Promise<DocumentLocks | undefined> | undefined;

  constructor(options: MongoDocumentStoreOptions) {
    this.#lockedUpdates = options.lockedUpdates ?? 'auto';
    this.#lockOptions = options.locks ?? {};
    this.#client = new MongoClient(options.url, {
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 3_000,
      connectTimeoutMS: 3_000,
      ignoreUndefined: true,
      retryWrites: false,
      ...(options.onCommand ? { monitorCommands: true } : {}),
    });
    const onCommand = options.onCommand;
    if (onCommand) this.#client.on('commandStarted', (event) => onCommand({ name: event.commandName, body: event.command }));
    this.#db = this.#client.db(options.database);
    this.#settings = {
      operationTimeoutMs: options.operationTimeoutMs ?? 10_000,
      streamTimeoutMs: options.streamTimeoutMs ?? 300_000,
      locks: () => this.#lockProvider(),
    };
  }

  /** `CollectionOptions` change nothing here: `streamJson` already has the server project the field. */
  collection<T extends Document>(name: string, _options?: CollectionOptions): Collection<T> {
    return new MongoCollection<T>(this.#db, name, this.#settings);
  }

  /** Whether this server needs lock documents around updates, asked once. */
  #lockProvider(): Promise<DocumentLocks | undefined> {
    this.#locks ??= (async () => {
      if (this.#lockedUpdates === 'never') return undefined;
      if (this.#lockedUpdates === 'auto') {
        const info = await this.#db.admin().command({ buildInfo: 1 }, { signal: AbortSignal.timeout(this.#settings.operationTimeoutMs) });
        if (!('ferretdbVersion' in info)) return undefined;
      }
      return new DocumentLocks(this.#db.collection('_document_locks'), this.#lockOptions);
    })().catch((error: unknown) => {
      this.#locks = undefined;
      throw error;
    });
    return this.#locks;
  }

  /** True when updates go through lock documents (FerretDB). */
  async usesLockedUpdates(): Promise<boolean> {
    return (await this.#lockProvider()) !== undefined;
  }

  /** How the lock documents behaved so far; undefined when updates run natively. */
  async lockStats(): Promise<DocumentLockStats | undefined> {
    return (await this.#lockProvider())?.stats;
  }

  async ping(): Promise<void> {
    try {
      await this.#db.command({ ping: 1 }, { signal: AbortSignal.timeout(this.#settings.operationTimeoutMs) });
    } catch (error) {
      throw translate(error, 'admin');
    }
  }

  /** Test helper: removes the whole database. */
  async dropDatabase(): Promise<void> {
    await this.#db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
