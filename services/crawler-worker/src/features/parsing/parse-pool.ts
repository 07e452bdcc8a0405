import type { ParseProductPageOptions, ParseSearchPageOptions, ProductDetails, SearchPage } from '@crawl/marketplace';
import { Piscina } from 'piscina';
import type { PageParser } from './page-parser.ts';
import type { ParseTask } from './parse-worker.ts';
import { Slots } from './slots.ts';

export interface ParsePoolOptions {
  /** Worker threads (at least 1). */
  threads: number;
  /** Pages handed to the pool beyond one per thread; a caller past that waits with its page. */
  queue: number;
  /** Longest page (in UTF-16 code units) sent to a thread; a longer one fails to parse. */
  maxPageChars: number;
  /** Old-generation heap of each thread; a page that needs more fails alone, the thread is replaced. */
  threadHeapMb: number;
  /** How long an idle thread is kept (threads start on demand). */
  idleTimeoutMs?: number;
}

/**
 * Extraction on a pool of worker threads (piscina), so every core parses while the event loop keeps
 * fetching. A page crosses as one flat string (no object graph to clone) and comes back as its
 * extracted data. At most `threads + queue` pages are inside the pool; the rest wait in their
 * fetch lanes, so a burst of fetched pages cannot grow the pool's queue.
 */
export class ParsePool implements PageParser {
  readonly #pool: Piscina<ParseTask, unknown>;
  readonly #slots: Slots;
  readonly #maxPageChars: number;

  constructor(options: ParsePoolOptions) {
    const threads = Math.max(1, options.threads);
    this.#maxPageChars = options.maxPageChars;
    this.#slots = new Slots(threads + Math.max(0, options.queue));
    this.#pool = new Piscina<ParseTask, unknown>({
      filename: new URL('./parse-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      // Never reached: the slots keep at most `queue` pages waiting for a thread.
      maxQueue: Math.max(1, options.queue),
      concurrentTasksPerWorker: 1,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      resourceLimits: { maxOldGenerationSizeMb: options.threadHeapMb },
    });
  }

  get threads(): number {
    return this.#pool.maxThreads;
  }

  async product(html: string, options: ParseProductPageOptions, signal?: AbortSignal): Promise<ProductDetails> {
    return (await this.#run({ kind: 'product', html, options }, signal)) as ProductDetails;
  }

  async search(html: string, options: ParseSearchPageOptions, signal?: AbortSignal): Promise<SearchPage> {
    return (await this.#run({ kind: 'search', html, options }, signal)) as SearchPage;
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }

  async #run(task: ParseTask, signal: AbortSignal | undefined): Promise<unknown> {
    if (task.html.length > this.#maxPageChars)
      throw new Error(`page of ${task.html.length} characters exceeds the ${this.#maxPageChars}-character parse limit`);
    await this.#slots.acquire();
    try {
      signal?.throwIfAborted();
      return await this.#pool.run(task, signal ? { signal } : {});
    } finally {
      this.#slots.release();
    }
  }
}
