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

/** The worker's parser: a pool of threads sized from the cores, or inline when PARSE_THREADS=0. */
export function openPageParser(config: PageParserConfig): PageParser {
  const threads = config.PARSE_THREADS ?? availableParallelism();
  if (threads === 0) return inlinePageParser;
  return new ParsePool({ threads, queue: config.PARSE_QUEUE, threadHeapMb: config.PARSE_THREAD_HEAP_MB, maxPageBytes: config.MAX_RESPONSE_BYTES });
}
