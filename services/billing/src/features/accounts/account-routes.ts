import { BillingInternalRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

/** Auth opens an organization's account at registration (internal). */
export function accountRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingInternalRoutes.openAccount, async (request) => {
    const { organizationId, ownerUserId, referralCode } = request.body;
    const balance = await billing.openAccount(organizationId, ownerUserId, referralCode);
    return { data: { organizationId, ...balance } };
  });
}
