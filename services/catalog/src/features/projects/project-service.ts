import type { Identity, Project } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import { newId, type Collection, type Document, type DocumentStore } from '@crawl/storage';
import type { AuditLog } from '../audit/audit-log.ts';

export interface ProjectDoc extends Document {
  organizationId: string;
  name: string;
  archived: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export type Actor = Pick<Identity, 'userId' | 'organizationId'>;

export function toProjectView(doc: ProjectDoc): Project {
  return { id: doc._id, name: doc.name, organizationId: doc.organizationId, archived: doc.archived, createdAt: doc.createdAt, updatedAt: doc.updatedAt };
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw errors.validation('name must not be blank');
  return trimmed;
}

export class ProjectService {
  readonly #projects: Collection<ProjectDoc>;
  readonly #clock: Clock;
  readonly #audit: AuditLog;

  constructor(options: { store: DocumentStore; clock: Clock; audit: AuditLog }) {
    this.#projects = options.store.collection<ProjectDoc>('projects');
    this.#clock = options.clock;
    this.#audit = options.audit;
  }

  async init(): Promise<void> {
    await this.#projects.ensureIndexes([{ keys: { organizationId: 1, createdAt: -1 }, name: 'org_created' }]);
  }

  async list(organizationId: string, archived?: boolean): Promise<ProjectDoc[]> {
    const filter: Record<string, unknown> = { organizationId };
    if (archived !== undefined) filter.archived = archived;
    return this.#projects.find(filter, { sort: { createdAt: -1, _id: -1 } });
  }

  /** Another organization's project is indistinguishable from an unknown id. */
  async getOwned(organizationId: string, id: string): Promise<ProjectDoc> {
    const project = await this.#projects.findOne({ _id: id, organizationId });
    if (!project) throw errors.notFound('Project');
    return project;
  }

  async create(actor: Actor, name: string, requestId?: string): Promise<ProjectDoc> {
    const now = this.#clock.now().toISOString();
    const doc: ProjectDoc = {
      _id: newId('prj_'),
      organizationId: actor.organizationId,
      name: cleanName(name),
      archived: false,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    const created = await this.#projects.insertOne(doc);
    await this.#audit.recordQuietly({ ...actor, actorUserId: actor.userId, action: 'project.create', resourceType: 'project', resourceId: doc._id, requestId, metadata: { name: doc.name } });
    return created;
  }

  async update(actor: Actor, id: string, patch: { name?: string | undefined; archived?: boolean | undefined }, requestId?: string): Promise<ProjectDoc> {
    const set: Record<string, unknown> = { updatedAt: this.#clock.now().toISOString() };
    if (patch.name !== undefined) set.name = cleanName(patch.name);
    if (patch.archived !== undefined) set.archived = patch.archived;
    const updated = await this.#projects.updateOne({ _id: id, organizationId: actor.organizationId }, { $set: set });
    if (!updated) throw errors.notFound('Project');
    const changes: Record<string, unknown> = {};
    if (patch.name !== undefined) changes.name = set.name;
    if (patch.archived !== undefined) changes.archived = patch.archived;
    await this.#audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'project.update',
      resourceType: 'project',
      resourceId: id,
      requestId,
      metadata: { changes },
    });
    return updated;
  }
}
