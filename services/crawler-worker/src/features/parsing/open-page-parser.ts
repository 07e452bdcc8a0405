import { availableParallelism } from 'node:os';
import { inlinePageParser, type PageParser } from './page-parser.ts';
import { ParsePool } from './parse-pool.ts';

export interface PageParserConfig {
  /** Unset: one thread per core; 0: parse on the event loop. */
  PARSE_THREADS?: number | undefined;
  PARSE_QUEUE: number;
  PARSE_THREAD_HEAP_MB: number;
  /** The fetcher's cap (bytes after decompression), checked again before a page enters the pool. */
  MAX_RESPONSE_BYTES: number;
}

/**
 * Parse threads when PARSE_THREADS is unset: one per core where the worker has its process to
 * itself; none where it shares one with the API (the all-in-one). There the crawl is held to the
 * upstream rate (a page a second by default, ~15–40 ms of parsing each), while every thread costs
 * about 95 MB of RSS (its own V8 heap and module graph; measured with MALLOC_ARENA_MAX=2 and
 * `pnpm start`'s heap flags), which would take the all-in-one past its memory budget.
 */
export function defaultParseThreads(sharesProcessWithApi: boolean): number {
  return sharesProcessWithApi ? 0 : availableParallelism();
}

/** The worker's parser: a pool of `threads` threads, or inline for 0. */
export function openPageParser(config: PageParserConfig, threads: number): PageParser {
  if (threads === 0) return inlinePageParser;
  return new ParsePool({ threads, queue: config.PARSE_QUEUE, threadHeapMb: config.PARSE_THREAD_HEAP_MB, maxPageBytes: config.MAX_RESPONSE_BYTES });
}
