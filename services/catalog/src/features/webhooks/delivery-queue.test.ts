import type { DeliveryTask } from '@crawl/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCatalogHarness, type CatalogHarness } from '../../testing/catalog-harness.ts';
import { openDeliveryQueue } from './delivery-queue.ts';

describe('the webhook delivery queue', () => {
  let h: CatalogHarness;
  beforeEach(async () => {
    h = await startCatalogHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it.each([
    ['without a claim', { deliveryId: 'dlv_1' }],
    ['with a numeric delivery id', { deliveryId: 7, claim: 'c1' }],
    ['that is not an object', 'dlv_1'],
  ])('rejects a task %s before it is queued', async (_name, payload) => {
    const queue = openDeliveryQueue(h.context.queues);
    expect(queue.name).toBe('webhook-deliveries');
    await expect(queue.add(payload as unknown as DeliveryTask)).rejects.toThrow();
    const stats = await queue.stats();
    expect(stats.waiting + stats.active + stats.delayed).toBe(0);
  });
});
