import type { AuditMetadata } from '@crawl/contracts';
import type { Collection, Document, DocumentStore, Filter } from '@crawl/storage';

export const AUDIT_COLLECTION = 'audit_events';

export interface AuditDoc extends Document {
  organizationId: string;
  actorUserId: string;
  action: string;
  resourceType: string;
  resourceId: string;
  requestId: string | null;
  metadata: AuditMetadata;
  createdAt: string;
}

export interface AuditPage {
  items: AuditDoc[];
  total: number;
}

/** The audit log's storage: append and list, always within one organization. */
export class AuditRepository {
  readonly #events: Collection<AuditDoc>;

  constructor(store: DocumentStore) {
    this.#events = store.collection<AuditDoc>(AUDIT_COLLECTION);
  }

  /** Equality fields first, then the list order (newest first, id as the tie-break). */
  async init(): Promise<void> {
    await this.#events.ensureIndexes([
      { keys: { organizationId: 1, createdAt: -1, _id: -1 }, name: 'org_created_id' },
      { keys: { organizationId: 1, action: 1, createdAt: -1, _id: -1 }, name: 'org_action_created_id' },
    ]);
  }

  insert(doc: AuditDoc): Promise<AuditDoc> {
    return this.#events.insertOne(doc);
  }

  /** One page of an organization's events, newest first, and the total under the same filter. */
  async list(organizationId: string, query: { action?: string | undefined; offset: number; limit: number }): Promise<AuditPage> {
    const filter: Filter = { organizationId };
    if (query.action !== undefined) filter.action = query.action;
    const [items, total] = await Promise.all([
      this.#events.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: query.offset, limit: query.limit }),
      this.#events.count(filter),
    ]);
    return { items, total };
  }
}
