import type { Identity, RecordAuditBody } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { billingFixture, ledgerProblems } from '../../testing/billing-fixture.ts';
import { creditsForPrice, DEFAULT_PACKAGES, parsePackages } from './package-catalog.ts';
import type { PaymentProvider } from './payment-provider.ts';

const buyer: Identity = { userId: 'usr_buyer', organizationId: 'org_buyer', email: 'b@example.com', role: 'user', audience: 'dashboard' };

describe('credit package catalog', () => {
  it('prices the built-in packages at the display rate of 10,000 credits per currency unit', () => {
    expect(creditsForPrice(100)).toBe(10_000);
    for (const pkg of DEFAULT_PACKAGES) expect(pkg.credits).toBe(creditsForPrice(pkg.priceCents));
    expect(parsePackages('')).toEqual(DEFAULT_PACKAGES);
  });

  it('reads CREDIT_PACKAGES and fails start-up on a bad catalog', () => {
    const custom = [{ id: 'mini', name: 'Mini', priceCents: 100, currency: 'eur', credits: 10_000, bonusCredits: 0 }];
    expect(parsePackages(JSON.stringify(custom))).toEqual([{ ...custom[0], currency: 'EUR' }]);
    expect(() => parsePackages('{not json')).toThrow(/CREDIT_PACKAGES/);
    expect(() => parsePackages('[]')).toThrow(/CREDIT_PACKAGES/);
    expect(() => parsePackages(JSON.stringify([{ ...custom[0], credits: -1 }]))).toThrow(/CREDIT_PACKAGES/);
    expect(() => parsePackages(JSON.stringify([custom[0], custom[0]]))).toThrow(/unique/);
  });
});

describe('checkout', () => {
  it('grants package plus bonus credits through the sandbox provider and audits the purchase', async () => {
    const events: RecordAuditBody[] = [];
    const { billing, store } = await billingFixture({}, { audit: async (event) => void events.push(event) });
    const order = await billing.checkout.start(buyer, { packageId: 'growth' });
    expect(order).toMatchObject({ status: 'completed', provider: 'sandbox', credits: 220_000, providerReference: `sandbox_${order._id}` });
    expect(await billing.ledger.balance('org_buyer')).toEqual({ available: 221_000, reserved: 0, spent: 0, granted: 221_000 });
    expect(events).toEqual([
      expect.objectContaining({ action: 'credits.purchase', resourceId: order._id, organizationId: 'org_buyer', actorUserId: 'usr_buyer' }),
    ]);
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('still completes the purchase when the audit log is unreachable', async () => {
    const { billing } = await billingFixture(
      {},
      {
        audit: async () => {
          throw new Error('catalog down');
        },
      },
    );
    const order = await billing.checkout.start(buyer, { packageId: 'starter' });
    expect(order.status).toBe('completed');
    expect((await billing.ledger.balance('org_buyer')).available).toBe(51_000);
  });

  it('waits for a provider that confirms later, then grants once however often it is confirmed', async () => {
    const later: PaymentProvider = {
      name: 'hosted',
      startPayment: async (request) => ({ reference: `h_${request.orderId}`, status: 'pending', redirectUrl: 'https://pay.example/x' }),
    };
    const { billing, store } = await billingFixture({}, { provider: later });
    const order = await billing.checkout.start(buyer, { packageId: 'starter' });
    expect(order).toMatchObject({ status: 'pending', redirectUrl: 'https://pay.example/x' });
    expect((await billing.ledger.balance('org_buyer')).available).toBe(1_000);
    await Promise.all([billing.checkout.fulfil(order._id), billing.checkout.fulfil(order._id), billing.checkout.fulfil(order._id)]);
    expect((await billing.ledger.balance('org_buyer')).available).toBe(51_000);
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('answers 404 for an unknown package and buys once per idempotency key', async () => {
    const { billing } = await billingFixture();
    await expect(billing.checkout.start(buyer, { packageId: 'platinum' })).rejects.toMatchObject({ statusCode: 404 });
    const [a, b] = await Promise.all([
      billing.checkout.start(buyer, { packageId: 'starter', idempotencyKey: 'key-00000001' }),
      billing.checkout.start(buyer, { packageId: 'starter', idempotencyKey: 'key-00000001' }),
    ]);
    expect(a._id).toBe(b._id);
    expect((await billing.ledger.balance('org_buyer')).available).toBe(51_000);
  });
});
