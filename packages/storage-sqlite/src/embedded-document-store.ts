import type { Collection, CollectionOptions, Document, DocumentStore } from '@crawl/storage';
import { SqliteCollection } from './sqlite-collection.ts';
import { SqliteConnection } from './sqlite-connection.ts';

export interface EmbeddedDocumentStoreOptions {
  /** SQLite file path; `:memory:` keeps nothing on disk (tests). */
  path: string;
}

/**
 * The all-in-one store: one SQLite file per service (node:sqlite, WAL), one table per collection,
 * documents as JSON text queried in place through expression indexes. See sqlite-collection.ts.
 */
export class EmbeddedDocumentStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  readonly #db: SqliteConnection;
  readonly #collections = new Map<string, SqliteCollection<Document>>();

  constructor(options: EmbeddedDocumentStoreOptions) {
    this.#db = new SqliteConnection(options.path);
  }

  static inMemory(): EmbeddedDocumentStore {
    return new EmbeddedDocumentStore({ path: ':memory:' });
  }

  collection<T extends Document>(name: string, options: CollectionOptions = {}): Collection<T> {
    let collection = this.#collections.get(name);
    if (!collection) {
      collection = new SqliteCollection<Document>(this.#db, name, options.streamedFields);
      this.#collections.set(name, collection);
    } else if (options.streamedFields) collection.streamFields(options.streamedFields);
    return collection as unknown as Collection<T>;
  }

  pendingCommit(): Promise<void> | undefined {
    return this.#db.pendingCommit();
  }

  async ping(): Promise<void> {
    this.#db.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}
