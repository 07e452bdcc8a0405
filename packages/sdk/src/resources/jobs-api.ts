import {
  CatalogRoutes,
  type CreateJobBody,
  type DestinationDelivery,
  DestinationRoutes,
  type ExportFormat,
  type JobEstimate,
  type JobResults,
  type JobType,
  type ListJobsQuery,
  type ResultRecord,
  type ResultsQuery,
} from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { exportDownload, type ExportDownload } from '../jobs/job-export.ts';
import { type JobEvent, jobEvents, type JobEventsOptions } from '../jobs/job-events.ts';
import type { RecordOf } from '../jobs/job-records.ts';
import { waitForJob, type WaitOptions } from '../jobs/wait-for-job.ts';
import { eachItem, type ListPage } from '../paging.ts';
import type { Job } from '../types.ts';
import { normalizeJob } from '../variants.ts';

/** A result: a ProductRecord (details jobs) or a SearchRecord (search jobs), as docs/data.md lists their fields. */
export type ResultItem = ResultRecord;

export class JobsApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Validates, reserves credits and queues the job; it answers at once with the job `queued`. */
  async create(projectId: string, body: CreateJobBody, options?: CallOptions): Promise<Job> {
    return normalizeJob((await this.transport.call(CatalogRoutes.createJob, { params: { projectId }, body }, options)).data);
  }

  /**
   * What `create` with the same body would reserve (a ceiling for reviews and offers), count
   * against the monthly limits and wait for; nothing is created or reserved. Invalid bodies fail
   * as `create` fails.
   */
  async estimate(projectId: string, body: CreateJobBody, options?: CallOptions): Promise<JobEstimate> {
    return (await this.transport.call(CatalogRoutes.estimateJob, { params: { projectId }, body }, options)).data;
  }

  /** One page of a project's jobs, newest first, with `meta.total`. */
  async list(projectId: string, query: ListJobsQuery = {}, options?: CallOptions): Promise<ListPage<Job> & { meta: NonNullable<ListPage<Job>['meta']> }> {
    const page = await this.transport.call(CatalogRoutes.listJobs, { params: { projectId }, query }, options);
    return { data: page.data.map(normalizeJob), meta: page.meta };
  }

  /** Every job of a project (optionally of one status), newest first, fetched a page at a time. */
  iterate(projectId: string, query: Omit<ListJobsQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<Job, void, undefined> {
    return eachItem((offset) => this.list(projectId, { limit: 100, ...query, offset }, options));
  }

  async get(id: string, options?: CallOptions): Promise<Job> {
    return normalizeJob((await this.transport.call(CatalogRoutes.getJob, { params: { id } }, options)).data);
  }

  /** One page of results (by `page`, or after a `cursor`). */
  async resultsPage(id: string, query: ResultsQuery = {}, options?: CallOptions): Promise<JobResults> {
    return (await this.transport.call(CatalogRoutes.jobResults, { params: { id }, query }, options)).data;
  }

  /**
   * Every result of the job, following `nextCursor` (each page costs the same wherever it is).
   * `type`, the job's type, is not sent: it types the records (`{ type: 'reviews' }` yields
   * ReviewRecords), as the server gives each job type's records (docs/data.md).
   */
  async *results<T extends JobType = JobType>(
    id: string,
    query: { pageSize?: number; type?: T } = {},
    options?: CallOptions,
  ): AsyncGenerator<RecordOf<T>, void, undefined> {
    const pageSize = query.pageSize ?? 200;
    let page = await this.resultsPage(id, { pageSize }, options);
    for (;;) {
      yield* page.items as Array<RecordOf<T>>;
      const cursor = page.pagination.nextCursor;
      if (!cursor || page.items.length === 0) return;
      page = await this.resultsPage(id, { pageSize, cursor }, options);
    }
  }

  /**
   * The job's results as a file, streamed. Counts against the organization's `exportsPerMonth`;
   * a job that has not finished answers 409 `CONFLICT` on servers that refuse partial exports.
   */
  async export(id: string, query: { format?: ExportFormat } = {}, options: CallOptions = {}): Promise<ExportDownload> {
    const format = query.format ?? 'json';
    const accept = format === 'csv' ? 'text/csv, application/json;q=0.5' : 'application/json';
    const response = await this.transport.open(
      CatalogRoutes.exportJob,
      { params: { id }, query: { format } },
      { ...options, headers: { accept, ...options.headers } },
    );
    return exportDownload(format, response);
  }

  /** A new queued job with the same type, config and targets (credits reserved again). */
  async retry(id: string, options?: CallOptions): Promise<Job> {
    return normalizeJob((await this.transport.call(CatalogRoutes.retryJob, { params: { id } }, options)).data);
  }

  /** Stops a queued or running job; unprocessed targets are refunded. A finished job answers 409. */
  async cancel(id: string, options?: CallOptions): Promise<Job> {
    return normalizeJob((await this.transport.call(CatalogRoutes.cancelJob, { params: { id } }, options)).data);
  }

  /** The job's deliveries to its destination (`config.destinationId`), each with every attempt and the store's reason when one failed. */
  async deliveries(id: string, options?: CallOptions): Promise<DestinationDelivery[]> {
    return (await this.transport.call(DestinationRoutes.listJobDeliveries, { params: { id } }, options)).data;
  }

  /** Writes the job's results to the destination again, now, with a fresh retry schedule (409 while an attempt runs). */
  async replayDelivery(id: string, deliveryId: string, options?: CallOptions): Promise<DestinationDelivery> {
    return (await this.transport.call(DestinationRoutes.replayJobDelivery, { params: { id, deliveryId } }, options)).data;
  }

  /** The job's live events (`GET /jobs/:id/events`), reconnecting with `Last-Event-ID`; ends after the `end` event. */
  events(id: string, options: JobEventsOptions = {}): AsyncGenerator<JobEvent, void, undefined> {
    return jobEvents(this.transport, id, options, () => this.get(id, options.signal ? { signal: options.signal } : {}));
  }

  /** Resolves when the job is completed, failed or cancelled; `onProgress` hears every change on the way. */
  wait(id: string, options: WaitOptions = {}): Promise<Job> {
    return waitForJob(
      {
        events: (signal) => this.events(id, signal ? { signal } : {}),
        get: (signal) => this.get(id, signal ? { signal } : {}),
      },
      options,
    );
  }
}
