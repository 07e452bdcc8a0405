/**
 * Fault rows behind the gateway: auth, billing or catalog killed. While a service is down its
 * routes answer 503 with Retry-After in the error envelope (never a 500); once it is back they
 * work again and the jobs in flight settle. And catalog killed during a burst of creates: every
 * client gets 201 or a 502/503, and billing holds nothing for a job that was never stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultStack, type FaultStack, type ServiceProcess } from './fault-stack.ts';
import { call, createJob, createdJob, newCustomer, sleep, type Customer, type Reply } from './gateway-client.ts';
import { expectInvariants, jobsOf } from './invariants.ts';
import { rowTimeout, timings } from './timings.ts';

/** Creates of the burst start this far apart, so the kill lands while some are in flight and some not yet sent. */
const BURST_SPACING_MS = 100;

function expectUnavailable(reply: Reply, what: string): void {
  const summary = `${what}: ${reply.status} ${JSON.stringify(reply.body)}`;
  expect(reply.status, summary).toBe(503);
  expect(reply.headers.get('retry-after'), summary).toMatch(/^\d+$/);
  expect(reply.body?.error, summary).toMatchObject({ code: expect.any(String), message: expect.any(String) });
}

describe('fault matrix: services killed behind the gateway', () => {
  let stack: FaultStack;
  let customer: Customer;
  const password = 'a-long-enough-password';
  let email: string;
  beforeAll(async () => {
    stack = await startFaultStack();
    customer = await newCustomer(stack.gateway.url, 'svckill');
    email = (await call(stack.gateway.url, 'GET', '/auth/me', { token: customer.token })).body.data.user.email;
  });
  afterAll(async () => stack?.close());

  /** A route of the killed service, asked through the gateway. */
  const probes: Record<'auth' | 'billing' | 'catalog', () => Promise<Reply>> = {
    auth: () => call(stack.gateway.url, 'POST', '/auth/login', { body: { email, password } }),
    billing: () => call(stack.gateway.url, 'GET', '/usage', { token: customer.token }),
    catalog: () => call(stack.gateway.url, 'GET', '/projects', { token: customer.token }),
  };
  const serviceOf = (name: keyof typeof probes): ServiceProcess => (name === 'catalog' ? stack.catalogs[0]! : stack[name]);

  for (const name of ['auth', 'billing', 'catalog'] as const) {
    it(
      `${name} killed: 503 with Retry-After while down, served again once back, jobs settle`,
      async () => {
        const jobId = await createdJob(customer, { type: 'details', targets: ['B0SIM00001', 'B0SIM00002'] });
        const service = serviceOf(name);
        await service.kill('SIGKILL');
        try {
          expectUnavailable(await probes[name](), `${name} down`);
        } finally {
          await service.start();
        }
        const back = await probes[name]();
        expect(back.status, JSON.stringify(back.body)).toBe(200);
        const jobs = await expectInvariants(stack, customer);
        expect(jobs.find((j) => j._id === jobId)?.status).toBe('completed');
      },
      rowTimeout(60_000),
    );
  }

  it(
    `catalog killed during a burst of ${timings.burstCreates} creates: 201 or 503 each, no reservation left without its job`,
    async () => {
      const burster = await newCustomer(stack.gateway.url, 'burst');
      const catalog = stack.catalogs[0]!;
      let created = 0;
      const replies = Array.from({ length: timings.burstCreates }, async (_, i) => {
        await sleep(i * BURST_SPACING_MS);
        const reply = await createJob(burster, { type: 'details', targets: [`B0SIM${String((i % 50) + 1).padStart(5, '0')}`] });
        if (reply.status === 201) created += 1;
        return reply;
      });
      // Killed once a few creates are through: others are then in flight or not sent yet.
      const killAfter = Math.min(5, Math.ceil(timings.burstCreates / 8));
      const deadline = Date.now() + 30_000;
      while (created < killAfter && Date.now() < deadline) await sleep(10);
      await catalog.kill('SIGKILL');
      const answered = await Promise.all(replies);
      await catalog.start();

      const statuses = answered.map((r) => r.status);
      const unexpected = answered.filter((r) => ![201, 502, 503].includes(r.status));
      expect(
        unexpected.map((r) => `${r.status} ${JSON.stringify(r.body)}`),
        `statuses ${statuses.join(',')}`,
      ).toEqual([]);
      for (const reply of answered.filter((r) => r.status !== 201)) expect(reply.body?.error?.code).toEqual(expect.any(String));
      expect(statuses).toContain(201);

      const jobs = await expectInvariants(stack, burster);
      // Every 201 names a stored job.
      const stored = new Set((await jobsOf(stack, burster)).map((j) => j._id));
      for (const reply of answered.filter((r) => r.status === 201)) expect(stored.has(reply.body.data.id)).toBe(true);
      expect(jobs.length).toBeGreaterThanOrEqual(statuses.filter((s) => s === 201).length);
    },
    rowTimeout(60_000),
  );
});
