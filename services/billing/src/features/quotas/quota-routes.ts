import { BillingInternalRoutes, BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

/** Monthly usage against the plan limits: the caller's, any organization's (admin), and the export count catalog asks for. */
export function quotaRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.usage, async (request) => {
    const identity = callerOf(request);
    await billing.accounts.ensure(identity.organizationId, identity.userId);
    return { data: billing.toUsage(await billing.usageReport(identity.organizationId)) };
  });

  routeFromSpec(app, BillingRoutes.dailyCredits, async (request) => {
    const identity = callerOf(request);
    await billing.accounts.ensure(identity.organizationId, identity.userId);
    return { data: await billing.dailyCredits(identity.organizationId, request.query.month) };
  });

  routeFromSpec(app, BillingRoutes.adminLimits, async (request) => {
    const { organizationId } = request.params;
    const account = await billing.accounts.setLimits(organizationId, request.body);
    return { data: { organizationId, limits: billing.accounts.limitsOf(account) } };
  });

  routeFromSpec(app, BillingRoutes.adminUsage, async (request) => {
    const { organizationId } = request.params;
    await billing.accounts.require(organizationId);
    const report = await billing.usageReport(organizationId);
    return { data: { organizationId, month: report.month, limits: report.limits, used: report.used, remaining: report.remaining, balance: report.balance } };
  });

  routeFromSpec(app, BillingInternalRoutes.consumeExport, async (request) => ({ data: await billing.consumeExport(request.body.organizationId) }));
}
