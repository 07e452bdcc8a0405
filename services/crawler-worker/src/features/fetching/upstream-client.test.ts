import { ManualClock } from '@crawl/clock';
import { describe, expect, it } from 'vitest';
import { TokenBucketRateLimiter } from '../rate-limit/index.ts';
import { FetchError, type FetchedPage, type PageFetcher, type PageRequest } from './page-fetcher.ts';
import { ProxyPool } from '../egress/index.ts';
import { SessionPool } from './session-pool.ts';
import { classifyResponse, type GetPageInput, type PageOutcome, UpstreamClient } from './upstream-client.ts';

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
  return { client, fetcher, sleeps, session, sessions, proxies };
}

describe('classifyResponse', () => {
  it('detects a CAPTCHA served with HTTP 200 before anything else', () => {
    expect(classifyResponse({ status: 200, html: CAPTCHA_HTML, headers: {} }, 0)).toMatchObject({ kind: 'retry', reason: 'blocked', blocked: true });
  });
  it('names the kind of page that stood in for the one asked for', () => {
    const interstitial = '<html><head><meta http-equiv="refresh" content="5; URL=\'/dp/B0X?bm-verify=AAQ\'"></head></html>';
    const challenge = '<html><script>window.gokuProps = {"key":"k"};</script><script src="https://x.token.awswaf.com/x/challenge.js"></script></html>';
    expect(classifyResponse({ status: 200, html: interstitial, headers: {} }, 0)).toMatchObject({
      reason: 'blocked',
      blockKind: 'interstitial',
      blocked: true,
    });
    expect(classifyResponse({ status: 200, html: challenge, headers: {} }, 0)).toMatchObject({ reason: 'blocked', blockKind: 'challenge' });
    expect(classifyResponse({ status: 202, html: '', headers: { 'x-amzn-waf-action': 'challenge' } }, 0)).toMatchObject({ blockKind: 'challenge' });
    expect(classifyResponse({ status: 200, html: CAPTCHA_HTML, headers: {} }, 0)).toMatchObject({ blockKind: 'captcha' });
    expect(classifyResponse({ status: 429, html: '', headers: {} }, 0)).toMatchObject({ reason: 'blocked', blockKind: 'rate_limited' });
    expect(classifyResponse({ status: 503, html: '', headers: {} }, 0)).not.toHaveProperty('blockKind');
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

  it('announces each try on the held session, and makes none once the caller stops', async () => {
    const { client, fetcher, session } = setup([{ status: 503 }, {}]);
    const tries = client.tries({ url: 'https://www.amazon.com/', session });
    const announced: number[] = [];
    for await (const step of tries) {
      if (step.kind !== 'try') continue;
      announced.push(step.attempt);
      expect(step.session).toBe(session);
      if (step.attempt > 1) tries.stop('job no longer wants this target');
    }
    expect(announced).toEqual([1, 2]);
    expect(tries.outcome).toMatchObject({ ok: false, reason: 'cancelled', message: 'job no longer wants this target', attempts: 1 });
    expect(fetcher.requests).toHaveLength(1);
  });

  it('fetches with the session as the caller readied it before the try', async () => {
    const { client, fetcher, session, sessions } = setup([{}]);
    const readied = sessions.take();
    const tries = client.tries({ url: 'https://www.amazon.com/', session });
    for await (const step of tries) if (step.kind === 'try') session.current = readied;
    expect(tries.outcome).toMatchObject({ ok: true, attempts: 1 });
    expect(fetcher.requests[0]?.session.id).toBe(readied.id);
  });

  /** Drives the tries of a page as a crawl does: `judge` says what each page that is no block is. */
  async function crawlTries(client: UpstreamClient, input: GetPageInput, judge: (html: string) => 'accept' | 'reject' | 'short'): Promise<PageOutcome> {
    const tries = client.tries(input);
    for await (const step of tries) {
      if (step.kind !== 'page') continue;
      const verdict = judge(step.page.html);
      if (verdict === 'reject') tries.reject('unrecognized_page', 'not a product page');
      else if (verdict === 'short') tries.secondChance('price missing');
    }
    return tries.outcome;
  }

  it('retries a page the crawl rejects like a block, on a new session each time, and fails with its reason', async () => {
    const { client, fetcher, session } = setup([{}, {}, {}, {}]);
    const outcome = await crawlTries(client, { url: 'https://www.amazon.com/dp/B000000001', session }, () => 'reject');
    expect(outcome).toMatchObject({ ok: false, reason: 'unrecognized_page', message: 'not a product page after 4 attempts', attempts: 4 });
    expect(new Set(fetcher.requests.map((r) => r.session.id)).size).toBe(4);
  });

  it('gives a page the crawl finds short one more session, and keeps the better page', async () => {
    const judge = (html: string) => (html.includes('complete') ? 'accept' : 'short');
    const better = setup([{ html: 'short' }, { html: 'complete' }]);
    const outcome = await crawlTries(better.client, { url: 'https://www.amazon.com/dp/B000000001', session: better.session }, judge);
    expect(outcome).toMatchObject({ ok: true, attempts: 2, page: { html: 'complete' } });
    expect(better.fetcher.requests[0]?.session.id).not.toBe(better.fetcher.requests[1]?.session.id);
    // The identity is not to blame: no strike, unlike a block.
    expect(better.proxies.states().every((p) => p.blockedRecently === 0)).toBe(true);

    const again = setup([{ html: 'short one' }, { html: 'short two' }, {}]);
    const second = await crawlTries(again.client, { url: 'https://www.amazon.com/dp/B000000001', session: again.session }, judge);
    expect(second).toMatchObject({ ok: true, attempts: 2, page: { html: 'short two' } });
    expect(again.fetcher.requests).toHaveLength(2);

    // The second session is blocked to the end: the page kept from the first is the answer.
    const blocked = setup([{ html: 'short' }, { html: CAPTCHA_HTML }, { html: CAPTCHA_HTML }, { html: CAPTCHA_HTML }]);
    const kept = await crawlTries(blocked.client, { url: 'https://www.amazon.com/dp/B000000001', session: blocked.session }, judge);
    expect(kept).toMatchObject({ ok: true, attempts: 4, page: { html: 'short' } });
  });
});
