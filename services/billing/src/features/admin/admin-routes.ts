import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import { newId } from '@crawl/storage';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';
import { toLedgerView } from '../ledger/credit-ledger.ts';

/** Billing's share of /admin/*: credits, plan limits, usage and ledger of any organization, reconciler. */
export function adminRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.adminCredits, async (request, reply) => {
    const { organizationId } = request.params;
    const { body } = request;
    const { entry, balance } = await billing.adjustCredits({
      organizationId,
      type: body.type,
      amount: body.amount,
      reason: body.reason,
      actorUserId: callerOf(request).userId,
      operationId: newId('adm_'),
      requestId: request.id,
    });
    return reply.code(201).send({ data: { entry: toLedgerView(entry), balance } });
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

  routeFromSpec(app, BillingRoutes.adminLedger, async (request) => {
    const { organizationId } = request.params;
    const limit = request.query.limit ?? 20;
    const offset = request.query.offset ?? 0;
    await billing.accounts.require(organizationId);
    const { entries, total } = await billing.ledger.list(organizationId, { limit, offset });
    return { data: entries.map(toLedgerView), meta: { total, limit, offset } };
  });

  routeFromSpec(app, BillingRoutes.adminReconcile, async () => ({ data: await billing.reconciler.reconcile() }));
}
