import type { Job } from '@crawl/sdk';
import { describe, expect, it } from 'vitest';
import { chargedFor, creditsPerDay } from '../../src/format/credits-per-day.ts';
import { cronInWords, nextRuns } from '../../src/format/cron-words.ts';
import { jobCost, targetsFromText } from '../../src/format/job-cost.ts';
import { cellText, columnsOf, sortRows } from '../../src/format/result-columns.ts';

describe('job cost', () => {
  it('bills distinct non-blank targets: 5 per keyword per page, 2 per ASIN whatever the pages', () => {
    const targets = targetsFromText(' usb-c cable \n\nlamp\r\nusb-c cable\n');
    expect(targets).toEqual(['usb-c cable', 'lamp']);
    expect(jobCost('search', targets)).toBe(10);
    expect(jobCost('search', targets, 3)).toBe(30);
    expect(jobCost('details', targets, 3)).toBe(4);
  });
});

describe('cron in words', () => {
  it('reads a rule with its zone, and says why it cannot read one', () => {
    expect(cronInWords('0 6 * * *')).toEqual({ words: 'At 06:00, every day (UTC)' });
    expect(cronInWords('30 7 * * 1', 'Europe/Berlin')).toEqual({ words: 'At 07:30, only on Monday (Europe/Berlin)' });
    expect('error' in cronInWords('every day')).toBe(true);
  });

  it('lists the next runs in the rule zone', () => {
    const from = new Date('2026-11-22T23:00:00Z');
    expect(nextRuns('0 6 * * *', 'UTC', 2, from).map((d) => d.toISOString())).toEqual(['2026-11-23T06:00:00.000Z', '2026-11-24T06:00:00.000Z']);
    expect(nextRuns('0 6 * * *', 'Europe/Berlin', 1, from).map((d) => d.toISOString())).toEqual(['2026-11-23T05:00:00.000Z']);
    expect(nextRuns('nonsense')).toEqual([]);
  });
});

describe('result columns', () => {
  const rows = [
    { asin: 'A', price: { amount: 20, currency: 'USD' }, rating: 4.1, rank: 2, extra: 'x' },
    { asin: 'B', price: { amount: 5.5, currency: 'USD' }, rank: 1 },
    { asin: 'C', rating: 4.9 },
  ];

  it('puts the usual columns first and shows prices with their currency', () => {
    expect(columnsOf(rows)).toEqual(['rank', 'asin', 'price', 'rating', 'extra']);
    expect(cellText(rows[0]!.price)).toBe('20 USD');
    expect(cellText(undefined)).toBe('');
  });

  it('sorts by price, rating or rank either way, rows without the value last', () => {
    expect(sortRows(rows, 'price', 'asc').map((r) => r.asin)).toEqual(['B', 'A', 'C']);
    expect(sortRows(rows, 'price', 'desc').map((r) => r.asin)).toEqual(['A', 'B', 'C']);
    expect(sortRows(rows, 'rating', 'desc').map((r) => r.asin)).toEqual(['C', 'A', 'B']);
    expect(sortRows(rows, 'rank', 'asc').map((r) => r.asin)).toEqual(['B', 'A', 'C']);
  });
});

describe('credits per day', () => {
  const job = (createdAt: string, status: Job['status'], outcomes: Array<'success' | 'failed' | 'pending'>, creditsReserved: number) =>
    ({ createdAt, status, creditsReserved, targets: outcomes.map((status, i) => ({ value: `t${i}`, status })) }) as unknown as Job;

  it('counts a finished job by its successful targets, an open one by what it holds, per UTC day of the month', () => {
    expect(chargedFor(job('2026-11-02T10:00:00Z', 'completed', ['success', 'failed'], 10))).toBe(5);
    expect(chargedFor(job('2026-11-02T10:00:00Z', 'running', ['success', 'pending'], 10))).toBe(10);
    const series = creditsPerDay(
      [
        job('2026-11-02T10:00:00Z', 'completed', ['success', 'success'], 10),
        job('2026-11-02T23:59:00Z', 'failed', ['failed'], 5),
        job('2026-11-30T00:00:00Z', 'queued', ['pending'], 2),
        job('2026-10-31T12:00:00Z', 'completed', ['success'], 5),
      ],
      '2026-11',
    );
    expect(series.credits).toHaveLength(30);
    expect(series.credits[1]).toBe(10);
    expect(series.credits[29]).toBe(2);
    expect(series.credits.reduce((a, b) => a + b, 0)).toBe(12);
    expect(series.days[0]).toBe(Date.UTC(2026, 10, 1) / 1000);
  });
});
