import { JOB_TYPES } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { BILLED_PER_PAGE_FETCHED, jobCost, unitsPerTarget } from '../../src/format/job-cost.ts';
import { optionsConfig, optionsDraftOf } from '../../src/format/job-options.ts';
import { JOB_TYPE_INFO } from '../../src/format/job-types.ts';
import { cellText, columnsOf, defaultColumnsOf, KIND_COLUMNS } from '../../src/format/result-columns.ts';
import { resolvedKey } from '../../src/format/target-outcome.ts';

const two = ['a', 'b', 'a', ' '];

describe('the cost of a job of each type', () => {
  it('holds units per target as the catalog does: pages, pages of ten reviews, ten pages of offers, one otherwise', () => {
    expect(jobCost('search', two, { pages: 3 })).toBe(2 * 5 * 3);
    expect(jobCost('category', two, { pages: 2 })).toBe(2 * 5 * 2);
    expect(jobCost('details', two)).toBe(2 * 2);
    expect(jobCost('reviews', two)).toBe(2 * 1 * 10);
    expect(jobCost('reviews', two, { maxReviews: 305 })).toBe(2 * 1 * 31);
    expect(jobCost('offers', two)).toBe(2 * 1 * 10);
    expect(jobCost('bestsellers', two)).toBe(2 * 5);
    expect(jobCost('seller', two)).toBe(2 * 2);
    expect(jobCost('autocomplete', two)).toBe(2 * 1);
    expect(unitsPerTarget('bestsellers', { pages: 4 })).toBe(1);
  });

  it('is a ceiling for reviews and offers only, charged per page that yields records', () => {
    expect(JOB_TYPES.filter((type) => BILLED_PER_PAGE_FETCHED.has(type))).toEqual(['reviews', 'offers']);
  });
});

describe('the options of the chosen type', () => {
  it('says what every type fetches and what its targets are', () => {
    for (const type of JOB_TYPES) {
      expect(JOB_TYPE_INFO[type].name.length).toBeGreaterThan(0);
      expect(JOB_TYPE_INFO[type].targets.length).toBeGreaterThan(0);
    }
    expect(JOB_TYPE_INFO.reviews.targets).toBe('ASINs or review URLs');
  });

  it("writes only the chosen type's keys, leaving out defaults", () => {
    const draft = {
      ...optionsDraftOf(),
      pages: 3,
      searchSort: 'price_asc' as const,
      stars: [4, 5],
      reviewSort: 'recent' as const,
      verifiedOnly: true,
      maxReviews: 300,
      since: '2026-01-01',
      condition: 'used' as const,
      list: 'new-releases' as const,
    };
    expect(optionsConfig('search', draft)).toEqual({ pages: 3, sort: 'price_asc' });
    expect(optionsConfig('category', draft)).toEqual({ pages: 3, sort: 'price_asc' });
    expect(optionsConfig('reviews', draft)).toEqual({ stars: [5, 4], sort: 'recent', verifiedOnly: true, maxReviews: 300, since: '2026-01-01' });
    expect(optionsConfig('offers', draft)).toEqual({ condition: 'used' });
    expect(optionsConfig('bestsellers', draft)).toEqual({ list: 'new-releases' });
    for (const type of ['details', 'seller', 'autocomplete'] as const) expect(optionsConfig(type, draft)).toEqual({});
    for (const type of JOB_TYPES) expect(optionsConfig(type, optionsDraftOf())).toEqual({});
    // Every star ticked is every star: nothing to filter.
    expect(optionsConfig('reviews', { ...optionsDraftOf(), stars: [1, 2, 3, 4, 5] })).toEqual({});
  });

  it("reads a schedule's config back into the form", () => {
    const config = { stars: [5], sort: 'recent' as const, maxReviews: 50, verifiedOnly: true, since: '2026-02-01' };
    expect(optionsConfig('reviews', optionsDraftOf(config))).toEqual(config);
    expect(optionsConfig('category', optionsDraftOf({ pages: 2, sort: 'newest' }))).toEqual({ pages: 2, sort: 'newest' });
    // A reviews sort is no search sort: a search form starts from its own default.
    expect(optionsDraftOf({ sort: 'recent' }).searchSort).toBe('featured');
  });
});

describe('the results and targets of each kind', () => {
  it("shows each kind's own columns first", () => {
    const review = {
      asin: 'B0SIM00001',
      reviewId: 'R1',
      body: 'text',
      rating: 5,
      title: 'Great',
      date: '2026-03-01',
      verifiedPurchase: true,
      helpfulVotes: 3,
      authorName: 'Kim',
      quality: { status: 'complete' as const, missing: [] },
      missingFields: [],
    };
    expect(columnsOf([review], KIND_COLUMNS.reviews)).toEqual([
      'rating',
      'title',
      'date',
      'verifiedPurchase',
      'helpfulVotes',
      'authorName',
      'asin',
      'body',
      'missingFields',
      'quality',
      'reviewId',
    ]);
    expect(defaultColumnsOf('offers')).toEqual(['position', 'sellerName', 'price', 'shipping', 'landedPrice', 'condition', 'buyBox', 'prime', 'asin']);
    expect(defaultColumnsOf('autocomplete')).toEqual(['position', 'suggestion', 'prefix']);
    expect(defaultColumnsOf('category')).toEqual(defaultColumnsOf('search'));
  });

  it("says a seller's feedback counts by period", () => {
    expect(cellText({ days30: 12, months12: 180, lifetime: 1234 })).toBe('days30 12 · months12 180 · lifetime 1,234');
    expect(cellText({ amount: 4.5, currency: 'USD' })).toBe('4.5 USD');
  });

  it('names the resolved key when it is not the target as typed', () => {
    expect(resolvedKey({ value: 'https://www.amazon.com/zgbs/electronics/172541', status: 'success', key: '172541' })).toBe('172541');
    expect(resolvedKey({ value: 'https://www.amazon.com/product-reviews/B0SIM00001', status: 'success', asin: 'B0SIM00001' })).toBe('B0SIM00001');
    expect(resolvedKey({ value: 'B0SIM00001', status: 'success', asin: 'B0SIM00001' })).toBeUndefined();
  });
});
