import type { ParseProductPageOptions, ParseSearchPageOptions, ProductReading, SearchPage } from '@crawl/marketplace';
import { Piscina } from 'piscina';
import type { PageParser, PageSource } from './page-parser.ts';
import type { ParseTask } from './extract-page.ts';
import type { KindOptions, KindReading, PageKind } from './kind-readers.ts';
import { Slots } from './slots.ts';

export interface ParsePoolOptions {
  /** Worker threads (at least 1). */
  threads: number;
  /** Pages handed to the pool beyond one per thread; a caller past that waits with its page. */
  queue: number;
  /** Largest page (its bytes, or characters of a page without them) sent to a thread; a larger one fails to parse. */
  maxPageBytes: number;
  /** Old-generation heap of each thread; a page that needs more fails alone, the thread is replaced. */
  threadHeapMb: number;
  /** How long an idle thread is kept (threads start on demand). */
  idleTimeoutMs?: number;
}

const encoder = new TextEncoder();

/**
 * Extraction on a pool of worker threads (piscina), so every core parses while the event loop keeps
 * fetching. A page crosses as the bytes it was fetched as, in a transferred buffer (moved, not
 * copied; the thread decodes them), and comes back as its extracted data. At most `threads + queue`
 * pages are inside the pool; the rest wait in their fetch lanes, so a burst of fetched pages cannot
 * grow the pool's queue.
 */
export class ParsePool implements PageParser {
  readonly #pool: Piscina<ParseTask, unknown>;
  readonly #slots: Slots;
  readonly #maxPageBytes: number;

  constructor(options: ParsePoolOptions) {
    const threads = Math.max(1, options.threads);
    this.#maxPageBytes = options.maxPageBytes;
    this.#slots = new Slots(threads + Math.max(0, options.queue));
    this.#pool = new Piscina<ParseTask, unknown>({
      filename: new URL('./parse-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      // Never reached (the slots let at most this many in); piscina would reject a task past it.
      maxQueue: threads + Math.max(0, options.queue),
      concurrentTasksPerWorker: 1,
      // A thread must return to its event loop between pages: the decoded page (an external string)
      // is only released then, and piscina's default synchronous wait never does (≈3 MB kept per page).
      atomics: 'async',
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      resourceLimits: { maxOldGenerationSizeMb: options.threadHeapMb },
    });
  }

  get threads(): number {
    return this.#pool.maxThreads;
  }

  async product(source: PageSource, options: ParseProductPageOptions, signal?: AbortSignal): Promise<ProductReading> {
    return (await this.#run(source, (page, charset) => ({ kind: 'product', page, charset, options }), signal)) as ProductReading;
  }

  async search(source: PageSource, options: ParseSearchPageOptions, signal?: AbortSignal): Promise<SearchPage> {
    return (await this.#run(source, (page, charset) => ({ kind: 'search', page, charset, options }), signal)) as SearchPage;
  }

  async read<K extends PageKind>(kind: K, source: PageSource, options: KindOptions<K>, signal?: AbortSignal): Promise<KindReading<K>> {
    return (await this.#run(source, (page, charset) => ({ kind, page, charset, options }) as ParseTask, signal)) as KindReading<K>;
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }

  async #run(source: PageSource, task: (page: Uint8Array, charset: string) => ParseTask, signal: AbortSignal | undefined): Promise<unknown> {
    const size = source.body?.byteLength || source.html.length;
    if (size > this.#maxPageBytes) throw new Error(`page of ${size} bytes exceeds the ${this.#maxPageBytes}-byte parse limit`);
    await this.#slots.acquire();
    try {
      signal?.throwIfAborted();
      const { page, charset } = movableBytes(source);
      return await this.#pool.run(task(page, charset), { transferList: [page.buffer as ArrayBuffer], ...(signal ? { signal } : {}) });
    } finally {
      this.#slots.release();
    }
  }
}

/**
 * Bytes that can be moved to a thread: the fetched body when it owns its whole buffer (a small
 * Buffer may share Node's pool with others, so it is copied), else the text encoded as UTF-8
 * (once a slot is free, so at most threads + queue encoded pages exist at a time).
 */
function movableBytes(source: PageSource): { page: Uint8Array; charset: string } {
  const body = source.body;
  if (body && body.byteLength > 0) {
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
    // `new Uint8Array(body)` copies (a Buffer's slice would share, and Node's pool cannot be transferred).
    return { page: owned ? body : new Uint8Array(body), charset: source.charset ?? 'utf-8' };
  }
  return { page: encoder.encode(source.html), charset: 'utf-8' };
}
