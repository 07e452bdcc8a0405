import type { CrawlerIdentitiesBody } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { ProxyPool } from '../features/egress/index.ts';
import { RateSetting, TokenBucketRateLimiter } from '../features/rate-limit/index.ts';
import { refreshWithBilling } from './billing-refresh.ts';

function parts(read: () => Promise<{ requestsPerMinute?: number }>, report: (body: CrawlerIdentitiesBody) => Promise<number>) {
  const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60 });
  const warnings: string[] = [];
  const needs = {
    rate: new RateSetting({ read, limiter, defaultRate: 60 }),
    proxies: new ProxyPool({ urls: [], restAfterBlocks: 3, restMs: 60_000 }),
    billing: { reportIdentities: report },
    logger: { warn: (_obj: object, msg?: string) => void warnings.push(msg ?? '') },
  };
  return { needs, limiter, warnings };
}

describe('refreshWithBilling', () => {
  it("applies billing's rate and reports the identities", async () => {
    const reports: CrawlerIdentitiesBody[] = [];
    const { needs, limiter, warnings } = parts(
      async () => ({ requestsPerMinute: 120 }),
      async (body) => reports.push(body),
    );
    await refreshWithBilling(needs);
    expect(limiter.rate()).toBe(120);
    expect(reports).toEqual([{ identities: [{ id: 'direct', label: 'direct', blockedRecently: 0 }] }]);
    expect(warnings).toEqual([]);
    limiter.close();
  });

  it('keeps the rate in force and still reports when the setting cannot be read; a failed report is only logged', async () => {
    const reports: CrawlerIdentitiesBody[] = [];
    const first = parts(
      () => Promise.reject(new Error('billing down')),
      async (body) => reports.push(body),
    );
    await refreshWithBilling(first.needs);
    expect(first.limiter.rate()).toBe(60);
    expect(reports).toHaveLength(1);
    expect(first.warnings).toEqual(['reading the upstream rate setting from billing failed; keeping the rate in force']);
    first.limiter.close();

    const second = parts(
      async () => ({}),
      () => Promise.reject(new Error('billing down')),
    );
    await expect(refreshWithBilling(second.needs)).resolves.toBeUndefined();
    expect(second.warnings).toEqual(['sharing the egress identities failed; the next refresh tries again']);
    second.limiter.close();
  });
});
