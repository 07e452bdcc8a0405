/** Webhooks: a project's endpoints, the delivery log, and the dispatcher that sends outbox events to them. */
export { openDeliveryQueue } from './delivery-queue.ts';
export { DeliveryRepository } from './delivery-repository.ts';
export { EndpointRepository } from './endpoint-repository.ts';
export { webhookRoutes } from './webhook-routes.ts';
export { eventIdFor, WebhookService, type DispatchResult, type WebhookOptions, type WebhookSettings } from './webhook-service.ts';
