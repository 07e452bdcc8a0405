import {
  type GetTargetListQuery,
  type ListTargetListsQuery,
  type TargetList,
  type TargetListUpload,
  TargetListRoutes,
  type TargetListWithTargets,
  type UploadTargetListQuery,
} from '@crawl/contracts';
import type { CallOptions, Transport, UploadBody } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';

export interface UploadTargetListOptions extends CallOptions {
  /** `csv` sends `text/csv` (the column named target, asin, keyword or url, else the first); default plain text, one target a line. */
  format?: 'text' | 'csv';
}

/**
 * A project's target lists (docs/catalog.md, Target lists): up to 100,000 targets uploaded once,
 * checked and de-duplicated as a job's are, then named by jobs, schedules and monitors.
 */
export class TargetListsApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * Uploads a list. A `ReadableStream` is sent as it is read (a file of any size never held whole,
   * and never retried, since it cannot be read twice). Answers the list and the refused lines.
   */
  async upload(projectId: string, query: UploadTargetListQuery, body: UploadBody, options: UploadTargetListOptions = {}): Promise<TargetListUpload> {
    const { format, ...callOptions } = options;
    const contentType = format === 'csv' ? 'text/csv' : 'text/plain; charset=utf-8';
    return (await this.transport.upload(TargetListRoutes.uploadTargetList, { params: { projectId }, query }, { payload: body, contentType }, callOptions)).data;
  }

  /** One page of a project's lists, newest first, with `meta.total`. */
  async list(projectId: string, query: ListTargetListsQuery = {}, options?: CallOptions): Promise<Required<ListPage<TargetList>>> {
    return this.transport.call(TargetListRoutes.listTargetLists, { params: { projectId }, query }, options);
  }

  iterate(projectId: string, query: Omit<ListTargetListsQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<TargetList, void, undefined> {
    return eachItem((offset) => this.list(projectId, { limit: 100, ...query, offset }, options));
  }

  /** The list and a page of its accepted targets as uploaded (`limit` ≤ 1,000, `offset`). */
  async get(id: string, query: GetTargetListQuery = {}, options?: CallOptions): Promise<TargetListWithTargets> {
    return (await this.transport.call(TargetListRoutes.getTargetList, { params: { id }, query }, options)).data;
  }

  /** Jobs already created from it keep their targets. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.call(TargetListRoutes.deleteTargetList, { params: { id } }, options);
  }
}
