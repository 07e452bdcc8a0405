import type { DeliveryTask } from '@crawl/contracts';
import { systemTimers, type Clock, type Timers } from '@crawl/clock';
import type { WorkQueue } from '@crawl/queue';
import type { AuditLog } from '../audit/index.ts';
import type { OutboxEvents } from '../events/index.ts';
import type { JobLifecycle } from '../jobs/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { ScheduleService } from '../schedules/index.ts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { systemResolver, type Resolver, type UrlRules } from './address-guard.ts';
import { DeliveryAttempt } from './delivery-attempt.ts';
import { DeliveryLog } from './delivery-log.ts';
import type { DeliveryRepository } from './delivery-repository.ts';
import type { EndpointRepository } from './endpoint-repository.ts';
import { EndpointService } from './endpoint-service.ts';
import { EventPayloads } from './event-payloads.ts';
import { createSender, type Sender } from './http-sender.ts';
import { SecretBox } from './signer.ts';
import { WebhookDispatcher, type DispatchResult } from './webhook-dispatcher.ts';

export { eventIdFor } from './event-payloads.ts';
export type { DispatchResult } from './webhook-dispatcher.ts';

/** Test seams: name resolution, timers, jitter and the HTTP client. */
export interface WebhookOptions {
  resolver?: Resolver;
  timers?: Timers;
  random?: () => number;
  sender?: Sender;
  /** Fan out and dispatch as soon as an event is recorded (default true; tests drive `dispatch()`). */
  autoDispatch?: boolean;
}

export interface WebhookSettings {
  requireHttps: boolean;
  allowPrivateTargets: boolean;
  timeoutMs: number;
  concurrency: number;
  maxInFlightPerOrg: number;
  disableAfterMs: number;
  secretOverlapMs: number;
  publicBaseUrl: string;
  retentionMs: number;
}

/** The parts of webhooks besides the shared resources. */
export interface WebhookParts {
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  /** The `webhook-deliveries` work queue (delivery-queue.ts). */
  queue: WorkQueue<DeliveryTask>;
  audit: AuditLog;
  projects: ProjectService;
  /** Payloads show the job or schedule as the API does. */
  jobs: Pick<JobLifecycle, 'getOwned'>;
  schedules: Pick<ScheduleService, 'getOwned'>;
  events: OutboxEvents;
  /** Key material for encrypting signing secrets at rest. */
  secretsKey: string;
  settings: WebhookSettings;
  seams?: WebhookOptions;
}

/**
 * Webhooks, assembled: `endpoints` (CRUD and secrets), `deliveries` (the log: list, test, replay),
 * the dispatcher (outbox → deliveries → work queue) and the attempt run by the queue worker.
 * Everything reads and writes through the endpoint and delivery repositories.
 */
export class WebhookService {
  readonly endpoints: EndpointService;
  readonly deliveries: DeliveryLog;
  readonly dispatcher: WebhookDispatcher;
  readonly autoDispatch: boolean;
  readonly #attempt: DeliveryAttempt;
  readonly #queue: WorkQueue<DeliveryTask>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #concurrency: number;

  constructor(resources: CatalogResources, parts: WebhookParts) {
    const { clock, logger } = resources;
    const { endpoints, deliveries, audit, settings } = parts;
    const seams = parts.seams ?? {};
    const rules: UrlRules = { requireHttps: settings.requireHttps, allowPrivate: settings.allowPrivateTargets };
    const resolver = seams.resolver ?? systemResolver;
    this.#clock = clock;
    this.#logger = logger;
    this.#concurrency = settings.concurrency;
    this.autoDispatch = seams.autoDispatch ?? true;
    this.#queue = parts.queue;
    this.endpoints = new EndpointService({
      endpoints,
      deliveries,
      projects: parts.projects,
      audit,
      clock,
      box: new SecretBox(parts.secretsKey),
      rules,
      resolver,
      secretOverlapMs: settings.secretOverlapMs,
    });
    this.dispatcher = new WebhookDispatcher({
      events: parts.events,
      endpoints,
      deliveries,
      payloads: new EventPayloads({ jobs: parts.jobs, schedules: parts.schedules, publicBaseUrl: settings.publicBaseUrl }),
      queue: this.#queue,
      clock,
      logger,
      maxInFlightPerOrg: settings.maxInFlightPerOrg,
      autoDispatch: this.autoDispatch,
    });
    this.deliveries = new DeliveryLog({ endpoints: this.endpoints, deliveries, audit, clock, retentionMs: settings.retentionMs, dispatcher: this.dispatcher });
    this.#attempt = new DeliveryAttempt({
      deliveries,
      endpoints,
      audit,
      clock,
      logger,
      metrics: resources.metrics,
      secrets: this.endpoints,
      rules,
      resolver,
      sender: seams.sender ?? createSender(seams.timers ?? systemTimers),
      random: seams.random ?? Math.random,
      timeoutMs: settings.timeoutMs,
      disableAfterMs: settings.disableAfterMs,
    });
  }

  /** The service's clock as an ISO timestamp (views compute the rotation overlap with it). */
  now(): string {
    return this.#clock.now().toISOString();
  }

  /** Starts consuming the delivery queue in this process. */
  async startWorker(): Promise<void> {
    await this.#queue.process((job) => this.#attempt.run(job.payload), {
      concurrency: this.#concurrency,
      onFailed: (job, error) => {
        this.#logger.error({ err: error, deliveryId: job.payload.deliveryId }, 'webhook delivery task failed; its lease expires and it is claimed again');
      },
    });
  }

  /** Stops automatic dispatch passes and waits for the running one. */
  stop(): Promise<void> {
    return this.dispatcher.stop();
  }

  /** A dispatch pass soon (events recorded, the dispatch interval). */
  kick(): void {
    this.dispatcher.kick();
  }

  /** One dispatch pass now: fan out, then claim and enqueue due deliveries. */
  dispatch(): Promise<DispatchResult> {
    return this.dispatcher.dispatch();
  }

  /** Outbox events → deliveries only. @returns deliveries created. */
  fanOut(): Promise<number> {
    return this.dispatcher.fanOut();
  }

  /** Removes finished deliveries older than the retention period. */
  prune(): Promise<number> {
    return this.deliveries.prune();
  }
}
