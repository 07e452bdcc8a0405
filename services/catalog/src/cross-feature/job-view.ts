import type { Job } from '@crawl/contracts';
import { toJobView, type JobDoc } from '../features/jobs/index.ts';
import type { QueuePositions } from '../features/queue-position/index.ts';

/** The Job as `GET /jobs/:id` and the `job` events show it: with `queue` while it is queued or running. */
export function jobViewWithQueue(positions: QueuePositions): (job: JobDoc) => Promise<Job> {
  return async (job) => {
    const view = toJobView(job);
    const queue = await positions.of(job);
    return queue ? { ...view, queue } : view;
  };
}
