import { BillingInternalRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

/** Catalog's reserve, release and settle of a job's credits (internal). */
export function reservationRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingInternalRoutes.reserve, async (request) => ({ data: await billing.reservations.reserve(request.body) }));

  routeFromSpec(app, BillingInternalRoutes.release, async (request) => ({
    data: await billing.reservations.release(request.params.jobId, request.body.organizationId, request.body.reason),
  }));

  routeFromSpec(app, BillingInternalRoutes.settle, async (request) => ({ data: await billing.reservations.settle(request.body) }));
}
