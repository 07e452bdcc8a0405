import { BillingInternalRoutes, BillingRoutes, type DailyCredits, type ExportAllowance } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../accounts/index.ts';
import { toUsage, type UsageReport } from './usage-view.ts';

/**
 * What the quota routes act on: the accounts (plan limits), and three reads and writes that need
 * the plan beside the counters, and the report the ledger too (src/cross-feature/).
 */
export interface QuotaServices {
  accounts: Accounts;
  usageReport(organizationId: string): Promise<UsageReport>;
  /** `month` is `YYYY-MM`; the current month when absent. */
  dailyCredits(organizationId: string, month?: string): Promise<DailyCredits>;
  consumeExport(organizationId: string): Promise<ExportAllowance>;
}

/** Monthly usage against the plan limits: the caller's, any organization's (admin), and the export count catalog asks for. */
export function quotaRoutes(app: FastifyInstance, quotas: QuotaServices): void {
  const { accounts } = quotas;

  routeFromSpec(app, BillingRoutes.usage, async (request) => {
    const identity = callerOf(request);
    await accounts.ensure(identity.organizationId, identity.userId);
    return { data: toUsage(await quotas.usageReport(identity.organizationId)) };
  });

  routeFromSpec(app, BillingRoutes.dailyCredits, async (request) => {
    const identity = callerOf(request);
    await accounts.ensure(identity.organizationId, identity.userId);
    return { data: await quotas.dailyCredits(identity.organizationId, request.query.month) };
  });

  routeFromSpec(app, BillingRoutes.adminLimits, async (request) => {
    const { organizationId } = request.params;
    const account = await accounts.setLimits(organizationId, request.body);
    return { data: { organizationId, limits: accounts.limitsOf(account) } };
  });

  routeFromSpec(app, BillingRoutes.adminUsage, async (request) => {
    const { organizationId } = request.params;
    await accounts.require(organizationId);
    const report = await quotas.usageReport(organizationId);
    return { data: { organizationId, month: report.month, limits: report.limits, used: report.used, remaining: report.remaining, balance: report.balance } };
  });

  // Catalog's job estimate: the month as /usage shows it, for an organization named by the caller.
  routeFromSpec(app, BillingInternalRoutes.usage, async (request) => ({ data: toUsage(await quotas.usageReport(request.params.organizationId)) }));

  routeFromSpec(app, BillingInternalRoutes.consumeExport, async (request) => ({ data: await quotas.consumeExport(request.body.organizationId) }));
}
