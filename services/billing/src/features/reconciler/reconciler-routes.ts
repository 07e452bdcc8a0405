import { BillingRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { Reconciler } from './reconciler-service.ts';

/** An admin-triggered reconciler pass (the same pass the interval timer runs). */
export function reconcilerRoutes(app: FastifyInstance, reconciler: Reconciler): void {
  routeFromSpec(app, BillingRoutes.adminReconcile, async () => ({ data: await reconciler.reconcile() }));
}
