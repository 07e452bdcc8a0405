import { randomUUID } from 'node:crypto';
import { CATEGORIES, makeCatalogAsin } from '@crawl/marketplace-simulator';
import { CrawlClient, type ReviewRecord, type SellerRecord } from '@crawl/sdk';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('the SDK with every page kind, against a running all-in-one', () => {
  let api: ListeningService;
  let crawl: CrawlClient;
  let projectId: string;

  beforeAll(async () => {
    api = await startListeningAllInOne();
    crawl = new CrawlClient({ baseUrl: api.url });
    await crawl.auth.register({ email: `sdk-kinds-${randomUUID().slice(0, 8)}@example.com`, password: 'a-long-enough-password' });
    projectId = (await crawl.projects.create({ name: 'Kinds' })).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('a reviews job: typed review records, coverage on each target, charged no more than held', async () => {
    const asin = makeCatalogAsin(3 % CATEGORIES.length, 'sdk-kinds-3');
    const job = await crawl.jobs.create(projectId, { type: 'reviews', targets: [asin], config: { maxReviews: 20, sort: 'recent' } });
    expect(job.creditsReserved).toBe(2);
    const done = await crawl.jobs.wait(job.id, { timeoutMs: 60_000, pollIntervalMs: 100 });
    expect(done.status, JSON.stringify(done.targets)).toBe('completed');
    const reviews: ReviewRecord[] = [];
    for await (const review of crawl.jobs.results(job.id, { type: 'reviews', pageSize: 7 })) reviews.push(review);
    expect(reviews.length).toBe(done.resultCount);
    expect(reviews.length).toBeGreaterThan(0);
    expect(reviews.every((review) => review.asin === asin && /^R[0-9A-Z]+$/.test(review.reviewId))).toBe(true);
    // Sorted by date: each review no newer than the one before.
    const dates = reviews.map((review) => review.date).filter((date): date is string => date !== undefined);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(done.targets[0]?.coverage).toMatchObject({ fetched: reviews.length });
  });

  it('a seller job: the profile of each seller, the resolved id as the target key', async () => {
    const job = await crawl.jobs.create(projectId, { type: 'seller', targets: ['https://www.amazon.com/sp?seller=A2B3C4D5E6F7G8'] });
    const done = await crawl.jobs.wait(job.id, { timeoutMs: 60_000, pollIntervalMs: 100 });
    expect(done.targets.map((t) => [t.status, t.key])).toEqual([['success', 'A2B3C4D5E6F7G8']]);
    const sellers: SellerRecord[] = [];
    for await (const seller of crawl.jobs.results(job.id, { type: 'seller' })) sellers.push(seller);
    expect(sellers).toHaveLength(1);
    expect(sellers[0]).toMatchObject({ sellerId: 'A2B3C4D5E6F7G8', name: expect.any(String) });
  });

  it('refuses a target the type cannot crawl with VALIDATION_ERROR', async () => {
    await expect(crawl.jobs.create(projectId, { type: 'bestsellers', targets: ['wireless headphones'] })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
    });
  });
});
