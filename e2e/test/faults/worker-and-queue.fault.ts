/**
 * Fault rows: the crawler-worker killed (SIGKILL) or stopped (SIGTERM) mid-job, and Redis, which
 * holds the queue, restarted empty (no persistence) or flushed while jobs run. In each the jobs
 * must end within the settle bound with every target crawled and stored once.
 */
import { openRedis, whenConnected } from '@crawl/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultStack, type FaultStack } from './fault-stack.ts';
import { sleep } from './gateway-client.ts';
import { midJobRow, slowRule } from './mid-job.ts';
import { rowTimeout, timings } from './timings.ts';

describe('fault matrix: worker kills and queue loss mid-job', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack({ simulator: { faults: { rules: [slowRule(timings.slowPageMs)] } } });
  });
  afterAll(async () => stack?.close());

  it(
    'worker SIGKILL mid-job: its targets are re-run and stored once',
    async () => {
      const worker = stack.workers[0]!;
      await midJobRow(stack, 'wkill', async () => {
        await worker.kill('SIGKILL');
        await sleep(1_000);
        await worker.start();
      });
    },
    rowTimeout(60_000),
  );

  it(
    'worker SIGTERM mid-job: it drains or hands its targets back, and exits cleanly',
    async () => {
      const worker = stack.workers[0]!;
      await midJobRow(stack, 'wterm', async () => {
        expect(await worker.kill('SIGTERM')).toBe(0);
        await worker.start();
      });
    },
    rowTimeout(60_000),
  );

  it(
    'Redis restarted empty mid-job: the lost tasks are queued again',
    async () => {
      await midJobRow(stack, 'rrestart', async () => {
        await stack.redis.kill();
        await sleep(2_000);
        await stack.redis.start();
      });
    },
    rowTimeout(60_000),
  );

  it(
    'Redis FLUSHALL mid-job: the lost tasks are queued again',
    async () => {
      await midJobRow(stack, 'rflush', async () => {
        const redis = openRedis(stack.redis.url, { name: 'fault-suite-flushall' });
        try {
          await whenConnected(redis);
          // The suite's own Redis (fault-stack.ts), never a shared one.
          expect(await redis.flushall()).toBe('OK');
        } finally {
          redis.disconnect();
        }
      });
    },
    rowTimeout(60_000),
  );
});
