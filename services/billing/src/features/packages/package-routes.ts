import { BillingRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { CreditLedger } from '../ledger/index.ts';
import { toOrderView, type Checkout } from './checkout-service.ts';

/** Checkout, and the ledger for the balance a purchase answers with. */
export interface PackageServices {
  checkout: Checkout;
  ledger: Pick<CreditLedger, 'balance'>;
}

export function packageRoutes(app: FastifyInstance, { checkout, ledger }: PackageServices): void {
  routeFromSpec(app, BillingRoutes.creditPackages, async () => ({ data: [...checkout.packages()] }));

  routeFromSpec(app, BillingRoutes.checkout, async (request, reply) => {
    const identity = callerOf(request);
    const order = await checkout.start(identity, request.body, request.id);
    const balance = await ledger.balance(identity.organizationId);
    return reply.code(201).send({ data: { order: toOrderView(order), credits: { available: balance.available, reserved: balance.reserved } } });
  });
}
