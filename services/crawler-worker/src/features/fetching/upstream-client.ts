import type { BlockKind, TargetFailureReason } from '@crawl/contracts';
import { detectBlock, type BlockReason } from '@crawl/marketplace';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { noMetrics, type UpstreamMetrics } from '@crawl/metrics';
import { backoffDelay } from '@crawl/queue';
import { retryAfterMs } from '@crawl/service-client';
import type { UpstreamRateLimiter } from '../rate-limit/index.ts';
import { FetchError, type FetchedPage, type PageFetcher, type ScriptPost } from './page-fetcher.ts';
import { PageTries, type TryStep } from './page-tries.ts';
import type { CrawlSession, SessionPool } from './session-pool.ts';

/** What one response means for the crawl. */
export type Verdict =
  | { kind: 'ok' }
  | { kind: 'retry'; reason: TargetFailureReason; blockKind?: BlockKind | undefined; detail: string; retryAfterMs?: number | undefined; blocked: boolean }
  | { kind: 'fail'; reason: TargetFailureReason; detail: string };

/** The block kinds a target reports, from the detector's finer reasons. */
const BLOCK_KINDS: Record<BlockReason, BlockKind> = {
  captcha: 'captcha',
  challenge: 'challenge',
  interstitial: 'interstitial',
  robot_check: 'robot_check',
  // The automated-access notice is the robot check's text without its form.
  api_services_support: 'robot_check',
  rate_limited: 'rate_limited',
  error_page: 'error_page',
  service_unavailable: 'error_page',
};

/**
 * Block detection comes first, so a CAPTCHA served with 200 is never taken for a page. Blocks,
 * 429, 5xx and 403 are transient; 404/410 is `not_found`; any other non-2xx ends the target.
 */
export function classifyResponse(page: Pick<FetchedPage, 'status' | 'html' | 'head' | 'headers'>, now: number): Verdict {
  const retryAfter = retryAfterMs(page.headers['retry-after'], now);
  const block = detectBlock({ status: page.status, html: page.head ?? page.html, headers: page.headers });
  if (block.blocked) {
    // A plain 503 is an outage; the same "sorry" page with a 200 is a soft block.
    const outage = block.reason === 'service_unavailable' && page.status >= 500;
    const reason: TargetFailureReason = outage ? 'upstream_error' : 'blocked';
    return {
      kind: 'retry',
      reason,
      ...(outage ? {} : { blockKind: BLOCK_KINDS[block.reason] }),
      detail: `${block.reason} (HTTP ${page.status})`,
      retryAfterMs: retryAfter,
      blocked: !outage,
    };
  }
  if (page.status >= 200 && page.status < 300) return { kind: 'ok' };
  if (page.status === 404 || page.status === 410) return { kind: 'fail', reason: 'not_found', detail: `HTTP ${page.status}` };
  if (page.status === 403) return { kind: 'retry', reason: 'blocked', detail: 'HTTP 403', retryAfterMs: retryAfter, blocked: true };
  if (page.status === 429) return { kind: 'retry', reason: 'blocked', blockKind: 'rate_limited', detail: 'HTTP 429', retryAfterMs: retryAfter, blocked: true };
  if (page.status === 408 || page.status === 425 || page.status >= 500)
    return { kind: 'retry', reason: 'upstream_error', detail: `HTTP ${page.status}`, retryAfterMs: retryAfter, blocked: false };
  return { kind: 'fail', reason: 'upstream_error', detail: `HTTP ${page.status}` };
}

function classifyError(error: FetchError): Verdict {
  switch (error.kind) {
    case 'timeout':
      return { kind: 'retry', reason: 'timeout', detail: error.message, blocked: false };
    case 'network':
      return { kind: 'retry', reason: 'upstream_error', detail: error.message, blocked: false };
    default:
      return { kind: 'fail', reason: 'upstream_error', detail: error.message };
  }
}

export type PageOutcome =
  | { ok: true; page: FetchedPage; attempts: number }
  | { ok: false; reason: TargetFailureReason; blockKind?: BlockKind | undefined; message: string; attempts: number }
  | { ok: false; reason: 'cancelled'; message: string; attempts: number };

export interface UpstreamClientOptions {
  fetcher: PageFetcher;
  limiter: UpstreamRateLimiter;
  sessions: SessionPool;
  maxAttempts: number;
  backoffMs: number;
  /** Cap of the backoff and the longest Retry-After honoured; a longer one ends the tries. */
  maxBackoffMs: number;
  /** Waits between tries; default Node's timer, ended early (rejecting) when the signal aborts. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  now: () => number;
  random?: () => number;
  /** Requests by domain, status and egress; retries; blocks. Default none. */
  metrics?: UpstreamMetrics | undefined;
}

/** The session a target holds across its pages; replaced when it gets blocked or its proxy cools down. */
export interface SessionHolder {
  current: CrawlSession;
  /** The delivery location the target's pages need: a replacement session is taken for it. */
  location?: string | undefined;
}

export interface GetPageInput {
  url: string;
  /** Held by the caller across the pages of one target; replaced here when it gets blocked. */
  session: SessionHolder;
  /** A page script's POST instead of a navigation (same budget, allowlist, retries and block detection). */
  post?: ScriptPost | undefined;
  lang?: string | undefined;
  referer?: string | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * One page, with the rate limit of the session's egress identity on every request and up to `maxAttempts` tries for
 * transient failures: exponential backoff with jitter, never shorter than `Retry-After`.
 */
export class UpstreamClient {
  readonly #options: UpstreamClientOptions;

  constructor(options: UpstreamClientOptions) {
    this.#options = options;
  }

