import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { OrderRepository, type OrderDoc } from './order-repository.ts';

const order = (id: string, idempotencyKey = `order:${id}`): OrderDoc => ({
  _id: id,
  organizationId: 'org_a',
  userId: 'usr_a',
  packageId: 'starter',
  priceCents: 500,
  currency: 'USD',
  packageCredits: 50_000,
  bonusCredits: 0,
  credits: 50_000,
  status: 'pending',
  provider: 'sandbox',
  idempotencyKey,
  createdAt: '2026-11-15T12:00:00.000Z',
});

describeOnEachStore('OrderRepository', (open) => {
  let repo: OrderRepository;

  beforeEach(async () => {
    repo = new OrderRepository(await open());
    await repo.init();
  });

  it('inserts one order per idempotency key, also when checkouts race', async () => {
    const racing = await Promise.all([repo.insertOrder(order('ord_1', 'org_a:k1')), repo.insertOrder(order('ord_2', 'org_a:k1'))]);
    expect(racing.filter((o) => o !== null)).toHaveLength(1);
    const winner = racing.find((o) => o !== null)!;
    expect((await repo.findOrderByIdempotencyKey('org_a:k1'))?._id).toBe(winner._id);
    expect(await repo.findOrderByIdempotencyKey('org_a:k2')).toBeNull();
  });

  it('records the provider answer and completes or fails a pending order once', async () => {
    await repo.insertOrder(order('ord_1'));
    await repo.insertOrder(order('ord_2'));
    expect(await repo.recordProviderAnswer('ord_1', { reference: 'ref_1', redirectUrl: 'https://pay.example/1' })).toMatchObject({
      providerReference: 'ref_1',
      redirectUrl: 'https://pay.example/1',
    });
    const completions = await Promise.all([repo.markCompleted('ord_1', '2026-11-15T12:01:00.000Z'), repo.markCompleted('ord_1', '2026-11-15T12:02:00.000Z')]);
    expect(completions.filter((o) => o !== null)).toHaveLength(1);
    expect(await repo.markFailed('ord_1')).toBeNull();
    expect(await repo.markFailed('ord_2')).toMatchObject({ status: 'failed' });
    expect(await repo.markCompleted('ord_2', '2026-11-15T12:03:00.000Z')).toBeNull();
    expect((await repo.findOrder('ord_1'))?.status).toBe('completed');
  });
});
