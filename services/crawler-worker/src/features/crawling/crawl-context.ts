import type { BlockKind, CrawlTask, ReportTargetBody, TargetFailureReason, UnchargedReason } from '@crawl/contracts';
import type { FetchedPage, PageOutcome, PageTries } from '../fetching/index.ts';
import type { PageParser } from '../parsing/index.ts';
import type { Storefront } from './marketplace-origin.ts';

/** Marker for "the job was cancelled while we worked": nothing is reported. */
export const CANCELLED = Symbol('cancelled');
export type Crawled = ReportTargetBody | typeof CANCELLED;

/** What a page kind's crawl gets: the target, where its pages are, and how to fetch and read them. */
export interface CrawlContext {
  task: CrawlTask;
  /** The storefront with the job's shopper options in its query. */
  store: Storefront;
  parser: PageParser;
  /** The tries of a page (see PageTries), to be walked with `pages`. */
  tries(url: string, referer?: string): PageTries;
  /**
   * Walks the tries: before each try the target's session is readied (its delivery location set)
   * and, on a retry, the tries stop if the job no longer wants the target; each page that is no
   * block is yielded, for the crawl to judge on `tries`.
   */
  pages(tries: PageTries): AsyncIterable<FetchedPage>;
  /** How the tries ended, with the requests spent on the delivery location counted in. */
  outcomeOf(tries: PageTries): PageOutcome;
  /** False once the job no longer wants the target (cancelled). */
  stillWanted(): Promise<boolean>;
  /** Record fields the job requires (`config.require`). */
  required: readonly string[];
  /** The delivery postal code the job asked for (`config.deliveryZip`). */
  zip: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The parser failed on a page: the target ends as `parse_error` (another try would read the same). */
export class PageParseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PageParseError';
  }
}

/**
 * Runs a page's parse: a parser error becomes `PageParseError` (the target's `parse_error`), unless
 * the worker is stopping, when the target is handed back unreported.
 */
export async function parseOrFail<T>(ctx: CrawlContext, what: string, parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    throw new PageParseError(`${what} could not be parsed: ${(error as Error).message}`, { cause: error });
  }
}

const MESSAGE_MAX = 1000;

export function failed(reason: TargetFailureReason, message: string, requests: number, blockKind?: BlockKind): ReportTargetBody {
  return { status: 'failed', reason, ...(blockKind ? { blockKind } : {}), message: message.slice(0, MESSAGE_MAX), items: [], requests };
}

export function succeeded(items: ReportTargetBody['items'], requests: number, uncharged?: { reason: UnchargedReason; detail: string }): ReportTargetBody {
  return { status: 'success', items, requests, ...(uncharged ? { uncharged: uncharged.reason, message: uncharged.detail.slice(0, MESSAGE_MAX) } : {}) };
}

/** A failed fetch as the target's report (a cancelled one reports nothing). */
export function failedFetch(outcome: Extract<PageOutcome, { ok: false }>, requests: number, prefix = ''): Crawled {
  if (outcome.reason === 'cancelled') return CANCELLED;
  return failed(outcome.reason, `${prefix}${outcome.message}`, requests, 'blockKind' in outcome ? outcome.blockKind : undefined);
}

/** What a page that is not what was asked for looked like, for the target's message. */
export function describeUnrecognized(page: FetchedPage, kind: string): string {
  const head = page.head ?? (page.body === undefined || page.body.byteLength > 0 ? page.html : '');
  const title = /<title[^>]*>([^<]{1,120})/i.exec(head)?.[1]?.trim();
  return `not a ${kind} page (HTTP ${page.status}, ${page.bytes} bytes${title ? `, titled "${title}"` : ''})`;
}
