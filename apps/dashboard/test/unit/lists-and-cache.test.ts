import { describe, expect, it } from 'vitest';
import { agoText, cachedAtText, cachedPriceNote, parseMaxAge, takesMaxAge } from '../../src/format/page-cache-words.ts';
import { listChoiceText, listJobCost, listNameOf, rejectedLineText, rejectedMoreText, uploadFormatOf } from '../../src/format/target-list-words.ts';

const list = { name: 'Lamps', type: 'details' as const, counts: { received: 5, accepted: 3, duplicates: 1, rejected: 1 } };

describe('target lists in words', () => {
  it('sends .csv files as CSV and everything else as one target a line', () => {
    expect(uploadFormatOf({ name: 'asins.CSV', type: '' })).toBe('csv');
    expect(uploadFormatOf({ name: 'export', type: 'text/csv' })).toBe('csv');
    expect(uploadFormatOf({ name: 'asins.txt', type: 'text/plain' })).toBe('text');
  });

  it('names a list after its file when no name is typed', () => {
    expect(listNameOf('spring lamps.csv')).toBe('spring lamps');
    expect(listNameOf('.csv')).toBe('Targets');
  });

  it('says a refused line with its number, value and reason', () => {
    expect(rejectedLineText({ line: 4, value: 'not-an-asin', reason: 'not an ASIN or product URL' })).toBe('line 4: not-an-asin — not an ASIN or product URL');
  });

  it('says how many refused lines are not listed, and nothing when all are', () => {
    expect(rejectedMoreText(1_250, 20)).toBe('and 1,230 more refused lines not listed');
    expect(rejectedMoreText(21, 20)).toBe('and 1 more refused line not listed');
    expect(rejectedMoreText(3, 3)).toBeNull();
  });

  it("shows a chosen list by name, type and count, and prices it from the list's count", () => {
    expect(listChoiceText(list)).toBe('Lamps (details) · 3 targets');
    expect(listChoiceText({ ...list, counts: { ...list.counts, accepted: 1 } })).toBe('Lamps (details) · 1 target');
    expect(listJobCost('details', list)).toBe(6);
    expect(listJobCost('search', list, { pages: 2 })).toBe(30);
  });
});

describe('the shared page cache in the job form and on a job', () => {
  it('is offered for details and search jobs only', () => {
    expect(takesMaxAge('details')).toBe(true);
    expect(takesMaxAge('search')).toBe(true);
    expect(takesMaxAge('reviews')).toBe(false);
  });

  it('reads "Reuse pages fetched within" as config.maxAge, refusing what the API refuses', () => {
    expect(parseMaxAge('')).toEqual({});
    expect(parseMaxAge(' 6H ')).toEqual({ value: '6h' });
    expect(parseMaxAge('30m')).toEqual({ value: '30m' });
    expect(parseMaxAge('30d')).toEqual({ value: '30d' });
    expect(parseMaxAge('31d')).toEqual({ error: 'Reuse pages fetched within: at most 30d.' });
    for (const wrong of ['90s', '0h', '1w', '1.5h', 'h'])
      expect(parseMaxAge(wrong)).toEqual({ error: 'Reuse pages fetched within: a whole number and m, h or d, e.g. 30m, 6h or 1d.' });
  });

  it('says what a cached target costs by default', () => {
    expect(cachedPriceNote('details')).toContain('1 credit instead of 2');
    expect(cachedPriceNote('search')).toContain('A results page fetched within that time');
    expect(cachedPriceNote('search')).toContain('2 credits instead of 5');
  });

  it("says how old a cached target's page is", () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(cachedAtText('2026-11-28T11:48:00Z', now)).toBe('from cache, fetched 12 min ago');
    expect(agoText('2026-11-28T11:59:40Z', now)).toBe('just now');
    expect(agoText('2026-11-28T09:00:00Z', now)).toBe('3 h ago');
    expect(agoText('2026-11-27T11:00:00Z', now)).toBe('1 day ago');
    expect(agoText('2026-11-25T12:00:00Z', now)).toBe('3 days ago');
  });
});
