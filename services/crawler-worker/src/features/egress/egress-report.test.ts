import { BillingInternalRoutes, type CrawlerIdentitiesBody } from '@crawl/contracts';
import { CrawlerSettingsClient, InternalTokens, ServiceClient, type ServiceRequest } from '@crawl/service-client';
import { describe, expect, it } from 'vitest';
import { reportEgressIdentities } from './egress-report.ts';
import { ProxyPool } from './proxy-pool.ts';

describe('reportEgressIdentities', () => {
  it('sends each identity with its masked label and cool-down end to billing, through the typed route', async () => {
    let now = Date.parse('2026-03-01T10:00:00.000Z');
    const proxies = new ProxyPool({ urls: ['http://alice:secret@p1:8080', 'http://p2:8080'], restAfterBlocks: 1, restMs: 60_000, now: () => now });
    proxies.reportBlocked('http://alice:secret@p1:8080');
    now += 1_000;

    const sent: ServiceRequest[] = [];
    const client = new ServiceClient({
      from: 'crawler-worker',
      target: 'billing',
      tokens: new InternalTokens('egress-report-test-secret-that-is-long-enough-0123'),
      transport: {
        kind: 'local',
        send: async (request) => {
          sent.push(request);
          return { status: 200, headers: {}, body: { data: { identities: (request.body as CrawlerIdentitiesBody).identities.length } } };
        },
      },
    });
    await reportEgressIdentities(new CrawlerSettingsClient(client), proxies.states());

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: BillingInternalRoutes.reportCrawlerIdentities.method,
      path: BillingInternalRoutes.reportCrawlerIdentities.url,
      idempotent: true,
    });
    const { identities } = sent[0]!.body as CrawlerIdentitiesBody;
    expect(identities).toEqual([
      { id: expect.stringMatching(/^proxy-[0-9a-f]{12}$/), label: 'http://***@p1:8080', blockedRecently: 1, cooledDownUntil: '2026-03-01T10:01:00.000Z' },
      { id: expect.stringMatching(/^proxy-[0-9a-f]{12}$/), label: 'http://p2:8080', blockedRecently: 0 },
    ]);
    expect(JSON.stringify(sent)).not.toContain('secret');
  });
});
