import { DESTINATION_LIMITS, DestinationRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import { toDestinationDeliveryView, toDestinationView } from './destination-model.ts';
import type { Destinations } from './destinations.ts';

/** The public destination routes (table: packages/contracts/src/destination-routes.ts). */
export function destinationRoutes(app: FastifyInstance, destinations: Destinations): void {
  const { service, deliveries } = destinations;
  const R = DestinationRoutes;

  routeFromSpec(app, R.createDestination, async (request, reply) => {
    const destination = await service.create(callerOf(request), request.params.projectId, request.body, request.id);
    return reply.code(201).send({ data: toDestinationView(destination) });
  });
  routeFromSpec(app, R.listDestinations, async (request) => {
    const limit = Math.min(request.query.limit ?? DESTINATION_LIMITS.listDefaultLimit, DESTINATION_LIMITS.listMaxLimit);
    const offset = request.query.offset ?? 0;
    const { items, total } = await service.list(callerOf(request).organizationId, request.params.projectId, { offset, limit });
    return { data: items.map(toDestinationView), meta: { total, limit, offset } };
  });
  routeFromSpec(app, R.getDestination, async (request) => {
    return { data: toDestinationView(await service.getOwned(callerOf(request).organizationId, request.params.id)) };
  });
  routeFromSpec(app, R.deleteDestination, async (request, reply) => {
    await service.remove(callerOf(request), request.params.id, request.id);
    return reply.code(204).send(null);
  });
  routeFromSpec(app, R.testDestination, async (request) => {
    return { data: await service.test(callerOf(request).organizationId, request.params.id) };
  });
  routeFromSpec(app, R.listJobDeliveries, async (request) => {
    const items = await deliveries.list(callerOf(request).organizationId, request.params.id);
    return { data: items.map(toDestinationDeliveryView), meta: { total: items.length, limit: items.length, offset: 0 } };
  });
  routeFromSpec(app, R.replayJobDelivery, async (request, reply) => {
    const delivery = await deliveries.replay(callerOf(request), request.params.id, request.params.deliveryId);
    return reply.code(202).send({ data: toDestinationDeliveryView(delivery) });
  });
}
