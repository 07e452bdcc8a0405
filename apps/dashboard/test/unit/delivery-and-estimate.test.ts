import type { DestinationDelivery, JobEstimate } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { destinationBodyOf } from '../../src/components/destination-form.tsx';
import { deliveryText, destinationFormatText, destinationWhere, scheduleBudgetText, uploadCountsText } from '../../src/format/delivery-words.ts';
import { balanceText, estimateCreditsText, maxCreditsText, parseMaxCredits, queueText, quotaText } from '../../src/format/job-estimate-words.ts';

const estimate = (change: Partial<JobEstimate> = {}): JobEstimate => ({
  type: 'search',
  targetCount: 2,
  unitsPerTarget: 1,
  creditsPerUnit: 5,
  credits: 10,
  billedPerPageFetched: false,
  withinMaxCredits: true,
  balance: { available: 1_500, reserved: 0, sufficient: true },
  quota: {
    limits: { jobsPerMonth: 100, targetsPerMonth: 1_000, exportsPerMonth: 10 },
    used: { jobsThisMonth: 1, targetsThisMonth: 10, exportsThisMonth: 0 },
    remaining: { jobsPerMonth: 99, targetsPerMonth: 990, exportsPerMonth: 10 },
    exceedsJobs: false,
    exceedsTargets: false,
  },
  queue: { position: 1, targetsAhead: 0, etaSeconds: 90 },
  ...change,
});

describe('job estimate in words', () => {
  it('says credits as a ceiling only for types charged by the pages that yield records', () => {
    expect(estimateCreditsText(estimate())).toBe('10 credits');
    expect(estimateCreditsText(estimate({ type: 'reviews', credits: 1, billedPerPageFetched: true }))).toBe('at most 1 credit');
  });

  it('says whether the balance covers the job, with the figures', () => {
    expect(balanceText(estimate())).toBe('the balance covers it (1,500 available)');
    expect(balanceText(estimate({ credits: 2_000, balance: { available: 1_500, reserved: 0, sufficient: false } }))).toBe(
      'not enough credits: 1,500 available, 2,000 needed',
    );
  });

  it('says the monthly limits the job passes, else what it uses', () => {
    expect(quotaText(estimate())).toBe('uses 2 of the 990 targets left this month');
    const base = estimate().quota;
    expect(quotaText(estimate({ quota: { ...base, exceedsTargets: true } }))).toBe('over the monthly target limit: 2 targets, 990 left this month');
    expect(quotaText(estimate({ quota: { ...base, exceedsJobs: true, exceedsTargets: true } }))).toBe('over the monthly job limit (100 jobs)');
  });

  it('says the queue place and an ETA only once throughput is measured', () => {
    expect(queueText(estimate())).toBe('#1 in your queue, 0 targets ahead, done in about 2 min');
    expect(queueText(estimate({ queue: { position: 3, targetsAhead: 1, etaSeconds: null } }))).toBe(
      '#3 in your queue, 1 target ahead, no ETA until throughput is measured',
    );
  });

  it('reads the cap against the estimate, and nothing without one', () => {
    expect(maxCreditsText(estimate())).toBeNull();
    expect(maxCreditsText(estimate({ maxCredits: 20 }))).toBe('within your cap of 20');
    expect(maxCreditsText(estimate({ maxCredits: 5, withinMaxCredits: false }))).toBe('over your cap of 5: the job would be refused');
  });

  it('parses the cap field: empty is none, separators allowed, zero and fractions refused', () => {
    expect(parseMaxCredits('  ')).toEqual({ value: undefined });
    expect(parseMaxCredits('1,000')).toEqual({ value: 1000 });
    expect('error' in parseMaxCredits('0')).toBe(true);
    expect('error' in parseMaxCredits('2.5')).toBe(true);
    expect('error' in parseMaxCredits('ten')).toBe(true);
  });
});

describe('destinations and deliveries in words', () => {
  it('says where a destination writes and how', () => {
    expect(destinationWhere({ bucket: 'b1', prefix: 'crawl/amazon', endpoint: null, region: 'eu-central-1' })).toBe('s3://b1/crawl/amazon (AWS, eu-central-1)');
    expect(destinationWhere({ bucket: 'b1', prefix: '', endpoint: 'https://s3.example.net', region: 'auto' })).toBe('s3://b1 at https://s3.example.net');
    expect(destinationFormatText({ format: 'csv', gzip: true })).toBe('csv, gzip');
    expect(destinationFormatText({ format: 'json', gzip: false })).toBe('json');
  });

  const delivery = (change: Partial<DestinationDelivery>): DestinationDelivery => ({
    id: 'd1',
    jobId: 'j1',
    destinationId: 'x1',
    status: 'pending',
    attempts: [],
    attemptCount: 0,
    nextAttemptAt: null,
    lastError: null,
    deliveredAt: null,
    manifestKey: null,
    rows: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...change,
  });

  it('says what a delivery wrote, or why it failed', () => {
    expect(deliveryText(delivery({ status: 'delivered', attemptCount: 1, rows: 1_234 }))).toBe('delivered after 1 attempt, 1,234 rows');
    expect(deliveryText(delivery({ status: 'failed', attemptCount: 3, lastError: 'NoSuchBucket' }))).toBe('failed, 3 attempts: NoSuchBucket');
  });

  it('builds the create body from the form, optional fields left out and gzip from the box', () => {
    const data = new FormData();
    for (const [k, v] of Object.entries({
      bucket: ' b1 ',
      region: 'us-east-1',
      accessKeyId: 'AK',
      secretAccessKey: ' s ',
      format: 'csv',
      prefix: '',
      name: 'Main',
    }))
      data.set(k, v);
    expect(destinationBodyOf(data)).toEqual({
      type: 's3',
      bucket: 'b1',
      region: 'us-east-1',
      accessKeyId: 'AK',
      secretAccessKey: ' s ',
      format: 'csv',
      gzip: false,
      name: 'Main',
    });
    data.set('gzip', 'on');
    expect(destinationBodyOf(data).gzip).toBe(true);
  });
});

describe('schedule budgets and list uploads in words', () => {
  it("says a schedule's month against its budget and why it is paused", () => {
    const budget = { month: '2026-11', credits: 120 };
    expect(scheduleBudgetText({ maxCreditsPerMonth: null, budget, pausedReason: null, pausedUntil: null })).toBe('no monthly budget (120 credits in 2026-11)');
    expect(scheduleBudgetText({ maxCreditsPerMonth: 1_000, budget, pausedReason: null, pausedUntil: null })).toBe('120 of 1,000 credits in 2026-11');
    expect(scheduleBudgetText({ maxCreditsPerMonth: 150, budget, pausedReason: 'budget_exhausted', pausedUntil: '2026-12-01T00:00:00.000Z' })).toBe(
      '120 of 150 credits in 2026-11 · paused until 2026-12-01: the next run would pass the monthly budget',
    );
  });

  it("counts an upload's targets", () => {
    const list = {
      id: 'l',
      projectId: 'p',
      name: 'n',
      type: 'details' as const,
      createdAt: '',
      counts: { received: 5, accepted: 3, duplicates: 1, rejected: 1 },
    };
    expect(uploadCountsText({ list })).toBe('3 accepted, 1 duplicate, 1 rejected');
  });
});
