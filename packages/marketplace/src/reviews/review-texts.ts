import { normalizeDigits, parseCount } from '../numbers.ts';

// "One person found this helpful" and its translations: a vote spelled out as a word.
const ONE_PERSON = /^(?:one person|eine person|une personne|a una persona|una persona|één persoon|een persoon|uma pessoa|en person|jedna osoba|bir kişi)\b/i;
const HELPFUL_WORDING = /helpful|hilfreich|utile|útil|nuttig|användbar|przydatn|faydalı|役に立った/i;

/**
 * People who found a review helpful, from its vote statement: `42 people found this helpful`,
 * `One person found this helpful`, `Eine Person fand diese Informationen hilfreich`, `A 42
 * personas les resultó útil`, `42人のお客様がこれが役に立ったと考えています`. Undefined for any other text.
 */
export function helpfulVotesOf(text: string): number | undefined {
  const statement = normalizeDigits(text).trim();
  if (!HELPFUL_WORDING.test(statement)) return undefined;
  if (ONE_PERSON.test(statement)) return 1;
  return parseCount(statement);
}

export interface ReviewTotals {
  totalRatings?: number;
  totalReviews?: number;
}

// A number of the totals line: grouped digits (`1,234`, `1.234`, `1 234`), never a range's end.
const COUNT = /\d+(?:[.,\u00a0\u202f\u2009 ']\d{3})*/g;
const RANGE = /\d+\s*[-–]\s*\d+/;

/**
 * The totals of a review list's filter line: `1,234 global ratings | 321 with reviews` (and its
 * translations: ratings first, reviews second), or the older `Showing 1-10 of 321 reviews` (reviews
 * only). A line with one count and no range is the ratings.
 */
export function reviewTotalsOf(text: string): ReviewTotals {
  const line = normalizeDigits(text);
  if (RANGE.test(line)) {
    const counts = [...line.replace(RANGE, ' ').matchAll(COUNT)].map((m) => parseCount(m[0]));
    const last = counts.at(-1);
    return last === undefined ? {} : { totalReviews: last };
  }
  const counts = [...line.matchAll(COUNT)].map((m) => parseCount(m[0])).filter((n) => n !== undefined);
  const totals: ReviewTotals = {};
  if (counts[0] !== undefined) totals.totalRatings = counts[0];
  if (counts[1] !== undefined) totals.totalReviews = counts[1];
  return totals;
}
