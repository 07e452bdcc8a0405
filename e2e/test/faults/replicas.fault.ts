/**
 * Fault row: two catalog replicas and two workers on one database and one Redis, both catalogs
 * running the scheduler (1 s tick) while schedules fall due and jobs settle, each worker
 * reporting to a different catalog. Every schedule run fires once, every job is reserved and
 * settled once, and the usual invariants hold.
 */
import type { Document } from '@crawl/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultStack, type FaultStack } from './fault-stack.ts';
import { call, createdJob, newCustomer, sleep } from './gateway-client.ts';
import { expectInvariants } from './invariants.ts';
import { rowTimeout } from './timings.ts';

const SCHEDULES = 5;
const JOBS = 6;

interface ScheduleRow extends Document {
  lastJobId?: string;
  nextRunAt?: string;
}

describe('fault matrix: two catalog replicas and two workers sharing one database and Redis', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack({ catalogs: 2, workers: 2 });
  });
  afterAll(async () => stack?.close());

  it(
    'fires every schedule run once and settles every job once',
    async () => {
      const customer = await newCustomer(stack.gateway.url, 'replicas');
      // Daily crons due a few seconds apart, starting once every schedule is created.
      const firstDue = Math.ceil(Date.now() / 1000) * 1000 + 8_000;
      const scheduleIds: string[] = [];
      for (let i = 0; i < SCHEDULES; i += 1) {
        const at = new Date(firstDue + i * 2_000);
        const created = await call(customer.gateway, 'POST', `/projects/${customer.projectId}/schedules`, {
          token: customer.token,
          body: {
            cron: `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`,
            timezone: 'UTC',
            crawlConfig: { type: 'search', targets: [`replica schedule ${i}`, `replica schedule ${i} extra`] },
          },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        scheduleIds.push(created.body.data.id);
      }
      // User jobs created while the schedules fire.
      const jobIds: string[] = [];
      for (let i = 0; i < JOBS; i += 1) {
        jobIds.push(await createdJob(customer, { type: 'details', targets: [`B0SIM0000${i + 1}`, `B0SIM0001${i}`, 'B0BLOCKED1'] }));
        await sleep(1_500);
      }
      // Past the last due time and a few scheduler ticks of both replicas.
      await sleep(Math.max(0, firstDue + SCHEDULES * 2_000 + 5_000 - Date.now()));

      const jobs = await expectInvariants(stack, customer);
      const schedules = stack.catalogDb.collection<ScheduleRow>('schedules');
      for (const scheduleId of scheduleIds) {
        const runs = jobs.filter((j) => j.scheduleId === scheduleId);
        expect(runs.length, `runs of schedule ${scheduleId}`).toBe(1);
        const schedule = await schedules.findOne({ _id: scheduleId });
        expect(schedule?.lastJobId).toBe(runs[0]!._id);
        expect(Date.parse(schedule?.nextRunAt ?? '') - Date.now(), 'next run is tomorrow').toBeGreaterThan(20 * 3_600_000);
      }
      expect(
        jobs
          .filter((j) => !j.scheduleId)
          .map((j) => j._id)
          .sort(),
      ).toEqual([...jobIds].sort());
    },
    rowTimeout(SCHEDULES * 2_000 + JOBS * 1_500 + 30_000),
  );
});
