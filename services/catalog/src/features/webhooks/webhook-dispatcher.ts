import { randomUUID } from 'node:crypto';
import type { DeliveryTask } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { WorkQueue } from '@crawl/queue';
import type { Logger } from '../shared/ports.ts';
import type { AnyOutboxDoc, OutboxEvents } from '../events/index.ts';
import type { DeliveryRepository } from './delivery-repository.ts';
import { QUEUE_LEASE_MS } from './delivery-queue.ts';
import type { EndpointRepository } from './endpoint-repository.ts';
import { eventIdFor, webhookEventType, type EventPayloads } from './event-payloads.ts';
import { newDelivery } from './webhook-model.ts';

export interface DispatchResult {
  fannedOut: number;
  claimed: number;
}

export interface WebhookDispatcherOptions {
  events: OutboxEvents;
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  payloads: EventPayloads;
  queue: WorkQueue<DeliveryTask>;
  clock: Clock;
  logger: Logger;
  maxInFlightPerOrg: number;
  /** Whether `kick()` runs passes (tests drive `dispatch()` themselves). */
  autoDispatch: boolean;
}

const CLAIM_BATCH = 200;
const DUE_PAGE = 50;
const FAN_OUT_BATCH = 100;

/**
 * Turns outbox events into deliveries (one per matching enabled endpoint, idempotent on endpoint +
 * event) and hands due deliveries to the work queue: each is claimed with a conditional update,
 * and an organization never has more than `maxInFlightPerOrg` attempts in flight.
 */
export class WebhookDispatcher {
  readonly #options: WebhookDispatcherOptions;
  readonly #deliveries: DeliveryRepository;
  #current: Promise<DispatchResult> | undefined;
  #queued: Promise<DispatchResult> | undefined;
  #stopped = false;

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#deliveries = options.deliveries;
  }

  /** A dispatch pass soon (used when events are recorded or a test/replay is requested). */
  kick(): void {
    if (!this.#options.autoDispatch || this.#stopped) return;
    this.dispatch().catch((error: unknown) => this.#options.logger.error({ err: error }, 'webhook dispatch failed'));
  }

  /** Stops automatic passes and waits for the running one. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#queued?.catch(() => undefined);
    await this.#current?.catch(() => undefined);
  }

  /**
   * One pass: fan out recorded events into deliveries, then claim due deliveries and enqueue them.
   * Concurrent calls are coalesced (at most one pass runs and one waits).
   */
  dispatch(): Promise<DispatchResult> {
    if (this.#queued) return this.#queued;
    const previous = this.#current ?? Promise.resolve();
    const next: Promise<DispatchResult> = previous
      .catch(() => undefined)
      .then(async () => {
        this.#queued = undefined;
        this.#current = next;
        try {
          const fannedOut = await this.fanOut();
          const claimed = await this.claimDue();
          return { fannedOut, claimed };
        } finally {
          if (this.#current === next) this.#current = undefined;
        }
      });
    this.#queued = next;
    return next;
  }

  /** Outbox events → one delivery per matching enabled endpoint. @returns deliveries created. */
  async fanOut(): Promise<number> {
    let created = 0;
    for (;;) {
      const events = await this.#options.events.pendingAll(FAN_OUT_BATCH);
      if (events.length === 0) break;
      for (const event of events) {
        created += await this.#fanOutOne(event);
        await this.#options.events.markDelivered(event._id, this.#now());
      }
      if (events.length < FAN_OUT_BATCH) break;
    }
    return created;
  }

  #now(): string {
    return this.#options.clock.now().toISOString();
  }

  async #fanOutOne(event: AnyOutboxDoc): Promise<number> {
    const type = webhookEventType(event);
    const endpoints = await this.#options.endpoints.subscribers(event.organizationId, event.payload.projectId, type);
    if (endpoints.length === 0) return 0;
    const eventId = eventIdFor(event._id);
    const body = await this.#options.payloads.body(event, eventId, type);
    if (!body) return 0;
    const now = this.#now();
    let created = 0;
    for (const endpoint of endpoints) {
      // Another dispatcher may have fanned this event out already: one delivery per (endpoint, event).
      if (await this.#deliveries.insertOnce(newDelivery(endpoint, eventId, type, body, now))) created += 1;
    }
    return created;
  }

  /**
   * Claims due deliveries (atomically: a conditional update on the value read) and enqueues them
   * with group = organization. An organization never has more than `maxInFlightPerOrg` attempts
   * in flight, so one slow endpoint cannot occupy every worker. @returns how many were enqueued.
   */
  async claimDue(): Promise<number> {
    const now = this.#options.clock.now();
    const nowIso = now.toISOString();
    // Attempts whose worker died (or whose queue forgot them on restart) are claimed again.
    await this.#deliveries.releaseExpiredLeases(nowIso);
    const saturated = new Set<string>();
    const inFlight = new Map<string, number>();
    let claimed = 0;
    while (claimed < CLAIM_BATCH) {
      const due = await this.#deliveries.findDue(nowIso, DUE_PAGE, [...saturated]);
      if (due.length === 0) break;
      let progressed = false;
      for (const delivery of due) {
        const org = delivery.organizationId;
        if (saturated.has(org)) continue;
        const busy = inFlight.get(org) ?? (await this.#deliveries.countInFlight(org));
        if (busy >= this.#options.maxInFlightPerOrg) {
          saturated.add(org);
          progressed = true;
          continue;
        }
        const claim = randomUUID();
        const won = await this.#deliveries.claim(delivery, claim, new Date(now.getTime() + QUEUE_LEASE_MS).toISOString(), nowIso);
        if (!won) continue;
        inFlight.set(org, busy + 1);
        progressed = true;
        try {
          await this.#options.queue.add({ deliveryId: delivery._id, claim }, { jobId: `${delivery._id}-${claim}`, group: org });
          claimed += 1;
        } catch (error) {
          this.#options.logger.warn({ err: error, deliveryId: delivery._id }, 'enqueueing a webhook delivery failed; it stays due');
          await this.#deliveries.releaseClaim(delivery._id, claim);
          return claimed;
        }
      }
      if (!progressed) break;
    }
    return claimed;
  }
}
