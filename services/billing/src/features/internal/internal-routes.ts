import { BillingInternalRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

/** The internal billing API (contracts: internal-billing.ts), for auth and catalog only. */
export function internalRoutes(app: FastifyInstance, billing: Billing): void {
  const R = BillingInternalRoutes;

  routeFromSpec(app, R.openAccount, async (request) => {
    const { organizationId, ownerUserId, referralCode } = request.body;
    const balance = await billing.openAccount(organizationId, ownerUserId, referralCode);
    return { data: { organizationId, ...balance } };
  });

  routeFromSpec(app, R.reserve, async (request) => ({ data: await billing.reservations.reserve(request.body) }));

  routeFromSpec(app, R.release, async (request) => ({
    data: await billing.reservations.release(request.params.jobId, request.body.organizationId, request.body.reason),
  }));

  routeFromSpec(app, R.settle, async (request) => ({ data: await billing.reservations.settle(request.body) }));

  routeFromSpec(app, R.consumeExport, async (request) => ({ data: await billing.consumeExport(request.body.organizationId) }));
}
