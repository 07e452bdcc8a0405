import type { WebhookDisabledReason, WebhookEventType } from '@crawl/contracts';
import type { Collection, DocumentStore } from '@crawl/storage';
import { ENDPOINTS_COLLECTION, type EndpointDoc, type SealedSecret } from './webhook-model.ts';

/** What a user's update may change (enabling also resets the failure streak). */
export type EndpointChanges = Partial<
  Pick<EndpointDoc, 'url' | 'events' | 'description' | 'enabled' | 'disabledReason' | 'failingSince' | 'consecutiveFailures'>
> & {
  updatedAt: string;
};

/**
 * Webhook endpoints. User-facing operations take the organization and find nothing of another
 * one; the delivery engine's operations (`recordSuccess`, `recordFailure`, `disable`) work by id.
 */
export class EndpointRepository {
  readonly #endpoints: Collection<EndpointDoc>;

  constructor(store: DocumentStore) {
    this.#endpoints = store.collection<EndpointDoc>(ENDPOINTS_COLLECTION);
  }

  /** The project list and count, and the fan-out scan: organization and project by equality, then newest first. */
  async init(): Promise<void> {
    await this.#endpoints.ensureIndexes([{ keys: { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, name: 'org_project_created_id' }]);
  }

  insert(doc: EndpointDoc): Promise<EndpointDoc> {
    return this.#endpoints.insertOne(doc);
  }

  findOwned(organizationId: string, id: string): Promise<EndpointDoc | null> {
    return this.#endpoints.findOne({ _id: id, organizationId });
  }

  countForProject(organizationId: string, projectId: string): Promise<number> {
    return this.#endpoints.count({ organizationId, projectId });
  }

  /** A project's endpoints, newest first. */
  listForProject(organizationId: string, projectId: string): Promise<EndpointDoc[]> {
    return this.#endpoints.find({ organizationId, projectId }, { sort: { createdAt: -1, _id: -1 } });
  }

  /** The project's enabled endpoints subscribed to `eventType` (at most 20 per project, filtered here). */
  async subscribers(organizationId: string, projectId: string, eventType: WebhookEventType): Promise<EndpointDoc[]> {
    const enabled = await this.#endpoints.find({ organizationId, projectId, enabled: true });
    return enabled.filter((endpoint) => endpoint.events.includes(eventType));
  }

  /** @returns the endpoint after the change, or null when the organization has no such endpoint. */
  update(organizationId: string, id: string, changes: EndpointChanges): Promise<EndpointDoc | null> {
    return this.#endpoints.updateOne({ _id: id, organizationId }, { $set: { ...changes } });
  }

  /** @returns false when the organization has no such endpoint. */
  remove(organizationId: string, id: string): Promise<boolean> {
    return this.#endpoints.deleteOne({ _id: id, organizationId });
  }

  /**
   * Replaces the signing secrets only while the current one is still `currentSealed` (the value
   * read), so two concurrent rotations never lose a secret. @returns null when it changed meanwhile.
   */
  replaceSecrets(organizationId: string, id: string, currentSealed: string | undefined, secrets: SealedSecret[], at: string): Promise<EndpointDoc | null> {
    return this.#endpoints.updateOne({ _id: id, organizationId, 'secrets.0.sealed': currentSealed }, { $set: { secrets, updatedAt: at } });
  }

  /** A 2xx answer ends the failure streak. */
  async recordSuccess(id: string, at: string): Promise<void> {
    await this.#endpoints.updateOne({ _id: id }, { $set: { failingSince: null, consecutiveFailures: 0, lastSuccessAt: at } });
  }

  /**
   * A failed attempt: starts the failing period if none is running, counts the attempt.
   * @returns the endpoint after the change, or null when it was deleted.
   */
  async recordFailure(id: string, at: string): Promise<EndpointDoc | null> {
    await this.#endpoints.updateOne({ _id: id, failingSince: null }, { $set: { failingSince: at } });
    return this.#endpoints.updateOne({ _id: id }, { $set: { lastFailureAt: at }, $inc: { consecutiveFailures: 1 } });
  }

  /** Disables an enabled endpoint. @returns the endpoint, or null when it was not enabled (someone else disabled it). */
  disable(id: string, reason: WebhookDisabledReason): Promise<EndpointDoc | null> {
    return this.#endpoints.updateOne({ _id: id, enabled: true }, { $set: { enabled: false, disabledReason: reason, updatedAt: reason.at } });
  }
}
