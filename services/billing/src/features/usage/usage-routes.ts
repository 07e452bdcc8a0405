import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

export function usageRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.usage, async (request) => {
    const identity = callerOf(request);
    await billing.accounts.ensure(identity.organizationId, identity.userId);
    return { data: billing.toUsage(await billing.usageReport(identity.organizationId)) };
  });
}
