import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CrawlTask } from './crawl-task.ts';

/** One queued webhook attempt: the delivery, and the claim token that entitles this message to it. */
export const DeliveryTask = Type.Object({
  deliveryId: Type.String(),
  claim: Type.String(),
});
export type DeliveryTask = Static<typeof DeliveryTask>;

export interface QueueRetry {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

/** One entry of the queue catalogue: the name and retry semantics travel with the payload schema. */
export interface QueueSpec<S extends TSchema = TSchema> {
  readonly name: string;
  readonly schema: S;
  readonly retry: QueueRetry;
}

/**
 * Every queue of the system. Producers, consumers and the admin's statistics open a queue from
 * its entry here, so the name, the retry policy and the payload schema cannot disagree.
 */
export const QUEUES = {
  /** One target of a job; the group is the organization, so dispatch is fair across them. */
  crawlTargets: { name: 'crawl-targets', schema: CrawlTask, retry: { attempts: 3, backoffMs: 2_000, maxBackoffMs: 60_000 } },
  /** One attempt to deliver a webhook; the delivery log holds the state, the task only points at it. */
  webhookDeliveries: { name: 'webhook-deliveries', schema: DeliveryTask, retry: { attempts: 3, backoffMs: 1_000, maxBackoffMs: 30_000 } },
} as const satisfies Record<string, QueueSpec>;

export const CRAWL_QUEUE = QUEUES.crawlTargets.name;
export const WEBHOOK_QUEUE = QUEUES.webhookDeliveries.name;

/** A queue as the queue port opens it (structurally a `QueueDefinition<P>` of @crawl/queue). */
export interface QueueDefinitionOf<P> {
  readonly name: string;
  readonly retry: QueueRetry;
  /** Throws on a payload that does not match the schema: `add` rejects it, a worker drops it. */
  readonly parse: (payload: unknown) => P;
}

/**
 * Payloads are JSON our own services wrote, so nothing is converted: a value of the wrong type
 * is corruption and fails, and properties the schema does not know are dropped.
 */
const PARSE = ['Clone', 'Clean', 'Default', 'Assert'] as const;

export function queueDefinition<S extends TSchema>(spec: QueueSpec<S>, retry: Partial<QueueRetry> = {}): QueueDefinitionOf<Static<S>> {
  return {
    name: spec.name,
    retry: { ...spec.retry, ...retry },
    parse: (payload) => Value.Parse([...PARSE], spec.schema, payload) as Static<S>,
  };
}

/** The crawl queue: catalog produces into it, the crawler-worker consumes it, billing's admin counts it. */
export function crawlQueueDefinition(attempts: number = QUEUES.crawlTargets.retry.attempts): QueueDefinitionOf<CrawlTask> {
  return queueDefinition(QUEUES.crawlTargets, { attempts });
}

/** The webhook delivery queue: catalog's dispatcher produces into it, its attempt worker consumes it. */
export function webhookQueueDefinition(): QueueDefinitionOf<DeliveryTask> {
  return queueDefinition(QUEUES.webhookDeliveries);
}
