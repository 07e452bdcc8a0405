import { WEBHOOK_LIMITS, WEBHOOK_TEST_EVENT, type ListDeliveriesQuery } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { DeliveryRepository } from './delivery-repository.ts';
import type { EndpointService } from './endpoint-service.ts';
import { newDelivery, type DeliveryDoc } from './webhook-model.ts';
import type { WebhookDispatcher } from './webhook-dispatcher.ts';

export interface DeliveryLogOptions {
  endpoints: EndpointService;
  deliveries: DeliveryRepository;
  audit: AuditLog;
  clock: Clock;
  /** How long finished deliveries are kept. */
  retentionMs: number;
  /** Runs a dispatch pass soon when a delivery became due now (test event, replay). */
  dispatcher: Pick<WebhookDispatcher, 'kick'>;
}

/** An endpoint's delivery log as its organization sees it: list, test event, replay; and retention. */
export class DeliveryLog {
  readonly #deliveries: DeliveryRepository;
  readonly #options: DeliveryLogOptions;

  constructor(options: DeliveryLogOptions) {
    this.#deliveries = options.deliveries;
    this.#options = options;
  }

  #now(): string {
    return this.#options.clock.now().toISOString();
  }

  /** Queues a `webhook.test` event for one enabled endpoint. */
  async sendTest(actor: Actor, endpointId: string): Promise<DeliveryDoc> {
    const endpoint = await this.#options.endpoints.getOwned(actor.organizationId, endpointId);
    if (!endpoint.enabled) throw errors.conflict('The webhook is disabled: enable it before sending a test event');
    const now = this.#now();
    const eventId = newId('evt_test_');
    const body = JSON.stringify({
      id: eventId,
      type: WEBHOOK_TEST_EVENT,
      timestamp: now,
      data: { endpointId: endpoint._id, projectId: endpoint.projectId, message: 'This is a test event from the crawl data service.' },
    });
    const delivery = newDelivery(endpoint, eventId, WEBHOOK_TEST_EVENT, body, now);
    await this.#deliveries.insert(delivery);
    this.#options.dispatcher.kick();
    return delivery;
  }

  async list(organizationId: string, endpointId: string, query: ListDeliveriesQuery) {
    await this.#options.endpoints.getOwned(organizationId, endpointId);
    const limit = Math.min(query.limit ?? WEBHOOK_LIMITS.listDefaultLimit, WEBHOOK_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const { items, total } = await this.#deliveries.listForEndpoint(organizationId, endpointId, { status: query.status, offset, limit });
    return { items, meta: { total, limit, offset } };
  }

  /** Sends a delivery again now, with the same event id, a fresh timestamp and a fresh retry schedule. */
  async replay(actor: Actor, endpointId: string, deliveryId: string, requestId?: string): Promise<DeliveryDoc> {
    const endpoint = await this.#options.endpoints.getOwned(actor.organizationId, endpointId);
    const delivery = await this.#deliveries.findOwned(actor.organizationId, endpointId, deliveryId);
    if (!delivery) throw errors.notFound('Delivery');
    if (!endpoint.enabled) throw errors.conflict('The webhook is disabled: enable it before replaying deliveries');
    const replayed = await this.#deliveries.rearmForReplay(actor.organizationId, deliveryId, this.#now());
    if (!replayed) throw errors.conflict('The delivery is being sent right now; try again in a moment');
    await this.#options.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'webhook.replay',
      resourceType: 'webhook',
      resourceId: endpointId,
      requestId,
      metadata: { deliveryId, eventId: delivery.eventId },
    });
    this.#options.dispatcher.kick();
    return replayed;
  }

  /** Removes finished deliveries older than the retention period. @returns how many. */
  prune(): Promise<number> {
    const before = new Date(this.#options.clock.now().getTime() - this.#options.retentionMs).toISOString();
    return this.#deliveries.pruneFinished(before);
  }
}
