import { describe, expect, it } from 'vitest';
import { parseCount, parseRating } from '../src/index.ts';

describe('parseRating', () => {
  it.each([
    ['4.7 out of 5 stars', 4.7],
    ['4,7 von 5 Sternen', 4.7],
    ['4,5 sur 5 étoiles', 4.5],
    ['5つ星のうち4.3', 4.3],
    ['5 yıldız üzerinden 4,1', 4.1],
    ['5 out of 5 stars', 5],
    ['5.0 out of 5 stars', 5],
    ['5つ星のうち5.0', 5],
    ['4 out of 5', 4],
  ])('%j → %d', (text, rating) => {
    expect(parseRating(text)).toBe(rating);
  });

  it('rejects text without a plausible rating', () => {
    expect(parseRating('Prime')).toBeUndefined();
    expect(parseRating('29,836')).toBeUndefined();
  });
});

describe('parseCount', () => {
  it.each([
    ['29,836 ratings', 29836],
    ['29.836 Sternebewertungen', 29836],
    ['1\u00a0234 évaluations', 1234],
    ['29,836個の評価', 29836],
    ['(1,234)', 1234],
    ['1 global rating', 1],
  ])('%j → %d', (text, count) => {
    expect(parseCount(text)).toBe(count);
  });

  it('refuses abbreviated counts instead of guessing', () => {
    expect(parseCount('1.2K')).toBeUndefined();
    expect(parseCount('(54,3K)')).toBeUndefined();
    expect(parseCount('no ratings')).toBeUndefined();
  });
});
