import type { SearchRecord } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { creditsPerDay } from '../../src/format/credits-per-day.ts';
import { cronInWords, nextRuns } from '../../src/format/cron-words.ts';
import { jobCost, targetsFromText } from '../../src/format/job-cost.ts';
import { cellText, columnsOf, sortRows } from '../../src/format/result-columns.ts';
import { chargedText, targetWhy } from '../../src/format/target-outcome.ts';

describe('job cost', () => {
  it('bills distinct non-blank targets: 5 per keyword per page, 2 per ASIN whatever the pages', () => {
    const targets = targetsFromText(' usb-c cable \n\nlamp\r\nusb-c cable\n');
    expect(targets).toEqual(['usb-c cable', 'lamp']);
    expect(jobCost('search', targets)).toBe(10);
    expect(jobCost('search', targets, { pages: 3 })).toBe(30);
    expect(jobCost('details', targets, { pages: 3 })).toBe(4);
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
  /** A search result: the fields under test over the ones every search record has (records are open: `extra`). */
  const result = (fields: Partial<SearchRecord> & { extra?: string }): SearchRecord => ({
    asin: 'A',
    title: 'Item',
    url: 'https://www.amazon.com/dp/A',
    position: 1,
    page: 1,
    keyword: 'lamp',
    sponsored: false,
    prime: false,
    quality: { status: 'complete', missing: [] },
    missingFields: [],
    ...fields,
  });
  const rows = [
    result({ asin: 'A', price: { amount: 20, currency: 'USD', raw: '$20.00' }, rating: 4.1, rank: 2, extra: 'x' }),
    result({ asin: 'B', price: { amount: 5.5, currency: 'USD', raw: '$5.50' }, rank: 1 }),
    result({ asin: 'C', rating: 4.9, position: 3, sponsored: true }),
  ];

  it('puts the usual columns first and shows prices with their currency', () => {
    expect(columnsOf(rows)).toEqual([
      'rank',
      'asin',
      'title',
      'price',
      'rating',
      'keyword',
      'page',
      'extra',
      'missingFields',
      'position',
      'prime',
      'quality',
      'sponsored',
      'url',
    ]);
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
  it("charts the ledger's days: UTC midnight of each day and the credits spent on it, with the month's total", () => {
    const series = creditsPerDay({
      month: '2026-11',
      days: [
        { date: '2026-11-01', spent: 0, added: 250, chargedTargets: 0, unchargedTargets: 0 },
        { date: '2026-11-02', spent: 12, added: 0, chargedTargets: 6, unchargedTargets: 1 },
        { date: '2026-11-03', spent: 5, added: -3, chargedTargets: 1, unchargedTargets: 2 },
      ],
    });
    expect(series.days).toEqual([Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 2) / 1000, Date.UTC(2026, 10, 3) / 1000]);
    expect(series.credits).toEqual([0, 12, 5]);
    expect(series.spent).toBe(17);
  });
});

describe('target outcomes', () => {
  it('says why a target failed, with the kind of page that blocked it and the crawler detail', () => {
    const blocked = { value: 'a', status: 'failed', reason: 'blocked', blockKind: 'challenge', message: 'challenge (HTTP 200) after 4 attempts' } as const;
    expect(targetWhy(blocked)).toEqual({ summary: 'blocked: challenge page', detail: 'challenge (HTTP 200) after 4 attempts' });
    expect(targetWhy({ value: 'a', status: 'failed', reason: 'unrecognized_page' })).toEqual({ summary: 'unrecognized_page' });
    expect(chargedText(blocked)).toBe('');
  });

  it('says a success was not charged and why, and nothing for a charged one', () => {
    const partial = { value: 'a', status: 'success', charged: false, uncharged: 'partial', message: 'price missing on 1 of 3 records' } as const;
    expect(targetWhy(partial)).toEqual({ summary: 'not charged: a required field is missing', detail: 'price missing on 1 of 3 records' });
    expect(chargedText(partial)).toBe('no');
    expect(targetWhy({ value: 'a', status: 'success', charged: false, uncharged: 'location_unverified' })).toEqual({
      summary: 'not charged: delivery location not verified',
    });
    expect(targetWhy({ value: 'a', status: 'success', charged: true })).toEqual({});
    expect(chargedText({ value: 'a', status: 'success', charged: true })).toBe('yes');
    expect(targetWhy({ value: 'a', status: 'pending' })).toEqual({});
  });
});
