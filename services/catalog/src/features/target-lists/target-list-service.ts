import { CATALOG_LIMITS, TARGET_LIST_LIMITS, type GetTargetListQuery, type JobType, type TargetListUpload, type TargetListWithTargets } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { newId } from '@crawl/storage';
import type { JobInput, PreparedJob } from '../jobs/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { takeIn, UploadTooLargeError, type UploadFormat } from './list-intake.ts';
import { pageId, toTargetListView, type TargetListDoc } from './target-list-model.ts';
import type { TargetListRepository } from './target-list-repository.ts';

export interface TargetListParts {
  lists: TargetListRepository;
  projects: ProjectService;
  input: JobInput;
}

/** Upload, read, list and delete target lists; and the targets a job takes from one. */
export class TargetListService {
  readonly #lists: TargetListRepository;
  readonly #projects: ProjectService;
  readonly #input: JobInput;
  readonly #resources: CatalogResources;

  constructor(resources: CatalogResources, parts: TargetListParts) {
    this.#resources = resources;
    this.#lists = parts.lists;
    this.#projects = parts.projects;
    this.#input = parts.input;
  }

  async upload(
    actor: Actor,
    projectId: string,
    query: { type: JobType; name?: string | undefined },
    body: AsyncIterable<Uint8Array | string>,
    format: UploadFormat,
  ): Promise<TargetListUpload> {
    const project = await this.#projects.getOwned(actor.organizationId, projectId);
    if (project.archived) throw errors.conflict('Project is archived: unarchive it before uploading target lists');
    if ((await this.#lists.countForProject(actor.organizationId, projectId)) >= TARGET_LIST_LIMITS.listsPerProject) {
      throw errors.validation(`A project holds at most ${TARGET_LIST_LIMITS.listsPerProject} target lists; delete one first`);
    }
    const id = newId('tl_');
    const organizationId = actor.organizationId;
    let intake: Awaited<ReturnType<typeof takeIn>>;
    try {
      intake = await takeIn(body, {
        type: query.type,
        format,
        check: (type, raw) => this.#input.checkTarget(type, raw),
        writePage: async (index, targets) => {
          await this.#lists.insertPage({ _id: pageId(id, index), listId: id, organizationId, index, targets });
        },
      });
    } catch (error) {
      await this.#lists.removePages(id);
      if (error instanceof UploadTooLargeError) throw errors.validation(error.message);
      throw error;
    }
    if (intake.counts.accepted === 0) {
      await this.#lists.removePages(id);
      const first = intake.rejectedLines[0];
      throw errors.validation(
        first ? `No valid target in the upload; line ${first.line} ${JSON.stringify(first.value)} ${first.reason}` : 'The upload holds no target',
        intake.rejectedLines.slice(0, 20),
      );
    }
    const doc: TargetListDoc = {
      _id: id,
      organizationId,
      projectId,
      name: query.name ?? `${query.type} list`,
      type: query.type,
      counts: intake.counts,
      pageCount: intake.pageCount,
      createdBy: actor.userId,
      createdAt: this.#resources.clock.now().toISOString(),
    };
    try {
      await this.#lists.insert(doc);
    } catch (error) {
      await this.#lists.removePages(id);
      throw error;
    }
    this.#resources.logger.info({ orgId: organizationId, projectId, listId: id, type: query.type, ...intake.counts }, 'target list uploaded');
    return { list: toTargetListView(doc), rejectedLines: intake.rejectedLines };
  }

  async getOwned(organizationId: string, id: string): Promise<TargetListDoc> {
    const list = await this.#lists.findOwned(organizationId, id);
    if (!list) throw errors.notFound('Target list');
    return list;
  }

  async get(organizationId: string, id: string, query: GetTargetListQuery): Promise<TargetListWithTargets> {
    const list = await this.getOwned(organizationId, id);
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    const targets = (await this.#slice(list, offset, limit)).map((target) => target.value);
    return { list: toTargetListView(list), targets, meta: { total: list.counts.accepted, limit, offset } };
  }

  async list(organizationId: string, projectId: string, query: { limit?: number | undefined; offset?: number | undefined }) {
    await this.#projects.getOwned(organizationId, projectId);
    const limit = query.limit ?? CATALOG_LIMITS.listDefaultLimit;
    const offset = query.offset ?? 0;
    const { lists, total } = await this.#lists.listPage(organizationId, projectId, { offset, limit });
    return { data: lists.map(toTargetListView), meta: { total, limit, offset } };
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.#lists.remove(organizationId, id))) throw errors.notFound('Target list');
  }

  /**
   * The targets a job in `projectId` of `type` takes from a list, resolved as stored: the list
   * must be the organization's, of that project and of that type.
   * @param field where the id sits in the request, for the messages.
   */
  async targetsFor(organizationId: string, listId: string, expected: { projectId: string; type: JobType }, field: string): Promise<PreparedJob['targets']> {
    const list = await this.#lists.findOwned(organizationId, listId);
    if (!list) throw errors.validation(`${field} ${JSON.stringify(listId)} names no target list of this organization`);
    if (list.projectId !== expected.projectId) throw errors.validation(`${field}: the target list belongs to another project`);
    if (list.type !== expected.type) throw errors.validation(`${field}: the target list holds ${list.type} targets, not ${expected.type}`);
    return this.#slice(list, 0, list.counts.accepted);
  }

  async #slice(list: TargetListDoc, offset: number, limit: number): Promise<PreparedJob['targets']> {
    const size = TARGET_LIST_LIMITS.pageSize;
    const end = Math.min(offset + limit, list.counts.accepted);
    if (end <= offset) return [];
    const pages = await this.#lists.pagesCovering(list._id, Math.floor(offset / size), Math.floor((end - 1) / size));
    const targets = pages.flatMap((page) => page.targets);
    const skip = offset - Math.floor(offset / size) * size;
    return targets.slice(skip, skip + (end - offset));
  }
}
