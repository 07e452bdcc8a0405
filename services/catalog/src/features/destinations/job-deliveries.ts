import { DESTINATION_LIMITS, RECORD_SCHEMAS, type DeliveryManifest, type DestinationAttempt, type JobFinishedEvent } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import { errors } from '@crawl/errors';
import { newId } from '@crawl/storage';
import type { JobLifecycle } from '../jobs/index.ts';
import type { ResultStore } from '../results/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { Logger } from '../shared/ports.ts';
import { nextRetryDelay } from '../webhooks/index.ts';
import { keyUnder, type DestinationDeliveryDoc, type DestinationDoc } from './destination-model.ts';
import type { DestinationDeliveryRepository, DestinationRepository } from './destination-repository.ts';
import type { DestinationService } from './destination-service.ts';
import type { ObjectSink } from './object-sink.ts';
import { writeParts } from './part-writer.ts';

/** A write may take this long before another runner may take the delivery up again. */
const LEASE_MS = 30 * 60_000;

export interface JobDeliveriesOptions {
  deliveries: DestinationDeliveryRepository;
  destinations: DestinationRepository;
  service: DestinationService;
  jobs: Pick<JobLifecycle, 'getOwned'>;
  results: ResultStore;
  clock: Clock;
  logger: Logger;
  random?: () => number;
  rowsPerPart?: number;
}

/**
 * Writing finished jobs' results to their destination (`config.destinationId`): a delivery per
 * job and destination, attempted when the job ends, retried on the webhook schedule (30 s, 2 min,
 * 10 min … eight attempts over about 21 hours) from the maintenance tick, and replayable.
 * An attempt writes every part again and the manifest last, so a manifest names complete parts.
 */
export class JobDeliveries {
  readonly #options: JobDeliveriesOptions;
  readonly #deliveries: DestinationDeliveryRepository;
  /** Attempts running in this process, so `idle()` can wait for them (tests, shutdown). */
  readonly #running = new Set<Promise<void>>();

  constructor(options: JobDeliveriesOptions) {
    this.#options = options;
    this.#deliveries = options.deliveries;
  }

