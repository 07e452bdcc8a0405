import { CATALOG_LIMITS, type AuditEvent, type AuditMetadata, type RecordAuditBody } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { AuditDoc, AuditRepository } from './audit-repository.ts';

export type { AuditDoc } from './audit-repository.ts';

export interface AuditEntry {
  organizationId: string;
  actorUserId: string;
  action: string;
  resourceType: string;
  resourceId: string;
  requestId?: string | undefined;
  metadata?: AuditMetadata;
}

export function toAuditView(doc: AuditDoc): AuditEvent {
  return {
    id: doc._id,
    organizationId: doc.organizationId,
    actorUserId: doc.actorUserId,
    action: doc.action,
    resourceType: doc.resourceType,
    resourceId: doc.resourceId,
    requestId: doc.requestId,
    metadata: doc.metadata,
    createdAt: doc.createdAt,
  };
}

/** Append-only log of who did what to which resource, per organization. */
export class AuditLog {
  readonly #repository: AuditRepository;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: { events: AuditRepository }) {
    this.#repository = parts.events;
    this.#clock = resources.clock;
    this.#logger = resources.logger;
  }

  async record(entry: AuditEntry | RecordAuditBody): Promise<AuditDoc> {
    const doc: AuditDoc = {
      _id: newId('aud_'),
      organizationId: entry.organizationId,
      actorUserId: entry.actorUserId,
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      requestId: entry.requestId ?? null,
      metadata: entry.metadata ?? {},
      createdAt: this.#clock.now().toISOString(),
    };
    return this.#repository.insert(doc);
  }

  /** For mutations that already happened: a failed audit write is logged, never turned into a failed request. */
  async recordQuietly(entry: AuditEntry): Promise<void> {
    try {
      await this.record(entry);
    } catch (error) {
      this.#logger.error({ err: error, action: entry.action, resourceId: entry.resourceId }, 'audit event could not be recorded');
    }
  }

  async list(organizationId: string, query: { action?: string | undefined; limit?: number | undefined; offset?: number | undefined }) {
    const limit = Math.min(query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const { items, total } = await this.#repository.list(organizationId, { action: query.action, offset, limit });
    return { data: items.map(toAuditView), meta: { total, limit, offset } };
  }
}
