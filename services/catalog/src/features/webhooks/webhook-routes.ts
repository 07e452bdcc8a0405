import { CATALOG_LIMITS, WebhookRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import { toDeliveryView, toEndpointView } from './webhook-model.ts';
import type { WebhookService } from './webhook-service.ts';

/** The public webhook routes (table: packages/contracts/src/webhook-routes.ts). */
export function webhookRoutes(app: FastifyInstance, webhooks: WebhookService): void {
  const { endpoints, deliveries } = webhooks;
  const now = () => webhooks.now();
  const R = WebhookRoutes;

  routeFromSpec(app, R.createWebhook, async (request, reply) => {
    const { endpoint, secret } = await endpoints.create(callerOf(request), request.params.projectId, request.body, request.id);
    return reply.code(201).send({ data: { ...toEndpointView(endpoint, now()), secret } });
  });
  routeFromSpec(app, R.listWebhooks, async (request) => {
    const at = now();
    const limit = Math.min(request.query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit);
    const offset = request.query.offset ?? 0;
    // At most 20 per project (WEBHOOK_LIMITS): read whole, paged here.
    const all = await endpoints.list(callerOf(request).organizationId, request.params.projectId);
    return { data: all.slice(offset, offset + limit).map((e) => toEndpointView(e, at)), meta: { total: all.length, limit, offset } };
  });
  routeFromSpec(app, R.updateWebhook, async (request) => {
    return { data: toEndpointView(await endpoints.update(callerOf(request), request.params.id, request.body, request.id), now()) };
  });
  routeFromSpec(app, R.deleteWebhook, async (request, reply) => {
    await endpoints.remove(callerOf(request), request.params.id, request.id);
    return reply.code(204).send(null);
  });
  routeFromSpec(app, R.rotateWebhookSecret, async (request) => {
    const { endpoint, secret } = await endpoints.rotateSecret(callerOf(request), request.params.id, request.id);
    return { data: { ...toEndpointView(endpoint, now()), secret } };
  });
  routeFromSpec(app, R.testWebhook, async (request, reply) => {
    const delivery = await deliveries.sendTest(callerOf(request), request.params.id);
    return reply.code(202).send({ data: toDeliveryView(delivery) });
  });
  routeFromSpec(app, R.listWebhookDeliveries, async (request) => {
    const { items, meta } = await deliveries.list(callerOf(request).organizationId, request.params.id, request.query);
    return { data: items.map(toDeliveryView), meta };
  });
  routeFromSpec(app, R.replayWebhookDelivery, async (request, reply) => {
    const delivery = await deliveries.replay(callerOf(request), request.params.id, request.params.deliveryId, request.id);
    return reply.code(202).send({ data: toDeliveryView(delivery) });
  });
}
