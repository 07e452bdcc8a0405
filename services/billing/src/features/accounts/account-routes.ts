import { BillingInternalRoutes, type FullBalance } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';

/** Opens an account (idempotent) and links its referrer, which spans features (src/cross-feature/). */
export type OpenAccount = (organizationId: string, ownerUserId: string, referralCode?: string) => Promise<FullBalance>;

/** Auth opens an organization's account at registration (internal). */
export function accountRoutes(app: FastifyInstance, openAccount: OpenAccount): void {
  routeFromSpec(app, BillingInternalRoutes.openAccount, async (request) => {
    const { organizationId, ownerUserId, referralCode } = request.body;
    const balance = await openAccount(organizationId, ownerUserId, referralCode);
    return { data: { organizationId, ...balance } };
  });
}
