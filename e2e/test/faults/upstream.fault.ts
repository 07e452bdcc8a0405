/**
 * Fault row: the marketplace misbehaves (429, 503, CAPTCHA, connection reset, slow and too slow
 * answers), once or every time. Transient faults are retried into a success; persistent ones end
 * the target `failed` with the reason that names them; only successes are charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultStack, type FaultStack } from './fault-stack.ts';
import { createdJob, newCustomer } from './gateway-client.ts';
import { expectInvariants } from './invariants.ts';
import { rowTimeout } from './timings.ts';

/** keyword → what must become of its target. Keywords avoid the simulator's built-in words except where named. */
const SEARCH_CASES: Record<string, { status: 'success' } | { status: 'failed'; reasons: string[] }> = {
  'throttled lamp': { status: 'success' }, // built-in: 429 with Retry-After once
  'flaky lamp': { status: 'success' }, // built-in: 503 once
  'resetonce lamp': { status: 'success' },
  'slowsearch lamp': { status: 'success' }, // built-in: 300 ms late
  'blocked lamp': { status: 'failed', reasons: ['blocked'] }, // built-in: CAPTCHA page every time
  'alwaysthrottle lamp': { status: 'failed', reasons: ['blocked'] },
  'alwaysdown lamp': { status: 'failed', reasons: ['upstream_error'] },
  'alwaysreset lamp': { status: 'failed', reasons: ['upstream_error'] },
  'tooslow lamp': { status: 'failed', reasons: ['timeout'] },
};

const DETAILS_CASES: Record<string, { status: 'success' } | { status: 'failed'; reasons: string[] }> = {
  B0THROTTL1: { status: 'success' },
  B0FLAKY001: { status: 'success' },
  B0RESET001: { status: 'success' },
  B0SLOW0001: { status: 'success' },
  B0BLOCKED1: { status: 'failed', reasons: ['blocked'] },
  B0NOTFOUND: { status: 'failed', reasons: ['not_found'] },
};

describe('fault matrix: upstream 429 / 503 / CAPTCHA / reset / slow', () => {
  let stack: FaultStack;
  beforeAll(async () => {
    stack = await startFaultStack({
      simulator: {
        faults: {
          rules: [
            { keyword: 'resetonce', fault: 'reset', times: 1 },
            { keyword: 'alwaysthrottle', fault: '429' },
            { keyword: 'alwaysdown', fault: '503' },
            { keyword: 'alwaysreset', fault: 'reset' },
            // Beyond the worker's 20 s fetch timeout (FETCH_TIMEOUT_MS default) on every try.
            { keyword: 'tooslow', fault: 'slow:25000' },
          ],
        },
      },
    });
  });
  afterAll(async () => stack?.close());

  it(
    'ends each target with the reason of its fault and charges successes only',
    async () => {
      const customer = await newCustomer(stack.gateway.url, 'upstream');
      const search = await createdJob(customer, { type: 'search', targets: Object.keys(SEARCH_CASES) });
      const details = await createdJob(customer, { type: 'details', targets: Object.keys(DETAILS_CASES) });

      const jobs = await expectInvariants(stack, customer);
      const outcome = (jobId: string) =>
        Object.fromEntries(jobs.find((j) => j._id === jobId)!.targets.map((t) => [t.value, t.status === 'success' ? t.status : `${t.status}/${t.reason}`]));
      const expected = (cases: typeof SEARCH_CASES) =>
        Object.fromEntries(
          Object.entries(cases).map(([value, c]) => [value, c.status === 'success' ? 'success' : expect.toBeOneOf(c.reasons.map((r) => `failed/${r}`))]),
        );
      expect(outcome(search)).toEqual(expected(SEARCH_CASES));
      expect(outcome(details)).toEqual(expected(DETAILS_CASES));
    },
    rowTimeout(0),
  );
});
