import type { WebhookDeliveryStatus } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type DocumentStore, type Filter } from '@crawl/storage';
import { DELIVERIES_COLLECTION, type AttemptDoc, type DeliveryDoc } from './webhook-model.ts';

/** How an attempt ended, as the log keeps it. */
export interface AttemptOutcome {
  status: 'delivered' | 'pending' | 'failed';
  nextAttemptAt: string | null;
  lastError: string | null;
  deliveredAt?: string;
}

export interface DeliveryPage {
  items: DeliveryDoc[];
  total: number;
}

/**
 * The delivery log and its lease protocol. A delivery is `pending` until a dispatcher claims it
 * (`claim`: status `sending` with a claim token and a lease); only the holder of the token may
 * record the attempt (`startAttempt`, `recordAttempt`, `failUnsent`, `releaseClaim`). A lease that
 * runs out (dead worker, lost queue message) makes it claimable again (`releaseExpiredLeases`).
 */
export class DeliveryRepository {
  readonly #deliveries: Collection<DeliveryDoc>;

  constructor(store: DocumentStore) {
    this.#deliveries = store.collection<DeliveryDoc>(DELIVERIES_COLLECTION);
  }

  /**
   * Equality fields first, then the range or sort of each hot query: the due scan (status,
   * nextAttemptAt, id), expired leases (status, leaseUntil), an organization's in-flight count,
   * the log with and without a status filter (newest first), the retention sweep.
   */
  async init(): Promise<void> {
    await this.#deliveries.ensureIndexes([
      { keys: { endpointId: 1, eventId: 1 }, unique: true, name: 'endpoint_event' },
      { keys: { status: 1, nextAttemptAt: 1, _id: 1 }, name: 'status_next_attempt_id' },
      { keys: { status: 1, leaseUntil: 1 }, name: 'status_lease' },
      { keys: { organizationId: 1, status: 1 }, name: 'org_status' },
      { keys: { organizationId: 1, endpointId: 1, createdAt: -1, _id: -1 }, name: 'org_endpoint_created_id' },
      { keys: { organizationId: 1, endpointId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'org_endpoint_status_created_id' },
      { keys: { status: 1, updatedAt: 1 }, name: 'status_updated' },
    ]);
  }

  insert(doc: DeliveryDoc): Promise<DeliveryDoc> {
    return this.#deliveries.insertOne(doc);
  }

  /** Inserts unless the endpoint already has a delivery of this event. @returns false when it had. */
  async insertOnce(doc: DeliveryDoc): Promise<boolean> {
    try {
      await this.#deliveries.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  findOwned(organizationId: string, endpointId: string, id: string): Promise<DeliveryDoc | null> {
    return this.#deliveries.findOne({ _id: id, endpointId, organizationId });
  }

  /** One page of an endpoint's log, newest first, and the total under the same filter. */
  async listForEndpoint(
    organizationId: string,
    endpointId: string,
    query: { status?: WebhookDeliveryStatus | undefined; offset: number; limit: number },
  ): Promise<DeliveryPage> {
    const filter: Filter = { organizationId, endpointId };
    if (query.status) filter.status = query.status;
    const [items, total] = await Promise.all([
      this.#deliveries.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: query.offset, limit: query.limit }),
      this.#deliveries.count(filter),
    ]);
    return { items, total };
  }

  /**
   * Makes a finished or waiting delivery due now with a fresh retry schedule; attempts from here on
   * are marked as replays. @returns null while an attempt is in flight (or when there is no such delivery).
   */
  rearmForReplay(organizationId: string, id: string, at: string): Promise<DeliveryDoc | null> {
    return this.#deliveries.updateOne(
      { _id: id, organizationId, status: { $in: ['pending', 'delivered', 'failed'] } },
      { $set: { status: 'pending', nextAttemptAt: at, cycleAttempts: 0, replay: true, claim: null, leaseUntil: null, updatedAt: at } },
    );
  }

  /** Deliveries whose lease ran out go back to `pending`, due at `now`. @returns how many. */
  releaseExpiredLeases(now: string): Promise<number> {
    return this.#deliveries.updateMany(
      { status: 'sending', leaseUntil: { $lt: now } },
      { $set: { status: 'pending', claim: null, leaseUntil: null, nextAttemptAt: now } },
    );
  }

  /** Pending deliveries due at `now`, earliest first, leaving out the given organizations. */
  findDue(now: string, limit: number, excludeOrganizations: readonly string[] = []): Promise<DeliveryDoc[]> {
    const filter: Filter = { status: 'pending', nextAttemptAt: { $lte: now } };
    if (excludeOrganizations.length > 0) filter.organizationId = { $nin: [...excludeOrganizations] };
    return this.#deliveries.find(filter, { sort: { nextAttemptAt: 1, _id: 1 }, limit });
  }

  /** Attempts of an organization in flight (claimed and not yet recorded), across replicas. */
  countInFlight(organizationId: string): Promise<number> {
    return this.#deliveries.count({ organizationId, status: 'sending' });
  }

  /**
   * Claims a due delivery as read (still pending, same `nextAttemptAt`), so of two racing
   * dispatchers exactly one wins. @returns the claimed delivery, or null when another won.
   */
  claim(due: Pick<DeliveryDoc, '_id' | 'nextAttemptAt'>, claim: string, leaseUntil: string, at: string): Promise<DeliveryDoc | null> {
    return this.#deliveries.updateOne(
      { _id: due._id, status: 'pending', nextAttemptAt: due.nextAttemptAt },
      { $set: { status: 'sending', claim, leaseUntil, updatedAt: at } },
    );
  }

  /** Gives a claim back (the message could not be enqueued): due again as it was. */
  async releaseClaim(id: string, claim: string): Promise<void> {
    await this.#deliveries.updateOne({ _id: id, claim }, { $set: { status: 'pending', claim: null, leaseUntil: null } });
  }

  /** The claim holder starts its attempt: extends the lease. @returns null when the claim is no longer valid. */
  startAttempt(id: string, claim: string, leaseUntil: string): Promise<DeliveryDoc | null> {
    return this.#deliveries.updateOne({ _id: id, status: 'sending', claim }, { $set: { leaseUntil } });
  }

  /** Ends a claimed delivery without an attempt (its endpoint was disabled or deleted). */
  async failUnsent(id: string, claim: string, lastError: string, at: string): Promise<void> {
    await this.#deliveries.updateOne(
      { _id: id, claim },
      { $set: { status: 'failed', claim: null, leaseUntil: null, nextAttemptAt: null, lastError, updatedAt: at } },
    );
  }

  /** Appends the attempt and its outcome, releasing the claim. @returns null when the claim is no longer valid. */
  recordAttempt(id: string, claim: string, attempt: AttemptDoc, outcome: AttemptOutcome, at: string): Promise<DeliveryDoc | null> {
    return this.#deliveries.updateOne(
      { _id: id, claim },
      { $push: { attempts: attempt }, $inc: { attemptCount: 1, cycleAttempts: 1 }, $set: { ...outcome, claim: null, leaseUntil: null, updatedAt: at } },
    );
  }

  /** The endpoint was disabled: its waiting deliveries end as failed. @returns how many. */
  failPendingForEndpoint(organizationId: string, endpointId: string, lastError: string, at: string): Promise<number> {
    return this.#deliveries.updateMany(
      { organizationId, endpointId, status: 'pending' },
      { $set: { status: 'failed', nextAttemptAt: null, lastError, updatedAt: at } },
    );
  }

  /** The endpoint was deleted: its log goes with it. @returns how many. */
  removeForEndpoint(organizationId: string, endpointId: string): Promise<number> {
    return this.#deliveries.deleteMany({ endpointId, organizationId });
  }

  /** Removes delivered and failed deliveries last touched before `before`. @returns how many. */
  pruneFinished(before: string): Promise<number> {
    return this.#deliveries.deleteMany({ status: { $in: ['delivered', 'failed'] }, updatedAt: { $lt: before } });
  }
}
