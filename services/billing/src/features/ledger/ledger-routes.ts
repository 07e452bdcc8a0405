import { BillingRoutes, type FullBalance } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import { newId } from '@crawl/storage';
import type { FastifyInstance } from 'fastify';
import type { LedgerEntryDoc } from './ledger-repository.ts';
import { toLedgerView } from './ledger-view.ts';

/** An admin grant or revoke of an organization's credits. */
export interface CreditAdjustment {
  organizationId: string;
  type: 'grant' | 'revoke';
  amount: number;
  reason: string;
  actorUserId: string;
  /** Makes the ledger entry's key: one per admin request. */
  operationId: string;
  requestId?: string;
}

/**
 * What the admin credit routes act on. Both answer 404 for an organization billing has never
 * seen, and an adjustment is audited: they span the ledger, the accounts and the audit log
 * (src/cross-feature/).
 */
export interface CreditAdministration {
  /** A revoke beyond the available credits is a 409. */
  adjustCredits(adjustment: CreditAdjustment): Promise<{ entry: LedgerEntryDoc; balance: FullBalance }>;
  ledgerPage(organizationId: string, page: { limit: number; offset: number }): Promise<{ entries: LedgerEntryDoc[]; total: number }>;
}

/** Admin grants and revokes of an organization's credits, and its ledger. */
export function ledgerRoutes(app: FastifyInstance, credits: CreditAdministration): void {
  routeFromSpec(app, BillingRoutes.adminCredits, async (request, reply) => {
    const { organizationId } = request.params;
    const { body } = request;
    const { entry, balance } = await credits.adjustCredits({
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
    const { entries, total } = await credits.ledgerPage(organizationId, { limit, offset });
    return { data: entries.map(toLedgerView), meta: { total, limit, offset } };
  });
}
