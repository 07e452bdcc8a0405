import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultParseThreads, openPageParser } from './open-page-parser.ts';
import { inlinePageParser } from './page-parser.ts';
import { ParsePool } from './parse-pool.ts';

describe('how many parse threads a worker gets', () => {
  it('one per core in a worker process of its own, none next to the API (the all-in-one)', () => {
    expect(defaultParseThreads(false)).toBe(availableParallelism());
    expect(defaultParseThreads(true)).toBe(0);
  });

  it('parses inline for 0 threads and on a pool otherwise', async () => {
    const config = { PARSE_QUEUE: 2, PARSE_THREAD_HEAP_MB: 64, MAX_RESPONSE_BYTES: 1024 * 1024 };
    expect(openPageParser(config, 0)).toBe(inlinePageParser);
    const pool = openPageParser(config, 2);
    expect(pool).toBeInstanceOf(ParsePool);
    expect((pool as ParsePool).threads).toBe(2);
    await (pool as ParsePool).close();
  });
});
