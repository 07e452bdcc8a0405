import { expect } from 'vitest';
import type { FaultStack } from './fault-stack.ts';
import { createdJob, newCustomer, sleep, type Customer } from './gateway-client.ts';
import { expectInvariants, jobsOf } from './invariants.ts';

/** Keywords with this word are served `timings.slowPageMs` late (see SLOW_RULE), so a fault lands while targets run. */
export const SLOW_KEYWORD = 'midjob';
export const slowRule = (slowPageMs: number) => ({ keyword: SLOW_KEYWORD, fault: `slow:${slowPageMs}` as const });

/**
 * One mid-job row: a customer starts two jobs of slow but healthy targets, `inject` breaks
 * something once targets are running (and returns when the fault has cleared), then every
 * invariant must hold and every target must have succeeded, since the upstream never failed.
 */
export async function midJobRow(stack: FaultStack, label: string, inject: () => Promise<void>): Promise<void> {
  const customer = await newCustomer(stack.gateway.url, label);
  const jobIds = [
    await createdJob(customer, { type: 'search', targets: Array.from({ length: 8 }, (_, i) => `${SLOW_KEYWORD} ${label} a${i}`) }),
    await createdJob(customer, { type: 'search', targets: Array.from({ length: 6 }, (_, i) => `${SLOW_KEYWORD} ${label} b${i}`) }),
  ];
  await waitForRunningTarget(stack, customer);
  await inject();
  const jobs = await expectInvariants(stack, customer);
  for (const jobId of jobIds) {
    const job = jobs.find((j) => j._id === jobId)!;
    expect(
      job.targets.map((t) => `${t.value}: ${t.status}${t.reason ? `/${t.reason}` : ''}`),
      'healthy targets succeed despite the fault',
    ).toEqual(job.targets.map((t) => `${t.value}: success`));
    expect(job.status).toBe('completed');
  }
}

async function waitForRunningTarget(stack: FaultStack, customer: Customer): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const jobs = await jobsOf(stack, customer);
    if (jobs.some((job) => job.targets.some((t) => t.status === 'running'))) return;
    await sleep(100);
  }
  throw new Error(`no target started running within 30 s\n${stack.dump()}`);
}
