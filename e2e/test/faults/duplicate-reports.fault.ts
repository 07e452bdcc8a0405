/**
 * Fault row: two live deliveries of one target report at once, a success with 30 items and a
 * `blocked` failure, 0–3000 ms apart, in both orders, through the internal report route the
 * worker uses. Exactly one report is applied per target: its status, its `resultCount` and its
 * rows agree, the job's `resultCount` and `/results` agree, and the charge follows the status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultStack, type FaultStack } from './fault-stack.ts';
import { call, createdJob, newCustomer, sleep } from './gateway-client.ts';
import { expectInvariants } from './invariants.ts';
import { rowTimeout, timings } from './timings.ts';

const GAP_SHARES = [0, 0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 1];

describe('fault matrix: conflicting duplicate reports for one target', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack();
  });
  afterAll(async () => stack?.close());

  it(
    'applies exactly one of a success and a blocked failure, whatever their order and gap',
    async () => {
      const customer = await newCustomer(stack.gateway.url, 'dupreport');
      // The worker stays away so the only reports are the two sent here; it returns afterwards
      // and must drop its own deliveries of the already finished targets.
      const worker = stack.workers[0]!;
      expect(await worker.kill('SIGTERM')).toBe(0);
      const targets = GAP_SHARES.map((_, i) => `dupreport ${i}`);
      const jobId = await createdJob(customer, { type: 'search', targets });

      const catalog = stack.catalogs[0]!.url;
      const headers = () => ({ 'x-internal-token': stack.tokens.signService('crawler-worker') });
      const success = {
        status: 'success',
        items: Array.from({ length: 30 }, (_, seq) => ({ asin: `B0DUP${String(seq).padStart(5, '0')}`, title: `Item ${seq}`, position: seq + 1 })),
        requests: 1,
      };
      const blocked = { status: 'failed', reason: 'blocked', message: 'captcha page', items: [], requests: 1 };

      const races = GAP_SHARES.map(async (share, index) => {
        const gapMs = Math.round(share * timings.duplicateReportMaxGapMs);
        const [first, second] = index % 2 === 0 ? [success, blocked] : [blocked, success];
        const claim = await call(catalog, 'POST', `/internal/catalog/jobs/${jobId}/targets/${index}/claim`, { body: {}, headers: headers() });
        expect(claim.status, JSON.stringify(claim.body)).toBe(200);
        const path = `/internal/catalog/jobs/${jobId}/targets/${index}/result`;
        // As the worker does: a 409 (catalog is applying another report of this target) is sent again shortly.
        const report = async (body: object) => {
          const deadline = Date.now() + 30_000;
          for (;;) {
            const reply = await call(catalog, 'POST', path, { body, headers: headers() });
            if (reply.status !== 409 || Date.now() > deadline) return reply;
            await sleep(200);
          }
        };
        let firstAnswered = false;
        const firstReply = report(first).then((reply) => {
          firstAnswered = true;
          return reply;
        });
        await sleep(gapMs);
        const firstDoneBeforeSecond = firstAnswered;
        const secondReply = report(second);
        const replies = await Promise.all([firstReply, secondReply]);
        for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return { index, gapMs, firstStatus: first.status, firstDoneBeforeSecond };
      });
      const raced = await Promise.all(races);
      await worker.start();

      const jobs = await expectInvariants(stack, customer);
      const job = jobs.find((j) => j._id === jobId)!;
      for (const race of raced) {
        const target = job.targets[race.index]!;
        expect(['success', 'failed'], `target ${race.index}`).toContain(target.status);
        if (target.status === 'success') expect(target.resultCount, `target ${race.index}`).toBe(30);
        else expect(target.reason, `target ${race.index}`).toBe('blocked');
        // A report that was answered before the other was sent has won: the later one found the target closed.
        if (race.firstDoneBeforeSecond) expect(target.status, `target ${race.index} after a ${race.gapMs} ms gap`).toBe(race.firstStatus);
      }
      // Both outcomes occurred, so both orders were exercised against the store.
      expect(new Set(job.targets.map((t) => t.status))).toEqual(new Set(['success', 'failed']));
    },
    rowTimeout(timings.duplicateReportMaxGapMs + 30_000),
  );
});
