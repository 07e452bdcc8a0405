import { ManualClock } from '@crawl/clock';
import { RedisEgressHealth } from '@crawl/redis';
import { redisTestConnections, redisTestServer } from '@crawl/redis/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { UpstreamRateLimiter } from '../rate-limit/index.ts';
import type { FetchedPage, PageFetcher, PageRequest } from './page-fetcher.ts';
import { ProxyPool, proxyIdentityId, type SharedEgressHealth } from '../egress/index.ts';
import { SessionPool } from './session-pool.ts';
import { UpstreamClient } from './upstream-client.ts';

const OK_HTML = '<html><title>Results</title><div data-asin="B000000001"></div></html>';
const CAPTCHA_HTML = '<html><form action="/errors/validateCaptcha"><input id="captchacharacters"></form></html>';
const P1 = 'http://alice:secret1@p1:8080';
const P2 = 'http://bob:secret2@p2:8080';

/** A marketplace that serves a CAPTCHA to every request through a blocked proxy. */
class ProxyAwareFetcher implements PageFetcher {
  readonly blockedProxies = new Set<string>();
  readonly byProxy = new Map<string | undefined, number>();
  async fetch(request: PageRequest): Promise<FetchedPage> {
    const proxy = request.session.proxy;
    this.byProxy.set(proxy, (this.byProxy.get(proxy) ?? 0) + 1);
    const html = proxy && this.blockedProxies.has(proxy) ? CAPTCHA_HTML : OK_HTML;
    return { status: 200, headers: {}, html, url: request.url, redirects: 0, bytes: html.length };
  }
  async close(): Promise<void> {}
}

/** Records the identity of each acquire (the budget each request was charged to). */
class RecordingLimiter implements UpstreamRateLimiter {
  readonly charged: string[] = [];
  async acquire(_signal?: AbortSignal, identity?: string): Promise<void> {
    this.charged.push(identity ?? '(none)');
  }
  async setRate(): Promise<void> {}
  rate(): number {
    return 60;
  }
  close(): void {}
}

describe('egress identities', () => {
  it('are the proxies (ids stable, labels without credentials), or the direct connection', () => {
    const pool = new ProxyPool({ urls: [P1, P2], restAfterBlocks: 2, restMs: 1000, now: () => 0 });
    expect(pool.identities().map((i) => i.id)).toEqual([proxyIdentityId(P1), proxyIdentityId(P2)]);
    expect(proxyIdentityId(P1)).toMatch(/^proxy-[0-9a-f]{12}$/);
    expect(proxyIdentityId('http://carol:x@p1:8080')).not.toBe(proxyIdentityId(P1));
    expect(JSON.stringify(pool.states())).not.toMatch(/secret|alice|bob/);
    expect(pool.states().map((s) => s.label)).toEqual(['http://***@p1:8080', 'http://***@p2:8080']);
    const direct = new ProxyPool({ urls: [], restAfterBlocks: 1, restMs: 1000, now: () => 0 });
    expect(direct.states()).toEqual([{ id: 'direct', label: 'direct', cooledDownUntil: undefined, blockedRecently: 0 }]);
    // The direct connection is counted but never cooled down: there is nowhere to move its work.
    direct.reportBlocked(undefined);
    direct.reportBlocked(undefined);
    expect(direct.states()[0]).toMatchObject({ cooledDownUntil: undefined, blockedRecently: 2 });
    expect(direct.shouldMove(undefined)).toBe(false);
  });

  it('cool a proxy down after the threshold of blocks in a row, for the configured time', () => {
    let now = 10_000;
    const pool = new ProxyPool({ urls: [P1, P2], restAfterBlocks: 2, restMs: 5_000, now: () => now });
    pool.reportBlocked(P1);
    expect(pool.shouldMove(P1)).toBe(false);
    pool.reportBlocked(P1);
    expect(pool.states()[0]).toMatchObject({ cooledDownUntil: 15_000, blockedRecently: 2 });
    expect(pool.shouldMove(P1)).toBe(true);
    expect(pool.shouldMove(P2)).toBe(false);
    now = 15_000;
    expect(pool.states()[0]).toMatchObject({ cooledDownUntil: undefined, blockedRecently: 0 });
    expect(pool.shouldMove(P1)).toBe(false);
  });

  it("move a cooled-down proxy's share to the others: its sessions are replaced and its budget goes unused", async () => {
    const timers = new ManualClock();
    const now = () => timers.now().getTime();
    const proxies = new ProxyPool({ urls: [P1, P2], restAfterBlocks: 2, restMs: 60_000, now });
    const sessions = new SessionPool({ proxies, maxUses: 3, size: 4 });
    const fetcher = new ProxyAwareFetcher();
    const limiter = new RecordingLimiter();
    const client = new UpstreamClient({ fetcher, limiter, sessions, maxAttempts: 4, backoffMs: 1, maxBackoffMs: 10, sleep: async () => undefined, now });
    const held = Array.from({ length: 4 }, () => ({ current: sessions.take() }));
    expect(held.map((h) => h.current.proxy)).toEqual([P1, P2, P1, P2]);

    fetcher.blockedProxies.add(P1);
    // Two targets on p1 sessions get blocked (two strikes): p1 cools down, the retries go via p2.
    for (const session of [held[0], held[2]]) {
      const outcome = await client.getPage({ url: 'https://www.amazon.com/s?k=a', session: session! });
      expect(outcome.ok).toBe(true);
      expect(session!.current.proxy).toBe(P2);
    }
    expect(proxies.shouldMove(P1)).toBe(true);

    limiter.charged.length = 0;
    fetcher.byProxy.clear();
    // From now on every request, from every session of the pool, goes out through p2 and is charged to it.
    for (let i = 0; i < 8; i += 1) {
      const outcome = await client.getPage({ url: 'https://www.amazon.com/s?k=b', session: { current: sessions.take() } });
      expect(outcome.ok).toBe(true);
    }
    expect(limiter.charged).toEqual(Array(8).fill(proxyIdentityId(P2)));
    expect(fetcher.byProxy.get(P1)).toBeUndefined();
    expect(fetcher.byProxy.get(P2)).toBe(8);

    // After the cool-down p1 takes work (and its budget) again as sessions are renewed.
    timers.advance(60_000);
    fetcher.blockedProxies.clear();
    limiter.charged.length = 0;
    for (let i = 0; i < 8; i += 1) await client.getPage({ url: 'https://www.amazon.com/s?k=c', session: { current: sessions.take() } });
    expect(new Set(limiter.charged)).toEqual(new Set([proxyIdentityId(P1), proxyIdentityId(P2)]));
  });

  it('keep using the proxy back soonest when every proxy is cooled down', () => {
    let now = 0;
    const proxies = new ProxyPool({ urls: [P1, P2], restAfterBlocks: 1, restMs: 1000, now: () => now });
    proxies.reportBlocked(P1);
    now = 100;
    proxies.reportBlocked(P2);
    expect(proxies.shouldMove(P1)).toBe(false);
    expect(proxies.next()).toBe(P1);
  });
});

