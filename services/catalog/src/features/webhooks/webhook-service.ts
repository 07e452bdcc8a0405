import { createHash, randomUUID } from 'node:crypto';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type CreateWebhookBody,
  type ListDeliveriesQuery,
  type UpdateWebhookBody,
  type WebhookDisabledReason,
  type WebhookEventType,
} from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import type { QueueJob, QueueProvider, WorkQueue } from '@crawl/queue';
import { DuplicateKeyError, newId, type Collection, type DocumentStore, type Filter } from '@crawl/storage';
import type { Logger } from '../../shared.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { AnyOutboxDoc, JobEvents } from '../events/job-events.ts';
import { toJobView } from '../jobs/job-model.ts';
import type { JobService } from '../jobs/job-service.ts';
import type { Actor, ProjectService } from '../projects/project-service.ts';
import { toScheduleView, type ScheduleService } from '../schedules/schedule-service.ts';
import { checkWebhookUrl, systemResolver, WebhookUrlError, type Resolver, type UrlRules } from './address-guard.ts';
import { createSender, type Sender, type SendResult } from './http-sender.ts';
import { nextRetryDelay, parseRetryAfter } from './retry-policy.ts';
import { generateSecret, SecretBox, signedHeaders } from './signer.ts';
import { realTimers, type Timers } from './timers.ts';
import { DELIVERIES_COLLECTION, ENDPOINTS_COLLECTION, type AttemptDoc, type DeliveryDoc, type EndpointDoc } from './webhook-model.ts';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

export interface DeliveryTask {
  deliveryId: string;
  claim: string;
}

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

export interface WebhookServiceOptions {
  store: DocumentStore;
  clock: Clock;
  queues: QueueProvider;
  logger?: Logger | undefined;
  audit: AuditLog;
  projects: ProjectService;
  jobs: JobService;
  schedules: ScheduleService;
  events: JobEvents;
  /** Key material for encrypting signing secrets at rest. */
  secretsKey: string;
  settings: WebhookSettings;
  options?: WebhookOptions;
}

/** How long a claimed delivery may wait in the queue before another dispatcher may claim it again. */
const QUEUE_LEASE_MS = 10 * 60_000;
const CLAIM_BATCH = 200;
const FAN_OUT_BATCH = 100;

const DEFAULT_EVENTS: WebhookEventType[] = [...WEBHOOK_EVENT_TYPES];

export function eventIdFor(outboxId: string): string {
  return `evt_${createHash('sha256').update(outboxId).digest('hex').slice(0, 26)}`;
}

function parseTask(payload: unknown): DeliveryTask {
  const task = payload as Partial<DeliveryTask> | null;
  if (!task || typeof task.deliveryId !== 'string' || typeof task.claim !== 'string') throw new Error('invalid webhook delivery task');
  return { deliveryId: task.deliveryId, claim: task.claim };
}

/**
 * Webhook endpoints (per project, organization-scoped), the delivery log, and the delivery engine:
 * job-finished and schedule-failed events are fanned out from catalog's outbox into one delivery
 * per matching endpoint (idempotent on endpoint + event), due deliveries are claimed atomically
 * and handed to the work queue (group = organization), and each attempt is recorded in the log
 * with its next retry.
 */
export class WebhookService {
  readonly #endpoints: Collection<EndpointDoc>;
  readonly #deliveries: Collection<DeliveryDoc>;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;
  readonly #audit: AuditLog;
  readonly #projects: ProjectService;
  readonly #jobs: JobService;
  readonly #schedules: ScheduleService;
  readonly #events: JobEvents;
  readonly #box: SecretBox;
  readonly #settings: WebhookSettings;
  readonly #rules: UrlRules;
  readonly #resolver: Resolver;
  readonly #random: () => number;
  readonly #sender: Sender;
  readonly #queue: WorkQueue<DeliveryTask>;
  readonly autoDispatch: boolean;
  #current: Promise<DispatchResult> | undefined;
  #queued: Promise<DispatchResult> | undefined;
  #stopped = false;

