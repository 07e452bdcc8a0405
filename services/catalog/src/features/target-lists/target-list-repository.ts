import type { Collection, DocumentStore } from '@crawl/storage';
import { pageId, TARGET_LIST_PAGES_COLLECTION, TARGET_LISTS_COLLECTION, type TargetListDoc, type TargetListPageDoc } from './target-list-model.ts';

/** Target lists and their pages. User-facing reads take the organization and find nothing of another one. */
export class TargetListRepository {
  readonly #lists: Collection<TargetListDoc>;
  readonly #pages: Collection<TargetListPageDoc>;

  constructor(store: DocumentStore) {
    this.#lists = store.collection<TargetListDoc>(TARGET_LISTS_COLLECTION);
    this.#pages = store.collection<TargetListPageDoc>(TARGET_LIST_PAGES_COLLECTION);
  }

  async init(): Promise<void> {
    await Promise.all([
      this.#lists.ensureIndexes([{ keys: { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, name: 'org_project_created_id' }]),
      this.#pages.ensureIndexes([{ keys: { listId: 1, index: 1 }, name: 'list_index' }]),
    ]);
  }

  insertPage(page: TargetListPageDoc): Promise<TargetListPageDoc> {
    return this.#pages.insertOne(page);
  }

  insert(doc: TargetListDoc): Promise<TargetListDoc> {
    return this.#lists.insertOne(doc);
  }

  findOwned(organizationId: string, id: string): Promise<TargetListDoc | null> {
    return this.#lists.findOne({ _id: id, organizationId });
  }

  countForProject(organizationId: string, projectId: string): Promise<number> {
    return this.#lists.count({ organizationId, projectId });
  }

  async listPage(organizationId: string, projectId: string, page: { offset: number; limit: number }) {
    const filter = { organizationId, projectId };
    const [lists, total] = await Promise.all([
      this.#lists.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.#lists.count(filter),
    ]);
    return { lists, total };
  }

  /** One stored page of a list, or null past its end. */
  page(listId: string, index: number): Promise<TargetListPageDoc | null> {
    return this.#pages.findOne({ _id: pageId(listId, index) });
  }

  /** The pages holding targets `from` … `from + count − 1`, in order. */
  pagesCovering(listId: string, first: number, last: number): Promise<TargetListPageDoc[]> {
    return this.#pages.find({ listId, index: { $gte: first, $lte: last } }, { sort: { index: 1 } });
  }

  /** The list first (it disappears at once), then its pages. @returns false when the organization has no such list. */
  async remove(organizationId: string, id: string): Promise<boolean> {
    const removed = await this.#lists.deleteOne({ _id: id, organizationId });
    if (removed) await this.#pages.deleteMany({ listId: id });
    return removed;
  }

  /** Pages of an upload that did not finish. */
  async removePages(listId: string): Promise<void> {
    await this.#pages.deleteMany({ listId });
  }
}
