import type { JobType, TargetList, TargetListCounts } from '@crawl/contracts';
import type { TargetDoc } from '../jobs/index.ts';

export const TARGET_LISTS_COLLECTION = 'target_lists';
export const TARGET_LIST_PAGES_COLLECTION = 'target_list_pages';

/** A list's description; its targets live in pages (TargetListPageDoc) so no document grows with the list. */
export interface TargetListDoc {
  _id: string;
  organizationId: string;
  projectId: string;
  name: string;
  type: JobType;
  counts: TargetListCounts;
  pageCount: number;
  createdBy: string;
  createdAt: string;
}

/** Up to TARGET_LIST_LIMITS.pageSize targets of a list, resolved as a job stores them, in upload order. */
export interface TargetListPageDoc {
  _id: string;
  listId: string;
  organizationId: string;
  index: number;
  targets: Array<Pick<TargetDoc, 'value' | 'asin' | 'key'>>;
}

export function pageId(listId: string, index: number): string {
  return `${listId}:${index}`;
}

export function toTargetListView(doc: TargetListDoc): TargetList {
  return { id: doc._id, projectId: doc.projectId, name: doc.name, type: doc.type, counts: doc.counts, createdAt: doc.createdAt };
}
