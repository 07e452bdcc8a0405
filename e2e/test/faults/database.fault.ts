/**
 * Fault row: the database SIGKILLed mid-job, down for 20 s (FAULT_DB_OUTAGE_MS), then started
 * again on the same data. Infrastructure errors must not use up a target's crawl attempts: every
 * healthy target still succeeds and every job ends within the settle bound after the restart.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultStack, type FaultStack } from './fault-stack.ts';
import { sleep } from './gateway-client.ts';
import { midJobRow, slowRule } from './mid-job.ts';
import { rowTimeout, timings } from './timings.ts';

describe('fault matrix: database outage', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack({ simulator: { faults: { rules: [slowRule(timings.slowPageMs)] } } });
  });
  afterAll(async () => stack?.close());

  it(
    `database SIGKILL for ${timings.databaseOutageMs / 1000} s, restarted on the same data: no healthy target fails, nothing stays open`,
    async () => {
      await midJobRow(stack, 'dbdown', async () => {
        await stack.mongo.kill();
        await sleep(timings.databaseOutageMs);
        await stack.mongo.start();
      });
    },
    rowTimeout(timings.databaseOutageMs + 60_000),
  );
});
