import type { QueueProvider, WorkQueue } from '@crawl/queue';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

/** How long a claimed delivery may wait in the queue before another dispatcher may claim it again. */
export const QUEUE_LEASE_MS = 10 * 60_000;

/** One queued attempt: the delivery and the claim token that entitles this message to it. */
export interface DeliveryTask {
  deliveryId: string;
  claim: string;
}

function parseTask(payload: unknown): DeliveryTask {
  const task = payload as Partial<DeliveryTask> | null;
  if (!task || typeof task.deliveryId !== 'string' || typeof task.claim !== 'string') throw new Error('invalid webhook delivery task');
  return { deliveryId: task.deliveryId, claim: task.claim };
}

/** The `webhook-deliveries` work queue (group = organization). */
export function openDeliveryQueue(queues: QueueProvider): WorkQueue<DeliveryTask> {
  return queues.queue<DeliveryTask>({ name: WEBHOOK_QUEUE, retry: { attempts: 3, backoffMs: 1_000, maxBackoffMs: 30_000 }, parse: parseTask });
}
