import type { CheckoutBody, CreditOrder, CreditPackage, Identity } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { Accounts } from '../accounts/index.ts';
import type { CreditLedger } from '../ledger/index.ts';
import type { BillingResources, RecordAudit } from '../shared/index.ts';
import type { OrderDoc, OrderRepository } from './order-repository.ts';
import type { PaymentProvider } from './payment-provider.ts';

export type { OrderDoc } from './order-repository.ts';

export function toOrderView(order: OrderDoc): CreditOrder {
  return {
    id: order._id,
    packageId: order.packageId,
    status: order.status,
    priceCents: order.priceCents,
    currency: order.currency,
    credits: order.credits,
    provider: order.provider,
    ...(order.redirectUrl ? { redirectUrl: order.redirectUrl } : {}),
    createdAt: order.createdAt,
    ...(order.completedAt ? { completedAt: order.completedAt } : {}),
  };
}

export interface CheckoutOptions {
  orders: OrderRepository;
  ledger: CreditLedger;
  accounts: Accounts;
  packages: readonly CreditPackage[];
  /** Undefined when no provider is configured: nothing can be bought. */
  provider: PaymentProvider | undefined;
  /** Best effort (bestEffortAudit): a failure is logged and never fails the purchase. */
  audit: RecordAudit;
  /** After every fulfilment of a paid order (price above zero), repeated ones included: must be idempotent and never throw. */
  onPaid?: (order: OrderDoc) => Promise<void>;
}

/** Turns a package into credits: order → provider → ledger `purchase` entry (keyed by the order) → audit. */
export class Checkout {
  readonly #orders: OrderRepository;
  readonly #clock: Clock;
  readonly #options: CheckoutOptions;

  constructor(resources: BillingResources, options: CheckoutOptions) {
    this.#orders = options.orders;
    this.#clock = resources.clock;
    this.#options = options;
  }

  packages(): readonly CreditPackage[] {
    return this.#options.packages;
  }

  async start(identity: Identity, body: CheckoutBody, requestId?: string): Promise<OrderDoc> {
    const provider = this.#provider();
    const pkg = this.#options.packages.find((p) => p.id === body.packageId);
    if (!pkg) throw errors.notFound('Credit package');
    await this.#options.accounts.ensure(identity.organizationId, identity.userId);
    const orderId = newId('ord_');
    const clientKey = body.idempotencyKey ? `${identity.organizationId}:${body.idempotencyKey}` : undefined;
    const idempotencyKey = clientKey ?? `order:${orderId}`;
    if (clientKey) {
      const earlier = await this.#orders.findOrderByIdempotencyKey(idempotencyKey);
      if (earlier) return earlier.status === 'pending' ? this.#retryPending(earlier, requestId) : earlier;
    }
    const order: OrderDoc = {
      _id: orderId,
      organizationId: identity.organizationId,
      userId: identity.userId,
      packageId: pkg.id,
      priceCents: pkg.priceCents,
      currency: pkg.currency,
      packageCredits: pkg.credits,
      bonusCredits: pkg.bonusCredits,
      credits: pkg.credits + pkg.bonusCredits,
      status: 'pending',
      provider: provider.name,
      idempotencyKey,
      createdAt: this.#clock.now().toISOString(),
    };
    if (!(await this.#orders.insertOrder(order))) {
      // Only a client key can be taken: a concurrent checkout with the same key won.
      const earlier = await this.#orders.findOrderByIdempotencyKey(idempotencyKey);
      if (earlier) return earlier;
      throw errors.conflict('The checkout is contended, try again');
    }
    return this.#retryPending(order, requestId);
  }

  /**
   * A deployment without a payment provider sells nothing: 503 rather than 4xx because the
   * request is fine and the server is not set up for it; no Retry-After, retrying will not help.
   */
  #provider(): PaymentProvider {
    if (!this.#options.provider) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Credit purchases are not available on this deployment: no payment provider is configured', 503, [
        { reason: 'PAYMENTS_NOT_CONFIGURED' },
      ]);
    }
    return this.#options.provider;
  }

  async #retryPending(order: OrderDoc, requestId?: string): Promise<OrderDoc> {
    const started = await this.#provider().startPayment({
      orderId: order._id,
      organizationId: order.organizationId,
      amountCents: order.priceCents,
      currency: order.currency,
      description: `${order.credits} credits (${order.packageId})`,
    });
    const updated =
      (await this.#orders.recordProviderAnswer(order._id, {
        reference: started.reference,
        ...(started.redirectUrl ? { redirectUrl: started.redirectUrl } : {}),
      })) ?? order;
    if (started.status === 'failed') return (await this.#orders.markFailed(order._id)) ?? updated;
    if (started.status === 'completed') return this.fulfil(order._id, requestId);
    return updated;
  }

  /** Grants a paid order's credits exactly once (ledger key `purchase:<orderId>`), then audits it. */
  async fulfil(orderId: string, requestId?: string): Promise<OrderDoc> {
    const order = await this.#orders.findOrder(orderId);
    if (!order) throw errors.notFound('Order');
    if (order.status === 'failed') throw errors.conflict('The order failed and cannot be fulfilled');
    const { entry } = await this.#options.ledger.record({
      organizationId: order.organizationId,
      key: `purchase:${order._id}`,
      kind: 'purchase',
      amount: order.credits,
      reason: `Purchase of package ${order.packageId}`,
      orderId: order._id,
      actorUserId: order.userId,
    });
    const completed = await this.#orders.markCompleted(order._id, entry.createdAt);
    // Also when another call completed it first: that call may have died before this step.
    if (order.priceCents > 0) await this.#options.onPaid?.(order);
    if (!completed) return (await this.#orders.findOrder(orderId)) ?? order;
    await this.#options.audit({
      organizationId: order.organizationId,
      actorUserId: order.userId,
      action: 'credits.purchase',
      resourceType: 'credit_order',
      resourceId: order._id,
      ...(requestId ? { requestId } : {}),
      metadata: {
        packageId: order.packageId,
        priceCents: order.priceCents,
        currency: order.currency,
        credits: order.credits,
        ledgerEntryId: entry._id,
        provider: order.provider,
      },
    });
    return completed;
  }
}