  constructor(options: WebhookServiceOptions) {
    this.#endpoints = options.store.collection<EndpointDoc>(ENDPOINTS_COLLECTION);
    this.#deliveries = options.store.collection<DeliveryDoc>(DELIVERIES_COLLECTION);
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#audit = options.audit;
    this.#projects = options.projects;
    this.#jobs = options.jobs;
    this.#schedules = options.schedules;
    this.#events = options.events;
    this.#box = new SecretBox(options.secretsKey);
    this.#settings = options.settings;
    this.#rules = { requireHttps: options.settings.requireHttps, allowPrivate: options.settings.allowPrivateTargets };
    const seams = options.options ?? {};
    this.#resolver = seams.resolver ?? systemResolver;
    this.#random = seams.random ?? Math.random;
    this.#sender = seams.sender ?? createSender(seams.timers ?? realTimers);
    this.autoDispatch = seams.autoDispatch ?? true;
    this.#queue = options.queues.queue<DeliveryTask>({ name: WEBHOOK_QUEUE, retry: { attempts: 3, backoffMs: 1_000, maxBackoffMs: 30_000 }, parse: parseTask });
  }

  async init(): Promise<void> {
    await Promise.all([
      this.#endpoints.ensureIndexes([{ keys: { organizationId: 1, projectId: 1, createdAt: -1 }, name: 'org_project_created' }]),
      this.#deliveries.ensureIndexes([
        { keys: { endpointId: 1, eventId: 1 }, unique: true, name: 'endpoint_event' },
        { keys: { status: 1, nextAttemptAt: 1 }, name: 'due' },
        { keys: { organizationId: 1, status: 1 }, name: 'org_status' },
        { keys: { endpointId: 1, createdAt: -1 }, name: 'endpoint_created' },
        { keys: { status: 1, updatedAt: 1 }, name: 'status_updated' },
      ]),
    ]);
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }

  /** The service's clock as an ISO timestamp (views compute the rotation overlap with it). */
  now(): string {
    return this.#now();
  }

  // -------------------------------------------------------------------------------------------
  // Endpoints

  async #checkUrl(url: string): Promise<string> {
    try {
      const { checked } = await checkWebhookUrl(url, this.#rules, this.#resolver);
      return checked.url.toString();
    } catch (error) {
      if (error instanceof WebhookUrlError) throw errors.validation(error.message, [error.message]);
      throw error;
    }
  }

  async create(actor: Actor, projectId: string, body: CreateWebhookBody, requestId?: string): Promise<{ endpoint: EndpointDoc; secret: string }> {
    await this.#projects.getOwned(actor.organizationId, projectId);
    const url = await this.#checkUrl(body.url);
    const existing = await this.#endpoints.count({ organizationId: actor.organizationId, projectId });
    if (existing >= WEBHOOK_LIMITS.endpointsPerProject) throw errors.conflict(`A project has at most ${WEBHOOK_LIMITS.endpointsPerProject} webhook endpoints`);
    const now = this.#now();
    const secret = generateSecret();
    const enabled = body.enabled ?? true;
    const doc: EndpointDoc = {
      _id: newId('whk_'),
      organizationId: actor.organizationId,
      projectId,
      url,
      description: body.description?.trim() ?? '',
      events: body.events ? [...new Set(body.events)] : DEFAULT_EVENTS,
      enabled,
      disabledReason: enabled ? null : { code: 'user', message: 'Created disabled', at: now },
      secrets: [{ sealed: this.#box.seal(secret), createdAt: now, expiresAt: null }],
      failingSince: null,
      consecutiveFailures: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    await this.#endpoints.insertOne(doc);
    await this.#auditQuietly(actor, 'webhook.create', doc._id, requestId, { projectId, url, events: doc.events });
    return { endpoint: doc, secret };
  }

  async list(organizationId: string, projectId: string): Promise<EndpointDoc[]> {
    await this.#projects.getOwned(organizationId, projectId);
    return this.#endpoints.find({ organizationId, projectId }, { sort: { createdAt: -1, _id: -1 } });
  }

  async getOwned(organizationId: string, id: string): Promise<EndpointDoc> {
    const endpoint = await this.#endpoints.findOne({ _id: id, organizationId });
    if (!endpoint) throw errors.notFound('Webhook');
    return endpoint;
  }

  async update(actor: Actor, id: string, patch: UpdateWebhookBody, requestId?: string): Promise<EndpointDoc> {
    const current = await this.getOwned(actor.organizationId, id);
    const now = this.#now();
    const set: Record<string, unknown> = { updatedAt: now };
    if (patch.url !== undefined) set.url = await this.#checkUrl(patch.url);
    if (patch.events !== undefined) set.events = [...new Set(patch.events)];
    if (patch.description !== undefined) set.description = patch.description.trim();
    if (patch.enabled === true && !current.enabled) {
      Object.assign(set, { enabled: true, disabledReason: null, failingSince: null, consecutiveFailures: 0 });
    } else if (patch.enabled === false && current.enabled) {
      Object.assign(set, { enabled: false, disabledReason: { code: 'user', message: 'Disabled through the API', at: now } satisfies WebhookDisabledReason });
    }
    const updated = await this.#endpoints.updateOne({ _id: id, organizationId: actor.organizationId }, { $set: set });
    if (!updated) throw errors.notFound('Webhook');
    await this.#auditQuietly(actor, 'webhook.update', id, requestId, { changes: Object.keys(patch), enabled: updated.enabled });
    return updated;
  }

  async remove(actor: Actor, id: string, requestId?: string): Promise<void> {
    const deleted = await this.#endpoints.deleteOne({ _id: id, organizationId: actor.organizationId });
    if (!deleted) throw errors.notFound('Webhook');
    await this.#deliveries.deleteMany({ endpointId: id, organizationId: actor.organizationId });
    await this.#auditQuietly(actor, 'webhook.delete', id, requestId, {});
  }

  /** A new current secret; the previous one keeps signing until the overlap ends. */
  async rotateSecret(actor: Actor, id: string, requestId?: string): Promise<{ endpoint: EndpointDoc; secret: string }> {
    for (let tries = 0; tries < 5; tries += 1) {
      const current = await this.getOwned(actor.organizationId, id);
      const now = this.#now();
      const expiresAt = new Date(this.#clock.now().getTime() + this.#settings.secretOverlapMs).toISOString();
      const secret = generateSecret();
      const kept = current.secrets
        .map((s) => (s.expiresAt === null ? { ...s, expiresAt } : s))
        .filter((s) => s.expiresAt !== null && s.expiresAt > now);
      const secrets = [{ sealed: this.#box.seal(secret), createdAt: now, expiresAt: null }, ...kept];
      // Conditional on the secrets read, so two concurrent rotations never lose a secret.
      const updated = await this.#endpoints.updateOne(
        { _id: id, organizationId: actor.organizationId, 'secrets.0.sealed': current.secrets[0]?.sealed },
        { $set: { secrets, updatedAt: now } },
      );
      if (updated) {
        await this.#auditQuietly(actor, 'webhook.rotate_secret', id, requestId, { previousSecretExpiresAt: kept.length > 0 ? expiresAt : null });
        return { endpoint: updated, secret };
      }
    }
    throw errors.conflict('The webhook changed concurrently; try again');
  }

  /** Signing secrets valid at `at`, current first. */
  #activeSecrets(endpoint: EndpointDoc, at: string): string[] {
    return endpoint.secrets.filter((s) => s.expiresAt === null || s.expiresAt > at).map((s) => this.#box.open(s.sealed));
  }

  // -------------------------------------------------------------------------------------------
  // Delivery log

  async sendTest(actor: Actor, id: string): Promise<DeliveryDoc> {
    const endpoint = await this.getOwned(actor.organizationId, id);
    if (!endpoint.enabled) throw errors.conflict('The webhook is disabled: enable it before sending a test event');
    const now = this.#now();
    const eventId = newId('evt_test_');
    const body = JSON.stringify({
      id: eventId,
      type: WEBHOOK_TEST_EVENT,
      timestamp: now,
      data: { endpointId: endpoint._id, projectId: endpoint.projectId, message: 'This is a test event from the crawl data service.' },
    });
    const delivery = this.#newDelivery(endpoint, eventId, WEBHOOK_TEST_EVENT, body, now);
    await this.#deliveries.insertOne(delivery);
    this.kick();
    return delivery;
  }

  async listDeliveries(organizationId: string, endpointId: string, query: ListDeliveriesQuery) {
    await this.getOwned(organizationId, endpointId);
    const limit = Math.min(query.limit ?? WEBHOOK_LIMITS.listDefaultLimit, WEBHOOK_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const filter: Filter = { organizationId, endpointId };
    if (query.status) filter.status = query.status;
    const [items, total] = await Promise.all([
      this.#deliveries.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: offset, limit }),
      this.#deliveries.count(filter),
    ]);
    return { items, meta: { total, limit, offset } };
  }

  /** Sends a delivery again now, with the same event id, a fresh timestamp and a fresh retry schedule. */
  async replay(actor: Actor, endpointId: string, deliveryId: string, requestId?: string): Promise<DeliveryDoc> {
    const endpoint = await this.getOwned(actor.organizationId, endpointId);
    const delivery = await this.#deliveries.findOne({ _id: deliveryId, endpointId, organizationId: actor.organizationId });
    if (!delivery) throw errors.notFound('Delivery');
    if (!endpoint.enabled) throw errors.conflict('The webhook is disabled: enable it before replaying deliveries');
    const now = this.#now();
    const replayed = await this.#deliveries.updateOne(
      { _id: deliveryId, organizationId: actor.organizationId, status: { $in: ['pending', 'delivered', 'failed'] } },
      { $set: { status: 'pending', nextAttemptAt: now, cycleAttempts: 0, replay: true, claim: null, leaseUntil: null, updatedAt: now } },
    );
    if (!replayed) throw errors.conflict('The delivery is being sent right now; try again in a moment');
    await this.#auditQuietly(actor, 'webhook.replay', endpointId, requestId, { deliveryId, eventId: delivery.eventId });
    this.kick();
    return replayed;
  }

  #newDelivery(endpoint: EndpointDoc, eventId: string, eventType: string, body: string, now: string): DeliveryDoc {
    return {
      _id: newId('whd_'),
      organizationId: endpoint.organizationId,
      projectId: endpoint.projectId,
      endpointId: endpoint._id,
      eventId,
      eventType,
      body,
      status: 'pending',
      attempts: [],
      attemptCount: 0,
      cycleAttempts: 0,
      replay: false,
      nextAttemptAt: now,
      claim: null,
      leaseUntil: null,
      lastError: null,
      deliveredAt: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Engine

  /** Starts consuming the delivery queue in this process. */
  async startWorker(): Promise<void> {
    await this.#queue.process((job) => this.#attempt(job), {
      concurrency: this.#settings.concurrency,
      onFailed: (job, error) => {
        this.#logger?.error({ err: error, deliveryId: job.payload.deliveryId }, 'webhook delivery task failed; its lease expires and it is claimed again');
      },
    });
  }

  /** Stops automatic passes and waits for the running one. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#queued?.catch(() => undefined);
    await this.#current?.catch(() => undefined);
  }

  /** A dispatch pass soon (used when events are recorded or a test/replay is requested). */
  kick(): void {
    if (!this.autoDispatch || this.#stopped) return;
    this.dispatch().catch((error: unknown) => this.#logger?.error({ err: error }, 'webhook dispatch failed'));
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
      const events = await this.#events.pendingAll(FAN_OUT_BATCH);
      if (events.length === 0) break;
      for (const event of events) {
        created += await this.#fanOutOne(event);
        await this.#events.markDelivered(event._id, this.#now());
      }
      if (events.length < FAN_OUT_BATCH) break;
    }
    return created;
  }

  async #fanOutOne(event: AnyOutboxDoc): Promise<number> {
    const type: WebhookEventType = event.type === 'job.finished' ? `job.${event.payload.status}` : 'schedule.failed';
    const endpoints = (await this.#endpoints.find({ organizationId: event.organizationId, projectId: event.payload.projectId, enabled: true })).filter((e) =>
      e.events.includes(type),
    );
    if (endpoints.length === 0) return 0;
    const eventId = eventIdFor(event._id);
    const data = await this.#eventData(event);
    if (!data) return 0;
    const body = JSON.stringify({ id: eventId, type, timestamp: event.createdAt, data });
    const now = this.#now();
    let created = 0;
    for (const endpoint of endpoints) {
      try {
        await this.#deliveries.insertOne(this.#newDelivery(endpoint, eventId, type, body, now));
        created += 1;
      } catch (error) {
        // Another dispatcher fanned this event out already: one delivery per (endpoint, event).
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    }
    return created;
  }

  #link(path: string): string {
    return `${this.#settings.publicBaseUrl.replace(/\/$/, '')}${path}`;
  }

  async #eventData(event: AnyOutboxDoc): Promise<Record<string, unknown> | null> {
    if (event.type === 'job.finished') {
      const job = await this.#jobs.getOwned(event.organizationId, event.payload.jobId).catch(() => null);
      if (!job) return null;
      const base = `/jobs/${encodeURIComponent(job._id)}`;
      return { job: toJobView(job), links: { job: this.#link(base), results: this.#link(`${base}/results`), export: this.#link(`${base}/export`) } };
    }
    const schedule = await this.#schedules.getOwned(event.organizationId, event.payload.scheduleId).catch(() => null);
    if (!schedule) return null;
    return {
      schedule: toScheduleView(schedule),
      error: event.payload.error,
      links: { schedule: this.#link(`/projects/${encodeURIComponent(schedule.projectId)}/schedules`) },
    };
  }

  /**
   * Claims due deliveries (atomically: a conditional update on the value read) and enqueues them
   * with group = organization. An organization never has more than `maxInFlightPerOrg` attempts
   * in flight, so one slow endpoint cannot occupy every worker. @returns how many were enqueued.
   */
  async claimDue(): Promise<number> {
    const now = this.#clock.now();
    const nowIso = now.toISOString();
    // Attempts whose worker died (or whose queue forgot them on restart) are claimed again.
    await this.#deliveries.updateMany({ status: 'sending', leaseUntil: { $lt: nowIso } }, { $set: { status: 'pending', claim: null, leaseUntil: null, nextAttemptAt: nowIso } });
    const saturated = new Set<string>();
    const inFlight = new Map<string, number>();
    let claimed = 0;
    while (claimed < CLAIM_BATCH) {
      const filter: Filter = { status: 'pending', nextAttemptAt: { $lte: nowIso } };
      if (saturated.size > 0) filter.organizationId = { $nin: [...saturated] };
      const due = await this.#deliveries.find(filter, { sort: { nextAttemptAt: 1, _id: 1 }, limit: 50 });
      if (due.length === 0) break;
      let progressed = false;
      for (const delivery of due) {
        const org = delivery.organizationId;
        if (saturated.has(org)) continue;
        const busy = inFlight.get(org) ?? (await this.#deliveries.count({ organizationId: org, status: 'sending' }));
        if (busy >= this.#settings.maxInFlightPerOrg) {
          saturated.add(org);
          progressed = true;
          continue;
        }
        const claim = randomUUID();
        const won = await this.#deliveries.updateOne(
          { _id: delivery._id, status: 'pending', nextAttemptAt: delivery.nextAttemptAt },
          { $set: { status: 'sending', claim, leaseUntil: new Date(now.getTime() + QUEUE_LEASE_MS).toISOString(), updatedAt: nowIso } },
        );
        if (!won) continue;
        inFlight.set(org, busy + 1);
        progressed = true;
        try {
          await this.#queue.add({ deliveryId: delivery._id, claim }, { jobId: `${delivery._id}-${claim}`, group: org });
          claimed += 1;
        } catch (error) {
          this.#logger?.warn({ err: error, deliveryId: delivery._id }, 'enqueueing a webhook delivery failed; it stays due');
          await this.#deliveries.updateOne({ _id: delivery._id, claim }, { $set: { status: 'pending', claim: null, leaseUntil: null } });
          return claimed;
        }
      }
      if (!progressed) break;
    }
    return claimed;
  }

  /** One attempt of one delivery (the queue handler). */
  async #attempt(job: QueueJob<DeliveryTask>): Promise<void> {
    const { deliveryId, claim } = job.payload;
    const startedAt = this.#clock.now();
    const delivery = await this.#deliveries.updateOne(
      { _id: deliveryId, status: 'sending', claim },
      { $set: { leaseUntil: new Date(startedAt.getTime() + this.#settings.timeoutMs + QUEUE_LEASE_MS).toISOString() } },
    );
    if (!delivery) return; // replayed, reclaimed or deleted meanwhile
    const endpoint = await this.#endpoints.findOne({ _id: delivery.endpointId, organizationId: delivery.organizationId });
    if (!endpoint || !endpoint.enabled) {
      await this.#deliveries.updateOne(
        { _id: deliveryId, claim },
        { $set: { status: 'failed', claim: null, leaseUntil: null, nextAttemptAt: null, lastError: endpoint ? 'endpoint disabled' : 'endpoint deleted', updatedAt: this.#now() } },
      );
      return;
    }
    const at = startedAt.toISOString();
    const result = await this.#send(endpoint, delivery, startedAt);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const attempt: AttemptDoc = {
      attempt: delivery.attemptCount + 1,
      at,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error ?? (ok ? null : `HTTP ${result.statusCode}`),
      responseBody: result.body,
      replay: delivery.replay,
    };
    const now = this.#clock.now();
    const nowIso = now.toISOString();
    const base = { claim: null, leaseUntil: null, updatedAt: nowIso };
    const push = { $push: { attempts: attempt }, $inc: { attemptCount: 1, cycleAttempts: 1 } };
    // The endpoint is updated before the delivery: the delivery leaving `sending` is the last write.
    if (ok) {
      await this.#endpoints.updateOne({ _id: endpoint._id }, { $set: { failingSince: null, consecutiveFailures: 0, lastSuccessAt: nowIso } });
      await this.#deliveries.updateOne({ _id: deliveryId, claim }, { ...push, $set: { ...base, status: 'delivered', deliveredAt: nowIso, nextAttemptAt: null, lastError: null } });
      return;
    }
    if (result.statusCode === 410) {
      await this.#recordFailure(endpoint, nowIso);
      await this.#disable(endpoint, { code: 'gone', message: `The endpoint answered 410 Gone at ${nowIso}; deliveries stopped.`, at: nowIso });
      await this.#deliveries.updateOne({ _id: deliveryId, claim }, { ...push, $set: { ...base, status: 'failed', nextAttemptAt: null, lastError: 'HTTP 410: the endpoint is gone' } });
      return;
    }
    const failing = await this.#recordFailure(endpoint, nowIso);
    let disabled = false;
    if (failing && failing.enabled && failing.failingSince && now.getTime() - Date.parse(failing.failingSince) >= this.#settings.disableAfterMs) {
      disabled = await this.#disable(failing, {
        code: 'failing',
        message: `Every delivery attempt failed since ${failing.failingSince} (${failing.consecutiveFailures} attempts in a row); last error: ${attempt.error}`,
        at: nowIso,
      });
    }
    const retryAfterMs = parseRetryAfter(result.headers['retry-after'], now);
    const delay = disabled ? null : nextRetryDelay(delivery.cycleAttempts + 1, { retryAfterMs, random: this.#random });
    const nextAttemptAt = delay === null ? null : new Date(now.getTime() + delay).toISOString();
    await this.#deliveries.updateOne(
      { _id: deliveryId, claim },
      { ...push, $set: { ...base, status: delay === null ? 'failed' : 'pending', nextAttemptAt, lastError: attempt.error } },
    );
  }

  async #send(endpoint: EndpointDoc, delivery: DeliveryDoc, at: Date): Promise<SendResult> {
    try {
      // Checked again at every attempt, after DNS resolution; the sender connects to these addresses.
      const { checked, addresses } = await checkWebhookUrl(endpoint.url, this.#rules, this.#resolver);
      const headers = signedHeaders(this.#activeSecrets(endpoint, at.toISOString()), delivery.eventId, at, delivery.body);
      return await this.#sender({ url: checked.url, addresses, headers: { ...headers }, body: delivery.body, timeoutMs: this.#settings.timeoutMs });
    } catch (error) {
      const message = error instanceof WebhookUrlError ? `refused: ${error.message}` : `not sent: ${error instanceof Error ? error.message : String(error)}`;
      return { statusCode: null, headers: {}, body: null, error: message, latencyMs: 0 };
    }
  }

  async #recordFailure(endpoint: EndpointDoc, at: string): Promise<EndpointDoc | null> {
    await this.#endpoints.updateOne({ _id: endpoint._id, failingSince: null }, { $set: { failingSince: at } });
    return this.#endpoints.updateOne({ _id: endpoint._id }, { $set: { lastFailureAt: at }, $inc: { consecutiveFailures: 1 } });
  }

  /** @returns true when this call disabled the endpoint. */
  async #disable(endpoint: EndpointDoc, reason: WebhookDisabledReason): Promise<boolean> {
    const disabled = await this.#endpoints.updateOne({ _id: endpoint._id, enabled: true }, { $set: { enabled: false, disabledReason: reason, updatedAt: reason.at } });
    if (!disabled) return false;
    await this.#deliveries.updateMany(
      { endpointId: endpoint._id, status: 'pending' },
      { $set: { status: 'failed', nextAttemptAt: null, lastError: 'endpoint disabled', updatedAt: reason.at } },
    );
    this.#logger?.warn({ endpointId: endpoint._id, organizationId: endpoint.organizationId, reason: reason.code }, 'webhook endpoint disabled');
    await this.#audit.recordQuietly({
      organizationId: endpoint.organizationId,
      actorUserId: 'system',
      action: 'webhook.disabled',
      resourceType: 'webhook',
      resourceId: endpoint._id,
      metadata: { reason: reason.code, message: reason.message },
    });
    return true;
  }

  /** Removes finished deliveries older than the retention period. */
  async prune(): Promise<number> {
    const before = new Date(this.#clock.now().getTime() - this.#settings.retentionMs).toISOString();
    return this.#deliveries.deleteMany({ status: { $in: ['delivered', 'failed'] }, updatedAt: { $lt: before } });
  }

  async #auditQuietly(actor: Actor, action: string, resourceId: string, requestId: string | undefined, metadata: Record<string, unknown>): Promise<void> {
    await this.#audit.recordQuietly({ organizationId: actor.organizationId, actorUserId: actor.userId, action, resourceType: 'webhook', resourceId, requestId, metadata });
  }
}

export interface DispatchResult {
  fannedOut: number;
  claimed: number;
}