  /** One page: the first that is no block is taken (see `tries` for the crawl that judges its pages). */
  async getPage(input: GetPageInput): Promise<PageOutcome> {
    const tries = this.tries(input);
    for await (const _step of tries) {
      // The session is used as it is, and every page that is no block is the one asked for here.
    }
    return tries.outcome;
  }

  /** The tries of one page, each try announced and each page that is no block handed to the caller to judge (PageTries). */
  tries(input: GetPageInput): PageTries {
    return new PageTries((tries) => this.#attempts(input, tries));
  }

  async *#attempts(input: GetPageInput, tries: PageTries): AsyncGenerator<TryStep, PageOutcome> {
    const o = this.#options;
    const metrics = o.metrics ?? noMetrics;
    const domain = domainOf(input.url);
    let last: Extract<Verdict, { kind: 'retry' }> | undefined;
    // A usable page kept while another session tries to do better; it is the answer if none does.
    let kept: { page: FetchedPage; attempts: number } | undefined;
    const failure = (outcome: Extract<PageOutcome, { ok: false }>): PageOutcome =>
      kept === undefined || outcome.reason === 'cancelled' ? outcome : { ok: true, page: kept.page, attempts: outcome.attempts };
    for (let attempt = 1; attempt <= o.maxAttempts; attempt += 1) {
      if (attempt > 1) {
        const backoff = backoffDelay({ attempts: o.maxAttempts, backoffMs: o.backoffMs, maxBackoffMs: o.maxBackoffMs }, attempt - 1, o.random);
        const wait = Math.max(backoff, last?.retryAfterMs ?? 0);
        await (o.sleep ?? abortableSleep)(wait, input.signal);
      }
      // A session bound to a cooled-down proxy hands its target to another identity.
      if (o.sessions.shouldMove(input.session.current)) input.session.current = o.sessions.take(input.session.location);
      // The caller may ready the session here (its requests go through this client too), or stop.
      yield { kind: 'try', attempt, session: input.session };
      if (tries.stopped !== undefined) return { ok: false, reason: 'cancelled', message: tries.stopped, attempts: attempt - 1 };
      const session = input.session.current;
      const egress = o.sessions.identityOf(session).id;
      await o.limiter.acquire(input.signal, egress);
      o.sessions.used(session);
      let verdict: Verdict;
      let page: FetchedPage | undefined;
      const started = performance.now();
      try {
        page = await o.fetcher.fetch({ url: input.url, session, lang: input.lang, referer: input.referer, signal: input.signal, post: input.post });
        metrics.upstreamRequest({ domain, status: page.status, bytes: page.bytes, seconds: (performance.now() - started) / 1000, egress });
        verdict = classifyResponse(page, o.now());
      } catch (error) {
        if (!(error instanceof FetchError) || error.kind === 'aborted') throw error;
        metrics.upstreamRequest({ domain, status: error.kind, bytes: 0, seconds: (performance.now() - started) / 1000, egress });
        verdict = classifyError(error);
      }
      if (verdict.kind === 'ok' && page) {
        yield { kind: 'page', page };
        const judgement = tries.takeJudgement();
        if (judgement.kind === 'accept' || (judgement.kind === 'second-chance' && (kept !== undefined || attempt === o.maxAttempts))) {
          o.sessions.succeeded(session);
          return { ok: true, page, attempts: attempt };
        }
        if (judgement.kind === 'second-chance') {
          // The session answered, so its identity is fine; the page it was served is not the best.
          o.sessions.succeeded(session);
          o.sessions.retire(session);
          input.session.current = o.sessions.take(input.session.location);
          kept = { page, attempts: attempt };
          metrics.upstreamRetry(domain, 'second_chance');
          last = { kind: 'retry', reason: 'upstream_error', detail: judgement.detail, blocked: false };
          continue;
        }
        verdict = { kind: 'retry', reason: judgement.reason, detail: judgement.detail, blocked: true };
      }
      if (verdict.kind === 'fail') return failure({ ok: false, reason: verdict.reason, message: verdict.detail, attempts: attempt });
      if (verdict.kind === 'retry' && attempt < o.maxAttempts) metrics.upstreamRetry(domain, verdict.reason);
      if (verdict.kind === 'retry' && verdict.blocked) {
        metrics.upstreamBlocked(domain, egress);
        o.sessions.blocked(session);
        input.session.current = o.sessions.take(input.session.location);
      }
      last = verdict as Extract<Verdict, { kind: 'retry' }>;
      if (last.retryAfterMs !== undefined && last.retryAfterMs > o.maxBackoffMs) {
        return failure({
          ok: false,
          reason: last.reason,
          blockKind: last.blockKind,
          message: `${last.detail}; Retry-After ${Math.ceil(last.retryAfterMs / 1000)} s is beyond the ${o.maxBackoffMs} ms limit`,
          attempts: attempt,
        });
      }
    }
    const final = last as Extract<Verdict, { kind: 'retry' }>;
    return failure({
      ok: false,
      reason: final.reason,
      blockKind: final.blockKind,
      message: `${final.detail} after ${o.maxAttempts} attempts`,
      attempts: o.maxAttempts,
    });
  }
}

/** The marketplace's domain for metrics (`amazon.de`), from the page's URL host. */
function domainOf(url: string): string {
  try {
    const host = new URL(url).hostname;
    return host.startsWith('www.') ? host.slice(4) : host;
  } catch {
    return 'invalid';
  }
}

const abortableSleep = (ms: number, signal?: AbortSignal): Promise<void> => sleepFor(ms, undefined, signal ? { signal } : {});
