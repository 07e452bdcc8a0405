/** Webhooks: a project's endpoints, the delivery log, and the dispatcher that sends outbox events to them. */
export { openDeliveryQueue } from './delivery-queue.ts';
export { DeliveryRepository } from './delivery-repository.ts';
export { EndpointRepository } from './endpoint-repository.ts';
export { webhookRoutes } from './webhook-routes.ts';
export { eventIdFor, WebhookService, type DispatchResult, type WebhookOptions, type WebhookSettings } from './webhook-service.ts';
/** What other features that send to customer-named addresses share with webhooks: the address guard, secrets sealed at rest, the retry schedule. */
export { checkWebhookUrl, systemResolver, WebhookUrlError, type Resolver, type UrlRules } from './address-guard.ts';
export { SecretBox } from './signer.ts';
export { nextRetryDelay } from './retry-policy.ts';
