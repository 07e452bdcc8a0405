import { BillingRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

/** An admin-triggered reconciler pass (the same pass the interval timer runs). */
export function reconcilerRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.adminReconcile, async () => ({ data: await billing.reconciler.reconcile() }));
}
