import { afterEach, describe, expect, it } from 'vitest';
import { coverageInWords, CrawlClient, type ReviewRecord } from '../src/index.ts';
import { job, type LocalServer, sendJson, startLocalServer } from './local-server.ts';

const review = (n: number): ReviewRecord => ({
  asin: 'B0SIM00001',
  reviewId: `R${n}ABCDEFGHIJK`,
  marketplace: 'amazon.com',
  title: `Review ${n}`,
  rating: 6 - n,
  date: `2026-03-0${n}`,
  verifiedPurchase: n % 2 === 1,
  helpfulVotes: n * 10,
  authorName: `Reader ${n}`,
  quality: { status: 'complete', missing: [] },
  missingFields: [],
});

describe('a reviews job', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is created with its typed options and its results read as ReviewRecords across pages', async () => {
    let created: unknown;
    server = await startLocalServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/projects/prj_1/jobs') {
        let text = '';
        for await (const chunk of req) text += String(chunk);
        created = JSON.parse(text);
        return sendJson(res, 201, { data: job('queued', [{ value: 'B0SIM00001', status: 'pending' }], { type: 'reviews', creditsReserved: 30 }) });
      }
      if (url.pathname === '/jobs/job_1/results') {
        const first = !url.searchParams.get('cursor');
        return sendJson(res, 200, {
          data: {
            items: first ? [review(1), review(2)] : [review(3)],
            pagination: { page: first ? 1 : 2, pageSize: 2, total: 3, nextCursor: first ? 'c2' : null },
          },
        });
      }
      sendJson(res, 404, {});
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't' });
    const reviewsJob = await crawl.jobs.create('prj_1', {
      type: 'reviews',
      targets: ['B0SIM00001'],
      config: { maxReviews: 300, stars: [5, 4], sort: 'recent', verifiedOnly: true, since: '2026-01-01' },
    });
    expect(reviewsJob.type).toBe('reviews');
    expect(created).toEqual({
      type: 'reviews',
      targets: ['B0SIM00001'],
      config: { maxReviews: 300, stars: [5, 4], sort: 'recent', verifiedOnly: true, since: '2026-01-01' },
    });

    const reviews: ReviewRecord[] = [];
    for await (const record of crawl.jobs.results('job_1', { pageSize: 2, type: 'reviews' })) reviews.push(record);
    // Typed as ReviewRecord: its own fields are read without narrowing.
    expect(reviews.map((r) => [r.reviewId, r.rating, r.verifiedPurchase])).toEqual([
      ['R1ABCDEFGHIJK', 5, true],
      ['R2ABCDEFGHIJK', 4, false],
      ['R3ABCDEFGHIJK', 3, true],
    ]);
    // `type` types the records only: it is not sent.
    const queries = server.requests
      .filter((r) => r.url.startsWith('/jobs/job_1/results'))
      .map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
    expect(queries).toEqual([{ pageSize: '2' }, { pageSize: '2', cursor: 'c2' }]);
  });

  it("says a target's coverage in words", () => {
    expect(coverageInWords({ fetched: 120, totalReviews: 1234, totalRatings: 5000, limitedBy: 'signin_wall' })).toBe(
      '120 of 1,234 reviews — stopped by a sign-in wall',
    );
    expect(coverageInWords({ fetched: 300, totalRatings: 4100, limitedBy: 'maxReviews' })).toBe('300 of 4,100 ratings — stopped at the job’s maxReviews');
    expect(coverageInWords({ fetched: 87, limitedBy: 'none' })).toBe('87 fetched — all there are');
    expect(coverageInWords({ fetched: 1000, totalReviews: 2400, limitedBy: 'page_cap' })).toBe('1,000 of 2,400 reviews — the marketplace shows no more pages');
  });
});
