import { BillingInternalRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { Reservations } from './reservation-service.ts';

/** Catalog's reserve, release and settle of a job's credits (internal). */
export function reservationRoutes(app: FastifyInstance, reservations: Reservations): void {
  routeFromSpec(app, BillingInternalRoutes.reserve, async (request) => ({ data: await reservations.reserve(request.body) }));

  routeFromSpec(app, BillingInternalRoutes.release, async (request) => ({
    data: await reservations.release(request.params.jobId, request.body.organizationId, request.body.reason),
  }));

  routeFromSpec(app, BillingInternalRoutes.settle, async (request) => ({ data: await reservations.settle(request.body) }));
}
