import { crawlQueueDefinition, type CrawlTask } from '@crawl/contracts';
import type { QueueProvider, WorkQueue } from '@crawl/queue';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { crawlTaskId, isOpenTarget, type JobDoc, type TargetDoc } from './job-model.ts';

const ENQUEUE_CHUNK = 50;

/** The crawl queue with the attempts its tasks get (CRAWL_TASK_ATTEMPTS); the composition opens it once. */
export function crawlQueue(queues: QueueProvider, attempts: number): WorkQueue<CrawlTask> {
  return queues.queue<CrawlTask>(crawlQueueDefinition(attempts));
}

/** Puts a job's targets on the crawl queue: one task per target, id `${jobId}-${index}` (idempotent). */
export class JobDispatch {
  readonly #queue: WorkQueue<CrawlTask>;
  readonly #attempts: number;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: { queue: WorkQueue<CrawlTask>; taskAttempts: number }) {
    this.#queue = parts.queue;
    this.#attempts = parts.taskAttempts;
    this.#logger = resources.logger;
  }

  /** See `WorkQueue.onLost`: the queue backend lost its tasks (Redis restarted empty, flushed). */
  onLost(listener: () => void): () => void {
    return this.#queue.onLost(listener);
  }

  /**
   * Enqueues every target (or only the open ones). A queue outage does not fail the caller: the
   * job is stored and the maintenance loop enqueues its targets later. Each task's queue id is
   * `crawlTaskId(job, target)`, so nothing needs to be written back.
   */
  async enqueue(job: JobDoc, onlyOpen = false): Promise<void> {
    const indexes = job.targets.flatMap((target, index) => (!onlyOpen || isOpenTarget(target.status) ? [index] : []));
    try {
      for (let start = 0; start < indexes.length; start += ENQUEUE_CHUNK) {
        await Promise.all(
          indexes.slice(start, start + ENQUEUE_CHUNK).map(async (index) => {
            const target = job.targets[index] as TargetDoc;
            const task: CrawlTask = {
              jobId: job._id,
              organizationId: job.organizationId,
              projectId: job.projectId,
              targetIndex: index,
              type: job.type,
              value: target.asin ?? target.key ?? target.value,
              config: job.config,
            };
            // The attempts travel with the task: a worker configured otherwise still knows its last one.
            await this.#queue.add(task, {
              jobId: crawlTaskId(job._id, index),
              group: job.organizationId,
              attempts: this.#attempts,
            });
          }),
        );
      }
    } catch (error) {
      this.#logger.warn({ err: error, jobId: job._id }, 'enqueueing crawl tasks failed; they will be enqueued by the maintenance loop');
    }
  }
}
