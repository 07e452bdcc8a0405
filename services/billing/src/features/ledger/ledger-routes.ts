import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import { newId } from '@crawl/storage';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';
import { toLedgerView } from './ledger-view.ts';

/** Admin grants and revokes of an organization's credits, and its ledger. */
export function ledgerRoutes(app: FastifyInstance, billing: Billing): void {
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

  routeFromSpec(app, BillingRoutes.adminLedger, async (request) => {
    const { organizationId } = request.params;
    const limit = request.query.limit ?? 20;
    const offset = request.query.offset ?? 0;
    await billing.accounts.require(organizationId);
    const { entries, total } = await billing.ledger.list(organizationId, { limit, offset });
    return { data: entries.map(toLedgerView), meta: { total, limit, offset } };
  });
}