const found = await redisTestServer();

if ('server' in found) {
  const { server } = found;
  const redisConnections = redisTestConnections(server.url);
  afterAll(async () => {
    await redisConnections.close();
    await server.stop();
  });

  function sharedHealth(key: string, now: () => number, options = { restAfterBlocks: 3, restMs: 60_000 }): SharedEgressHealth {
    const redis = redisConnections.open();
    return new RedisEgressHealth({ redis, key, ...options, now, serverNow: now });
  }

  describe('egress cool-downs shared through Redis (two replicas)', () => {
    it('count the blocks of every replica together and cool the proxy down for all of them', async () => {
      const key = redisConnections.key();
      let now = 1_000_000;
      const a = new ProxyPool({ urls: [P1, P2], restAfterBlocks: 3, restMs: 60_000, now: () => now, shared: sharedHealth(key, () => now) });
      const b = new ProxyPool({ urls: [P1, P2], restAfterBlocks: 3, restMs: 60_000, now: () => now, shared: sharedHealth(key, () => now) });
      // Two blocks seen by a, one by b: neither reaches 3 alone, together they do.
      a.reportBlocked(P1);
      a.reportBlocked(P1);
      await vi.waitUntil(async () => (await sharedHealth(key, () => now).read([proxyIdentityId(P1)]))[0]?.blockedRecently === 2, {
        timeout: 5_000,
        interval: 5,
      });
      b.reportBlocked(P1);
      await vi.waitUntil(() => b.shouldMove(P1), { timeout: 5_000, interval: 5, message: 'b cools p1 down' });
      expect(a.shouldMove(P1)).toBe(false);
      await a.sync();
      expect(a.shouldMove(P1)).toBe(true);
      expect(a.states()[0]).toMatchObject({ id: proxyIdentityId(P1), cooledDownUntil: now + 60_000, blockedRecently: 3 });
      expect(a.states()[1]).toMatchObject({ cooledDownUntil: undefined, blockedRecently: 0 });
      now += 60_000;
      await a.sync();
      expect(a.shouldMove(P1)).toBe(false);
    });

    it('reset the run of blocks on a success anywhere', async () => {
      const key = redisConnections.key();
      const now = () => 5_000_000;
      const health = sharedHealth(key, now, { restAfterBlocks: 2, restMs: 10_000 });
      const id = proxyIdentityId(P2);
      expect(await health.recordBlock(id)).toEqual({ id, cooledDownUntil: undefined, blockedRecently: 1 });
      await health.recordSuccess(id);
      expect((await health.recordBlock(id)).cooledDownUntil).toBeUndefined();
      expect(await health.recordBlock(id)).toEqual({ id, cooledDownUntil: 5_010_000, blockedRecently: 3 });
      expect(await health.read([id, 'direct'])).toEqual([
        { id, cooledDownUntil: 5_010_000, blockedRecently: 3 },
        { id: 'direct', cooledDownUntil: undefined, blockedRecently: 0 },
      ]);
    });
  });
} else {
  describe('egress cool-downs shared through Redis', () => {
    it('needs a Redis server', (context) => {
      console.warn(`[redis egress health tests skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_REDIS_URL');
      context.skip(found.skipReason);
    });
  });
}
