import {
  type CreateWebhookBody,
  type ListDeliveriesQuery,
  type UpdateWebhookBody,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  WebhookRoutes,
} from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';

export class WebhooksApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** The answer holds the signing secret: the only time it is shown. */
  async create(projectId: string, body: CreateWebhookBody, options?: CallOptions): Promise<WebhookEndpointWithSecret> {
    return (await this.transport.call(WebhookRoutes.createWebhook, { params: { projectId }, body }, options)).data;
  }

  async list(projectId: string, options?: CallOptions): Promise<WebhookEndpoint[]> {
    return (await this.transport.call(WebhookRoutes.listWebhooks, { params: { projectId } }, options)).data;
  }

  async update(id: string, body: UpdateWebhookBody, options?: CallOptions): Promise<WebhookEndpoint> {
    return (await this.transport.call(WebhookRoutes.updateWebhook, { params: { id }, body }, options)).data;
  }

  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.call(WebhookRoutes.deleteWebhook, { params: { id } }, options);
  }

  async rotateSecret(id: string, options?: CallOptions): Promise<WebhookEndpointWithSecret> {
    return (await this.transport.call(WebhookRoutes.rotateWebhookSecret, { params: { id } }, options)).data;
  }

  /** Sends a `webhook.test` event now (5 per minute per endpoint). */
  async test(id: string, options?: CallOptions): Promise<WebhookDelivery> {
    return (await this.transport.call(WebhookRoutes.testWebhook, { params: { id } }, options)).data;
  }

  async deliveries(id: string, query: ListDeliveriesQuery = {}, options?: CallOptions): Promise<Required<ListPage<WebhookDelivery>>> {
    return this.transport.call(WebhookRoutes.listWebhookDeliveries, { params: { id }, query }, options);
  }

  iterateDeliveries(id: string, query: Omit<ListDeliveriesQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<WebhookDelivery, void, undefined> {
    return eachItem((offset) => this.deliveries(id, { ...query, offset } as ListDeliveriesQuery, options));
  }

  async replay(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> {
    return (await this.transport.call(WebhookRoutes.replayWebhookDelivery, { params: { id, deliveryId } }, options)).data;
  }
}
