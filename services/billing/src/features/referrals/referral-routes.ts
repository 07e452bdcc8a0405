import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';
import { referralLinks } from './referral-links.ts';
import { normalizeCode } from './referral-service.ts';

export function referralRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.referralCode, async (request) => {
    const identity = callerOf(request);
    const code = await billing.referrals.codeFor(identity.userId, identity.organizationId);
    return { data: { code: code._id, link: referralLinks(code._id, request, billing.referrals.publicBaseUrl).link } };
  });

  // The shared link itself: following it is a click.
  routeFromSpec(app, BillingRoutes.referralLink, async (request) => {
    const code = normalizeCode(request.query.code);
    await billing.referrals.click(code);
    const links = referralLinks(code, request, billing.referrals.publicBaseUrl);
    return { data: { code, recorded: true, register: { method: 'POST' as const, url: links.register, referralCode: code } } };
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
