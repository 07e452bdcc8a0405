import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import { referralLinks } from './referral-links.ts';
import { normalizeCode, type Referrals } from './referral-service.ts';

export function referralRoutes(app: FastifyInstance, referrals: Referrals): void {
  routeFromSpec(app, BillingRoutes.referralCode, async (request) => {
    const identity = callerOf(request);
    const code = await referrals.codeFor(identity.userId, identity.organizationId);
    return { data: { code: code._id, link: referralLinks(code._id, request, referrals.publicBaseUrl).link } };
  });

  // The shared link itself: following it is a click.
  routeFromSpec(app, BillingRoutes.referralLink, async (request) => {
    const code = normalizeCode(request.query.code);
    await referrals.click(code);
    const links = referralLinks(code, request, referrals.publicBaseUrl);
    return { data: { code, recorded: true, register: { method: 'POST' as const, url: links.register, referralCode: code } } };
  });

  routeFromSpec(app, BillingRoutes.referralClick, async (request) => {
    await referrals.click(request.body.code);
    return { data: { recorded: true } };
  });

  routeFromSpec(app, BillingRoutes.referralStats, async (request) => {
    const identity = callerOf(request);
    return { data: await referrals.stats(identity.userId, identity.organizationId) };
  });
}
