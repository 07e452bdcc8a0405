import { WebhookRoutes, type CreateWebhookBody, type DeliveryParams, type Identity, type ListDeliveriesQuery, type UpdateWebhookBody } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { routeFromSpec } from '@crawl/modules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toDeliveryView, toEndpointView } from './webhook-model.ts';
import type { WebhookService } from './webhook-service.ts';

function caller(request: FastifyRequest): Identity {
  if (!request.identity) throw errors.unauthorized();
  return request.identity;
}

/** The public webhook routes (table: packages/contracts/src/webhook-routes.ts). */
export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhookService): void {
  const { endpoints, deliveries } = webhooks;
  const now = () => webhooks.now();
  const R = WebhookRoutes;

  routeFromSpec(app, R.createWebhook, async (request: FastifyRequest<{ Params: { projectId: string }; Body: CreateWebhookBody }>, reply) => {
    const { endpoint, secret } = await endpoints.create(caller(request), request.params.projectId, request.body, request.id);
    return reply.code(201).send({ data: { ...toEndpointView(endpoint, now()), secret } });
  });
  routeFromSpec(app, R.listWebhooks, async (request: FastifyRequest<{ Params: { projectId: string } }>) => {
    const at = now();
    return { data: (await endpoints.list(caller(request).organizationId, request.params.projectId)).map((e) => toEndpointView(e, at)) };
  });
  routeFromSpec(app, R.updateWebhook, async (request: FastifyRequest<{ Params: { id: string }; Body: UpdateWebhookBody }>) => {
    return { data: toEndpointView(await endpoints.update(caller(request), request.params.id, request.body, request.id), now()) };
  });
  routeFromSpec(app, R.deleteWebhook, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    await endpoints.remove(caller(request), request.params.id, request.id);
    return reply.code(204).send();
  });
  routeFromSpec(app, R.rotateWebhookSecret, async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const { endpoint, secret } = await endpoints.rotateSecret(caller(request), request.params.id, request.id);
    return { data: { ...toEndpointView(endpoint, now()), secret } };
  });
  routeFromSpec(app, R.testWebhook, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const delivery = await deliveries.sendTest(caller(request), request.params.id);
    return reply.code(202).send({ data: toDeliveryView(delivery) });
  });
  routeFromSpec(app, R.listWebhookDeliveries, async (request: FastifyRequest<{ Params: { id: string }; Querystring: ListDeliveriesQuery }>) => {
    const { items, meta } = await deliveries.list(caller(request).organizationId, request.params.id, request.query);
    return { data: items.map(toDeliveryView), meta };
  });
  routeFromSpec(app, R.replayWebhookDelivery, async (request: FastifyRequest<{ Params: DeliveryParams }>, reply) => {
    const delivery = await deliveries.replay(caller(request), request.params.id, request.params.deliveryId, request.id);
    return reply.code(202).send({ data: toDeliveryView(delivery) });
  });
}
