import { ManualClock } from '@crawl/modules';
import { describe, expect, it } from 'vitest';
import { TokenBucketRateLimiter } from '../rate-limit/token-bucket-rate-limiter.ts';
import { FetchError, type FetchedPage, type PageFetcher, type PageRequest } from './page-fetcher.ts';
import { ProxyPool } from './proxy-pool.ts';
import { SessionPool } from './session-pool.ts';
import { classifyResponse, UpstreamClient } from './upstream-client.ts';

const OK_HTML = '<html><title>Results</title><div data-asin="B000000001"></div></html>';
const CAPTCHA_HTML = '<html><form action="/errors/validateCaptcha"><input id="captchacharacters"></form></html>';

type Step = Partial<FetchedPage> | FetchError;

/** Answers each request with the next scripted step. */
class ScriptedFetcher implements PageFetcher {
  readonly requests: PageRequest[] = [];
  readonly #steps: Step[];
  constructor(steps: Step[]) {
    this.#steps = steps;
  }
  async fetch(request: PageRequest): Promise<FetchedPage> {
    this.requests.push(request);
    const step = this.#steps.shift() ?? {};
    if (step instanceof FetchError) throw step;
    return { status: 200, headers: {}, html: OK_HTML, url: request.url, redirects: 0, bytes: 1, ...step };
  }
  async close(): Promise<void> {}
}

function setup(steps: Step[], options: { maxAttempts?: number; maxBackoffMs?: number } = {}) {
  const timers = new ManualClock();
  const sleeps: number[] = [];
  const fetcher = new ScriptedFetcher(steps);
  const proxies = new ProxyPool({ urls: ['http://p1:1', 'http://p2:1'], restAfterBlocks: 1, restMs: 60_000, now: () => timers.now().getTime() });
  const sessions = new SessionPool({ proxies, maxUses: 100, size: 4 });
  const client = new UpstreamClient({
    fetcher,
    limiter: new TokenBucketRateLimiter({ requestsPerMinute: 600_000, burst: 100, timers }),
    sessions,
    maxAttempts: options.maxAttempts ?? 4,
    backoffMs: 1000,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    sleep: async (ms) => {
      sleeps.push(ms);
      timers.advance(ms);
    },
    now: () => timers.now().getTime(),
    random: () => 1,
  });
  const session = { current: sessions.take() };
  return { client, fetcher, sleeps, session, proxies };
}

describe('classifyResponse', () => {
  it('detects a CAPTCHA served with HTTP 200 before anything else', () => {
    expect(classifyResponse({ status: 200, html: CAPTCHA_HTML, headers: {} }, 0)).toMatchObject({ kind: 'retry', reason: 'blocked', blocked: true });
  });
  it('maps statuses to retry or final reasons', () => {
    const at = (status: number, headers = {}) => classifyResponse({ status, html: '<html></html>', headers }, 0);
    expect(at(200)).toEqual({ kind: 'ok' });
    expect(at(404)).toMatchObject({ kind: 'fail', reason: 'not_found' });
    expect(at(410)).toMatchObject({ kind: 'fail', reason: 'not_found' });
    expect(at(429, { 'retry-after': '3' })).toMatchObject({ kind: 'retry', reason: 'blocked', retryAfterMs: 3000 });
    expect(at(503)).toMatchObject({ kind: 'retry', reason: 'upstream_error', blocked: false });
    expect(at(500)).toMatchObject({ kind: 'retry', reason: 'upstream_error' });
    expect(at(403)).toMatchObject({ kind: 'retry', reason: 'blocked' });
    expect(at(400)).toMatchObject({ kind: 'fail', reason: 'upstream_error' });
  });
});

describe('UpstreamClient', () => {
  it('returns the page on success after one request', async () => {
    const { client, fetcher, sleeps, session } = setup([{}]);
    const outcome = await client.getPage({ url: 'https://www.amazon.com/s?k=x', session });
    expect(outcome).toMatchObject({ ok: true, attempts: 1 });
    expect(fetcher.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('backs off exponentially between tries, then fails a persistent block as blocked', async () => {
    const { client, fetcher, sleeps, session } = setup([{ html: CAPTCHA_HTML }, { html: CAPTCHA_HTML }, { html: CAPTCHA_HTML }, { html: CAPTCHA_HTML }]);
    const outcome = await client.getPage({ url: 'https://www.amazon.com/s?k=x', session });
    expect(outcome).toMatchObject({ ok: false, reason: 'blocked', attempts: 4 });
    expect(fetcher.requests).toHaveLength(4);
    expect(sleeps).toEqual([1000, 2000, 4000]);
    // Every block burns the session: each retry goes out as a new "browser".
    expect(new Set(fetcher.requests.map((r) => r.session.id)).size).toBe(4);
  });

  it('waits at least Retry-After, and recovers', async () => {
    const { client, sleeps, session } = setup([{ status: 429, headers: { 'retry-after': '9' } }, {}]);
    const outcome = await client.getPage({ url: 'https://www.amazon.com/dp/B000000001', session });
    expect(outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(sleeps).toEqual([9000]);
  });

  it('stops when Retry-After asks for longer than the backoff cap', async () => {
    const { client, fetcher, session } = setup([{ status: 503, headers: { 'retry-after': '3600' } }], { maxBackoffMs: 60_000 });
    const outcome = await client.getPage({ url: 'https://www.amazon.com/dp/B000000001', session });
    expect(outcome).toMatchObject({ ok: false, reason: 'upstream_error', attempts: 1 });
    expect(fetcher.requests).toHaveLength(1);
  });

  it('retries timeouts and network errors; does not retry a 404 or a refused redirect', async () => {
    const timeouts = setup([new FetchError('timeout', 'slow'), new FetchError('timeout', 'slow')], { maxAttempts: 2 });
    expect(await timeouts.client.getPage({ url: 'https://www.amazon.com/', session: timeouts.session })).toMatchObject({
      ok: false,
      reason: 'timeout',
      attempts: 2,
    });
    const network = setup([new FetchError('network', 'reset'), {}]);
    expect(await network.client.getPage({ url: 'https://www.amazon.com/', session: network.session })).toMatchObject({ ok: true, attempts: 2 });
    const missing = setup([{ status: 404 }]);
    expect(await missing.client.getPage({ url: 'https://www.amazon.com/', session: missing.session })).toMatchObject({
      ok: false,
      reason: 'not_found',
      attempts: 1,
    });
    const refused = setup([new FetchError('redirect_refused', 'off host')]);
    expect(await refused.client.getPage({ url: 'https://www.amazon.com/', session: refused.session })).toMatchObject({
      ok: false,
      reason: 'upstream_error',
      attempts: 1,
    });
  });

  it('asks before each retry whether the target is still wanted', async () => {
    const { client, fetcher, session } = setup([{ status: 503 }, {}]);
    const outcome = await client.getPage({ url: 'https://www.amazon.com/', session, stillWanted: async () => false });
    expect(outcome).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(fetcher.requests).toHaveLength(1);
  });
});