  #now(): string {
    return this.#options.clock.now().toISOString();
  }

  /** A job ended: when it names a destination, a delivery is logged and attempted now. */
  async jobFinished(event: JobFinishedEvent): Promise<void> {
    const job = await this.#options.jobs.getOwned(event.organizationId, event.jobId).catch(() => null);
    const destinationId = job?.config.destinationId;
    if (!job || typeof destinationId !== 'string') return;
    const now = this.#now();
    const doc: DestinationDeliveryDoc = {
      _id: newId('dsd_'),
      organizationId: job.organizationId,
      projectId: job.projectId,
      jobId: job._id,
      destinationId,
      status: 'pending',
      attempts: [],
      attemptCount: 0,
      cycleAttempts: 0,
      replay: false,
      nextAttemptAt: now,
      leaseUntil: null,
      lastError: null,
      deliveredAt: null,
      manifestKey: null,
      rows: null,
      createdAt: now,
      updatedAt: now,
    };
    if (await this.#deliveries.insertOnce(doc)) await this.runDue();
  }

  /** Attempts every due delivery (and takes up those whose runner died). */
  async runDue(): Promise<number> {
    const now = this.#now();
    await this.#deliveries.releaseExpiredLeases(now);
    const due = await this.#deliveries.findDue(now, 20);
    let attempted = 0;
    for (const delivery of due) {
      const taken = await this.#deliveries.take(delivery, new Date(this.#options.clock.now().getTime() + LEASE_MS).toISOString(), now);
      if (!taken) continue;
      attempted += 1;
      const run = this.#attempt(taken).finally(() => this.#running.delete(run));
      this.#running.add(run);
    }
    return attempted;
  }

  /** Resolves once the attempts running now have been recorded. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  async list(organizationId: string, jobId: string): Promise<DestinationDeliveryDoc[]> {
    await this.#options.jobs.getOwned(organizationId, jobId);
    return this.#deliveries.listForJob(organizationId, jobId);
  }

  /** Due again now with a fresh retry schedule. @throws 404, or 409 while an attempt runs */
  async replay(actor: Actor, jobId: string, deliveryId: string): Promise<DestinationDeliveryDoc> {
    await this.#options.jobs.getOwned(actor.organizationId, jobId);
    const existing = await this.#deliveries.findOwned(actor.organizationId, jobId, deliveryId);
    if (!existing) throw errors.notFound('Delivery');
    const rearmed = await this.#deliveries.rearmForReplay(actor.organizationId, deliveryId, this.#now());
    if (!rearmed) throw errors.conflict('The delivery is being written now; replay it when this attempt has ended');
    void this.runDue();
    return rearmed;
  }

  async #attempt(delivery: DestinationDeliveryDoc): Promise<void> {
    const started = this.#options.clock.now();
    let outcome: { rows: number; manifestKey: string } | { error: string };
    try {
      outcome = await this.#write(delivery);
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) };
    }
    const now = this.#options.clock.now();
    const error = 'error' in outcome ? outcome.error : null;
    const ok = error === null;
    const attempt: DestinationAttempt = {
      attempt: delivery.attemptCount + 1,
      at: started.toISOString(),
      ok,
      latencyMs: Math.max(0, now.getTime() - started.getTime()),
      error,
      replay: delivery.replay,
    };
    const line = { orgId: delivery.organizationId, jobId: delivery.jobId, deliveryId: delivery._id, attempt: attempt.attempt };
    if (!('error' in outcome)) {
      this.#options.logger.info({ ...line, rows: outcome.rows }, 'job results delivered');
      await this.#deliveries.record(
        delivery._id,
        attempt,
        { status: 'delivered', nextAttemptAt: null, lastError: null, deliveredAt: now.toISOString(), manifestKey: outcome.manifestKey, rows: outcome.rows },
        now.toISOString(),
      );
      return;
    }
    this.#options.logger.warn({ ...line, error: outcome.error }, 'job results delivery failed');
    const permanent = outcome.error === 'destination deleted';
    const delay = permanent ? null : nextRetryDelay(delivery.cycleAttempts + 1, { random: this.#options.random ?? Math.random });
    await this.#deliveries.record(
      delivery._id,
      attempt,
      {
        status: delay === null ? 'failed' : 'pending',
        nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay).toISOString(),
        lastError: outcome.error,
      },
      now.toISOString(),
    );
  }

  async #write(delivery: DestinationDeliveryDoc): Promise<{ rows: number; manifestKey: string }> {
    const destination = await this.#options.destinations.findOwned(delivery.organizationId, delivery.destinationId);
    if (!destination) return Promise.reject(new Error('destination deleted'));
    const job = await this.#options.jobs.getOwned(delivery.organizationId, delivery.jobId);
    const sink = await this.#options.service.openSink(destination);
    try {
      return await this.#writeTo(sink, destination, job);
    } finally {
      sink.close();
    }
  }

  async #writeTo(sink: ObjectSink, destination: DestinationDoc, job: Awaited<ReturnType<JobLifecycle['getOwned']>>) {
    const { results } = this.#options;
    const folder = keyUnder(destination.prefix, job._id);
    const columns = destination.format === 'csv' ? await this.#csvColumns(job) : undefined;
    const parts = await writeParts({
      sink,
      folder,
      format: destination.format,
      gzip: destination.gzip,
      rowsPerPart: this.#options.rowsPerPart ?? DESTINATION_LIMITS.rowsPerPart,
      rows: () => results.itemJson(job._id),
      ...(columns ? { columns } : {}),
    });
    const rows = parts.reduce((sum, part) => sum + part.rows, 0);
    const manifest: DeliveryManifest = {
      jobId: job._id,
      projectId: job.projectId,
      jobType: job.type,
      schema: String(RECORD_SCHEMAS[job.type].$id),
      format: destination.format,
      gzip: destination.gzip,
      rows,
      parts,
      writtenAt: this.#now(),
    };
    const manifestKey = `${folder}/manifest.json`;
    await sink.put(manifestKey, `${JSON.stringify(manifest, null, 2)}\n`, 'application/json');
    return { rows, manifestKey };
  }

  /** The recorded columns, or a first pass over the rows (memory grows with columns, not rows). */
  async #csvColumns(job: Awaited<ReturnType<JobLifecycle['getOwned']>>): Promise<string[]> {
    const recorded = await this.#options.results.csvColumns(job);
    if (recorded) return recorded;
    const { addColumns, flattenItem } = await import('../results/index.ts');
    const seen = new Set<string>();
    for await (const batch of this.#options.results.items(job._id)) for (const item of batch) addColumns(seen, Object.keys(flattenItem(item)));
    return [...seen];
  }
}
