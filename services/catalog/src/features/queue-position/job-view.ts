import type { Job } from '@crawl/contracts';
import { toJobView, type JobDoc } from '../jobs/index.ts';
import type { QueuePositions } from './queue-position.ts';

/** The Job as `GET /jobs/:id` and the `job` events show it: with `queue` while it is queued or running. */
export function jobViewWithQueue(positions: QueuePositions): (job: JobDoc) => Promise<Job> {
  return async (job) => {
    const view = toJobView(job);
    const queue = await positions.of(job);
    return queue ? { ...view, queue } : view;
  };
}
