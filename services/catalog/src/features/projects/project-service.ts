import { CATALOG_LIMITS, type Project } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { ProjectChanges, ProjectDoc, ProjectRepository } from './project-repository.ts';

export type { ProjectDoc } from './project-repository.ts';

export function toProjectView(doc: ProjectDoc): Project {
  return { id: doc._id, name: doc.name, organizationId: doc.organizationId, archived: doc.archived, createdAt: doc.createdAt, updatedAt: doc.updatedAt };
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw errors.validation('name must not be blank');
  return trimmed;
}

export class ProjectService {
  readonly #projects: ProjectRepository;
  readonly #clock: Clock;
  readonly #audit: AuditLog;

  constructor(resources: CatalogResources, parts: { projects: ProjectRepository; audit: AuditLog }) {
    this.#projects = parts.projects;
    this.#clock = resources.clock;
    this.#audit = parts.audit;
  }

  async list(organizationId: string, query: { archived?: boolean | undefined; limit?: number | undefined; offset?: number | undefined } = {}) {
    const limit = Math.min(query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const { projects, total } = await this.#projects.listPage({ organizationId, archived: query.archived }, { offset, limit });
    return { projects, meta: { total, limit, offset } };
  }

  /** Another organization's project is indistinguishable from an unknown id. */
  async getOwned(organizationId: string, id: string): Promise<ProjectDoc> {
    const project = await this.#projects.findOwned(organizationId, id);
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
    const created = await this.#projects.insert(doc);
    await this.#audit.recordQuietly({
      ...actor,
      actorUserId: actor.userId,
      action: 'project.create',
      resourceType: 'project',
      resourceId: doc._id,
      requestId,
      metadata: { name: doc.name },
    });
    return created;
  }

  async update(actor: Actor, id: string, patch: { name?: string | undefined; archived?: boolean | undefined }, requestId?: string): Promise<ProjectDoc> {
    const set: ProjectChanges = { updatedAt: this.#clock.now().toISOString() };
    if (patch.name !== undefined) set.name = cleanName(patch.name);
    if (patch.archived !== undefined) set.archived = patch.archived;
    const updated = await this.#projects.update(actor.organizationId, id, set);
    if (!updated) throw errors.notFound('Project');
    const changes: Partial<Pick<ProjectDoc, 'name' | 'archived'>> = {};
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
