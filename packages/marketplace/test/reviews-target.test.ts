import { describe, expect, it } from 'vitest';
import { KIND_TARGETS } from '../src/index.ts';
import { resolveReviewsTarget } from '../src/targets/reviews-target.ts';

describe('resolveReviewsTarget', () => {
  it('is the reviews kind resolver', () => {
    expect(KIND_TARGETS.reviews).toBe(resolveReviewsTarget);
  });

  it.each([
    ['b0testrev1', { ok: true, id: 'B0TESTREV1' }],
    [
      'https://www.amazon.de/product-reviews/B0TESTREV1/ref=cm_cr_dp_d_show_all_btm?ie=UTF8&reviewerType=all_reviews',
      { ok: true, id: 'B0TESTREV1', marketplace: 'amazon.de' },
    ],
    ['https://www.amazon.com/Nordvik-Kettle/product-reviews/B0TESTREV1', { ok: true, id: 'B0TESTREV1', marketplace: 'amazon.com' }],
    ['www.amazon.co.jp/dp/B0TESTREV1', { ok: true, id: 'B0TESTREV1', marketplace: 'amazon.co.jp' }],
    ['http://127.0.0.1:4010/product-reviews/B0TESTREV1', { ok: true, id: 'B0TESTREV1' }],
  ])('%s', (value, expected) => {
    expect(resolveReviewsTarget(value, { extraHosts: ['127.0.0.1:4010'] })).toEqual(expected);
  });

  it.each([
    ['', 'empty value'],
    ['kettle', 'not an ASIN or a review list URL'],
    ['ftp://www.amazon.com/product-reviews/B0TESTREV1', 'unsupported URL scheme ftp'],
    ['https://user:pw@www.amazon.com/product-reviews/B0TESTREV1', 'URL must not contain credentials'],
    ['https://evil.example/product-reviews/B0TESTREV1', 'host evil.example is not an allowed marketplace'],
    ['https://www.amazon.com/gp/customer-reviews/R1TESTAAAA0001', 'URL names no product (expected /product-reviews/<ASIN> or /dp/<ASIN>)'],
    ['https://www.amazon.com/product-reviews/B0TESTREV12', 'URL names no product (expected /product-reviews/<ASIN> or /dp/<ASIN>)'],
  ])('refuses %s', (value, reason) => {
    expect(resolveReviewsTarget(value, {})).toEqual({ ok: false, reason });
  });
});
