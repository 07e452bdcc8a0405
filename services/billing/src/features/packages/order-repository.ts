import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';

export interface OrderDoc {
  _id: string;
  organizationId: string;
  userId: string;
  packageId: string;
  priceCents: number;
  currency: string;
  packageCredits: number;
  bonusCredits: number;
  /** packageCredits + bonusCredits: what completion grants. */
  credits: number;
  status: 'pending' | 'completed' | 'failed';
  provider: string;
  providerReference?: string;
  redirectUrl?: string;
  /** `<organizationId>:<client key>`, or `order:<id>` when the client sent none; unique. */
  idempotencyKey: string;
  createdAt: string;
  completedAt?: string;
  [key: string]: unknown;
}

/** Storage of credit-package orders. */
export class OrderRepository {
  readonly #orders: Collection<OrderDoc>;

  constructor(store: DocumentStore) {
    this.#orders = store.collection<OrderDoc>('orders');
  }

  async init(): Promise<void> {
    await this.#orders.ensureIndexes([
      { keys: { idempotencyKey: 1 }, unique: true, name: 'checkout_idempotency' },
      { keys: { organizationId: 1, createdAt: -1 }, name: 'organization_recent' },
    ]);
  }

  findOrder(orderId: string): Promise<OrderDoc | null> {
    return this.#orders.findOne({ _id: orderId });
  }

  findOrderByIdempotencyKey(idempotencyKey: string): Promise<OrderDoc | null> {
    return this.#orders.findOne({ idempotencyKey });
  }

  /** @returns the order, or null when its idempotency key is taken (nothing written). */
  async insertOrder(order: OrderDoc): Promise<OrderDoc | null> {
    try {
      return await this.#orders.insertOne(order);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  /** Stores what the payment provider answered (its reference, where to send the buyer). */
  recordProviderAnswer(orderId: string, answer: { reference: string; redirectUrl?: string }): Promise<OrderDoc | null> {
    return this.#orders.updateOne(
      { _id: orderId },
      { $set: { providerReference: answer.reference, ...(answer.redirectUrl ? { redirectUrl: answer.redirectUrl } : {}) } },
    );
  }

  /** pending → failed. @returns null when the order was not pending. */
  markFailed(orderId: string): Promise<OrderDoc | null> {
    return this.#orders.updateOne({ _id: orderId, status: 'pending' }, { $set: { status: 'failed' } });
  }

  /** pending → completed, once. @returns null when it was not pending (completed by an earlier call). */
  markCompleted(orderId: string, completedAt: string): Promise<OrderDoc | null> {
    return this.#orders.updateOne({ _id: orderId, status: 'pending' }, { $set: { status: 'completed', completedAt } });
  }
}
