/** What the provider needs to charge for an order. */
export interface PaymentRequest {
  orderId: string;
  organizationId: string;
  amountCents: number;
  currency: string;
  description: string;
}

export interface PaymentStart {
  /** The provider's reference for the payment. */
  reference: string;
  /** `completed`: paid now. `pending`: the provider confirms later (then call `Checkout.fulfil`). */
  status: 'completed' | 'pending' | 'failed';
  /** A hosted page for the user, for providers that have one. */
  redirectUrl?: string;
}

/** The payment-provider port. A real provider confirms asynchronously through its webhook. */
export interface PaymentProvider {
  readonly name: string;
  startPayment(request: PaymentRequest): Promise<PaymentStart>;
}

/**
 * Completes every payment at once, with no money moving: development and tests only, when
 * PAYMENT_PROVIDER=sandbox is set explicitly (never in production, see `billingConfigProblems`).
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  async startPayment(request: PaymentRequest): Promise<PaymentStart> {
    return { reference: `sandbox_${request.orderId}`, status: 'completed' };
  }
}

/** The provider the settings name; undefined for `none`: checkout then refuses with 503. */
export function paymentProviderFor(setting: 'none' | 'sandbox'): PaymentProvider | undefined {
  return setting === 'sandbox' ? new SandboxPaymentProvider() : undefined;
}
