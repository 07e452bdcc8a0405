import { DuplicateKeyError, type Collection, type DocumentStore, type Filter } from '@crawl/storage';
import type { DestinationAttempt } from '@crawl/contracts';
import { DESTINATION_DELIVERIES_COLLECTION, DESTINATIONS_COLLECTION, type DestinationDeliveryDoc, type DestinationDoc } from './destination-model.ts';

/** A project's destinations. */
export class DestinationRepository {
  readonly #destinations: Collection<DestinationDoc>;

  constructor(store: DocumentStore) {
    this.#destinations = store.collection<DestinationDoc>(DESTINATIONS_COLLECTION);
  }

  async init(): Promise<void> {
    await this.#destinations.ensureIndexes([{ keys: { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, name: 'org_project_created_id' }]);
  }

  insert(doc: DestinationDoc): Promise<DestinationDoc> {
    return this.#destinations.insertOne(doc);
  }

  findOwned(organizationId: string, id: string): Promise<DestinationDoc | null> {
    return this.#destinations.findOne({ _id: id, organizationId });
  }

  countForProject(organizationId: string, projectId: string): Promise<number> {
    return this.#destinations.count({ organizationId, projectId });
  }

  async listForProject(
    organizationId: string,
    projectId: string,
    page: { offset: number; limit: number },
  ): Promise<{ items: DestinationDoc[]; total: number }> {
    const filter: Filter = { organizationId, projectId };
    const [items, total] = await Promise.all([
      this.#destinations.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.#destinations.count(filter),
    ]);
    return { items, total };
  }

  recordTest(id: string, at: string, error: string | null): Promise<DestinationDoc | null> {
    return this.#destinations.updateOne({ _id: id }, { $set: { lastTestAt: at, lastTestError: error, updatedAt: at } });
  }

  async remove(organizationId: string, id: string): Promise<boolean> {
    return (await this.#destinations.deleteMany({ _id: id, organizationId })) > 0;
  }
}

/**
 * The log of job deliveries and its lease: a delivery is `pending` until a runner takes it
 * (`sending` with a lease, by a conditional update, so of two runners one wins); the attempt's
 * outcome releases it. A lease that runs out (a process died mid-write) makes it due again.
 */
export class DestinationDeliveryRepository {
  readonly #deliveries: Collection<DestinationDeliveryDoc>;

  constructor(store: DocumentStore) {
    this.#deliveries = store.collection<DestinationDeliveryDoc>(DESTINATION_DELIVERIES_COLLECTION);
  }

  async init(): Promise<void> {
    await this.#deliveries.ensureIndexes([
      { keys: { jobId: 1, destinationId: 1 }, unique: true, name: 'job_destination' },
      { keys: { status: 1, nextAttemptAt: 1, _id: 1 }, name: 'status_next_attempt_id' },
      { keys: { status: 1, leaseUntil: 1 }, name: 'status_lease' },
      { keys: { organizationId: 1, jobId: 1, createdAt: -1 }, name: 'org_job_created' },
    ]);
  }

  /** Inserts unless the job already has a delivery to this destination. @returns false when it had. */
  async insertOnce(doc: DestinationDeliveryDoc): Promise<boolean> {
    try {
      await this.#deliveries.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  findOwned(organizationId: string, jobId: string, id: string): Promise<DestinationDeliveryDoc | null> {
    return this.#deliveries.findOne({ _id: id, jobId, organizationId });
  }

  listForJob(organizationId: string, jobId: string): Promise<DestinationDeliveryDoc[]> {
    return this.#deliveries.find({ organizationId, jobId }, { sort: { createdAt: -1, _id: -1 }, limit: 100 });
  }

  findDue(now: string, limit: number): Promise<DestinationDeliveryDoc[]> {
    return this.#deliveries.find({ status: 'pending', nextAttemptAt: { $lte: now } }, { sort: { nextAttemptAt: 1, _id: 1 }, limit });
  }

  /** Takes a due delivery as read. @returns it, or null when another runner took it. */
  take(due: Pick<DestinationDeliveryDoc, '_id' | 'nextAttemptAt'>, leaseUntil: string, at: string): Promise<DestinationDeliveryDoc | null> {
    return this.#deliveries.updateOne(
      { _id: due._id, status: 'pending', nextAttemptAt: due.nextAttemptAt },
      { $set: { status: 'sending', leaseUntil, updatedAt: at } },
    );
  }

  releaseExpiredLeases(now: string): Promise<number> {
    return this.#deliveries.updateMany({ status: 'sending', leaseUntil: { $lt: now } }, { $set: { status: 'pending', leaseUntil: null, nextAttemptAt: now } });
  }

  record(
    id: string,
    attempt: DestinationAttempt,
    outcome: Pick<DestinationDeliveryDoc, 'status' | 'nextAttemptAt' | 'lastError'> &
      Partial<Pick<DestinationDeliveryDoc, 'deliveredAt' | 'manifestKey' | 'rows'>>,
    at: string,
  ): Promise<DestinationDeliveryDoc | null> {
    return this.#deliveries.updateOne(
      { _id: id, status: 'sending' },
      { $push: { attempts: attempt }, $inc: { attemptCount: 1, cycleAttempts: 1 }, $set: { ...outcome, leaseUntil: null, updatedAt: at } },
    );
  }

  /** Due now with a fresh retry schedule; later attempts are marked as replays. @returns null while one runs. */
  rearmForReplay(organizationId: string, id: string, at: string): Promise<DestinationDeliveryDoc | null> {
    return this.#deliveries.updateOne(
      { _id: id, organizationId, status: { $in: ['pending', 'delivered', 'failed'] } },
      { $set: { status: 'pending', nextAttemptAt: at, cycleAttempts: 0, replay: true, leaseUntil: null, updatedAt: at } },
    );
  }
}
