import type { Collection, Document, DocumentStore } from '@crawl/storage';

/** One record per one-time data migration of the catalog database, written when it is done. */
export interface MigrationDoc extends Document {
  completedAt: string;
  [detail: string]: unknown;
}

export function migrationsOf(store: DocumentStore): Collection<MigrationDoc> {
  return store.collection<MigrationDoc>('catalog_migrations');
}
