import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

export function referralRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.referralCode, async (request) => {
    const identity = callerOf(request);
    const code = await billing.referrals.codeFor(identity.userId, identity.organizationId);
    return { data: { code: code._id, link: `/auth/register?referralCode=${encodeURIComponent(code._id)}` } };
  });

  routeFromSpec(app, BillingRoutes.referralClick, async (request) => {
    await billing.referrals.click(request.body.code);
    return { data: { recorded: true } };
  });

  routeFromSpec(app, BillingRoutes.referralStats, async (request) => {
    const identity = callerOf(request);
    return { data: await billing.referrals.stats(identity.userId, identity.organizationId) };
  });
}
