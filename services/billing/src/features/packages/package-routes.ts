import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';
import { toOrderView } from './checkout-service.ts';

export function packageRoutes(app: FastifyInstance, billing: Billing): void {
  routeFromSpec(app, BillingRoutes.creditPackages, async () => ({ data: [...billing.checkout.packages()] }));

  routeFromSpec(app, BillingRoutes.checkout, async (request, reply) => {
    const identity = callerOf(request);
    const order = await billing.checkout.start(identity, request.body, request.id);
    const balance = await billing.ledger.balance(identity.organizationId);
    return reply.code(201).send({ data: { order: toOrderView(order), credits: { available: balance.available, reserved: balance.reserved } } });
  });
}
