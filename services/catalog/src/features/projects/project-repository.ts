import type { Collection, Document, DocumentStore, Filter } from '@crawl/storage';

export const PROJECTS_COLLECTION = 'projects';

export interface ProjectDoc extends Document {
  organizationId: string;
  name: string;
  archived: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** The fields a project update may change. */
export type ProjectChanges = Partial<Pick<ProjectDoc, 'name' | 'archived'>> & { updatedAt: string };

/** Projects, always read and written within one organization: another one's id finds nothing. */
export class ProjectRepository {
  readonly #projects: Collection<ProjectDoc>;

  constructor(store: DocumentStore) {
    this.#projects = store.collection<ProjectDoc>(PROJECTS_COLLECTION);
  }

  /** The list, with and without the `archived` filter: equality fields first, then newest first. */
  async init(): Promise<void> {
    await this.#projects.ensureIndexes([
      { keys: { organizationId: 1, createdAt: -1, _id: -1 }, name: 'org_created_id' },
      { keys: { organizationId: 1, archived: 1, createdAt: -1, _id: -1 }, name: 'org_archived_created_id' },
    ]);
  }

  insert(doc: ProjectDoc): Promise<ProjectDoc> {
    return this.#projects.insertOne(doc);
  }

  findOwned(organizationId: string, id: string): Promise<ProjectDoc | null> {
    return this.#projects.findOne({ _id: id, organizationId });
  }

  /** A page of them, newest first, and how many there are; `archived` narrows to archived or active projects. */
  async listPage(
    scope: { organizationId: string; archived?: boolean | undefined },
    page: { offset: number; limit: number },
  ): Promise<{ projects: ProjectDoc[]; total: number }> {
    const filter: Filter = { organizationId: scope.organizationId };
    if (scope.archived !== undefined) filter.archived = scope.archived;
    const [projects, total] = await Promise.all([
      this.#projects.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.#projects.count(filter),
    ]);
    return { projects, total };
  }

  /** Every project of every organization, in id order (start-up maintenance). */
  streamAll(): AsyncIterable<ProjectDoc> {
    return this.#projects.stream({}, { sort: { _id: 1 } });
  }

  /** @returns the project after the change, or null when the organization has no such project. */
  update(organizationId: string, id: string, changes: ProjectChanges): Promise<ProjectDoc | null> {
    return this.#projects.updateOne({ _id: id, organizationId }, { $set: { ...changes } });
  }
}
