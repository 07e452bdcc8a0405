import { webhookQueueDefinition, type DeliveryTask } from '@crawl/contracts';
import type { QueueProvider, WorkQueue } from '@crawl/queue';

/** How long a claimed delivery may wait in the queue before another dispatcher may claim it again. */
export const QUEUE_LEASE_MS = 10 * 60_000;

/** The `webhook-deliveries` work queue (group = organization), as the contracts' catalogue defines it. */
export function openDeliveryQueue(queues: QueueProvider): WorkQueue<DeliveryTask> {
  return queues.queue(webhookQueueDefinition());
}
