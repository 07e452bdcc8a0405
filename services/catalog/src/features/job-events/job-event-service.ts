import type { Job } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import { toJobView, type JobDoc, type JobLifecycle } from '../jobs/index.ts';
import type { JobChanges } from '../shared/job-changes.ts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { JobMonitorEvent } from './event-frames.ts';
import { JobEventStream, type StreamTiming } from './job-event-stream.ts';
import { StreamLimits } from './stream-limits.ts';

/** The parts of live job events besides the shared resources. */
export interface JobEventParts {
  jobs: Pick<JobLifecycle, 'getOwned'>;
  changes: JobChanges;
  /** The Job as `GET /jobs/:id` shows it (adds `queue` while the job is active). */
  view: (job: JobDoc) => Promise<Job>;
  /** The monitor events of a monitor's run, oldest first; absent, streams carry none. */
  monitorEvents?: (job: JobDoc) => Promise<readonly JobMonitorEvent[]>;
  timing: StreamTiming;
  maxStreamsPerOrganization: number;
}

/** What opening a stream gives: the stream, or nothing more to send (resumed after its end). */
export type OpenedStream = { stream: JobEventStream } | { finished: true };

/** Live job events: opens streams (owned jobs only, bounded per organization) and closes them all on shutdown. */
export class JobEventService {
  readonly #options: JobEventParts;
  readonly #logger: Logger;
  readonly #limits: StreamLimits;
  readonly #open = new Set<JobEventStream>();
  #stopping = false;

  constructor(resources: CatalogResources, parts: JobEventParts) {
    this.#options = parts;
    this.#logger = resources.logger;
    this.#limits = new StreamLimits(parts.maxStreamsPerOrganization);
  }

  /**
   * 404 for a job the organization does not own and 429 over the limit, both before any byte
   * of the stream, so they are ordinary error envelopes.
   */
  async open(organizationId: string, jobId: string, lastEventId: number | undefined): Promise<OpenedStream> {
    const { jobs, changes, view, timing } = this.#options;
    const job = await jobs.getOwned(organizationId, jobId);
    const release = this.#limits.acquire(organizationId);
    const stream = new JobEventStream({
      read: () =>
        jobs.getOwned(organizationId, jobId).catch((error: unknown) => (error instanceof AppError && error.statusCode === 404 ? null : Promise.reject(error))),
      views: {
        job: view,
        target: (doc, index) => toJobView(doc).targets[index],
        monitorEvents: (doc) => (doc.monitorId && this.#options.monitorEvents ? this.#options.monitorEvents(doc) : Promise.resolve([])),
      },
      subscribe: (listener) => changes.subscribe(jobId, listener),
      timing,
      logger: this.#logger,
      onClose: () => {
        release();
        this.#open.delete(stream);
      },
    });
    this.#open.add(stream);
    try {
      await stream.start(job, lastEventId);
    } catch (error) {
      stream.close();
      throw error;
    }
    // Resumed after `end`: nothing follows, and the client should not come back.
    if (stream.nothingToSend) return { finished: true };
    if (this.#stopping) stream.close();
    return { stream };
  }

  get openStreams(): number {
    return this.#open.size;
  }

  /** Ends every open stream (clients reconnect with Last-Event-ID, to another replica if need be). */
  closeAll(): void {
    this.#stopping = true;
    for (const stream of [...this.#open]) stream.close();
  }
}
