import type { JobType, ProductRecord, ResultRecord, SearchRecord, TrackedValue } from '@crawl/contracts';
import { HISTORY_LIMITS } from '@crawl/contracts';
import { marketplaceDomainOf } from '@crawl/marketplace';
import { categoryField, normalizeKeyword, type ProductSubjectOf, type RankSubjectOf } from './observed-subjects.ts';

/** The tracked values one check carries, by change field. A field it does not carry is not in it. */
export type CarriedValues = ReadonlyMap<string, TrackedValue>;

/** One subject's values as one target's records showed them. */
export interface SubjectCheck<S = ProductSubjectOf | RankSubjectOf> {
  subject: S;
  values: CarriedValues;
  /** The result row the values were read from (`<jobId>:<targetIndex>:<seq>`). */
  resultId: string;
}

/** What a target's records are read with: where they came from and what the job asked for. */
export interface TargetRecords {
  jobId: string;
  jobType: JobType;
  targetIndex: number;
  /** `config.domain` and `config.deliveryZip` of the job. */
  config: { domain?: string | undefined; deliveryZip?: string | undefined };
  records: readonly ResultRecord[];
}

/**
 * What a search target's records say about the keyword's ASINs that are not among them: each
 * that was last seen on a page up to `deepestPage` has left the pages checked.
 */
export interface KeywordCoverage {
  marketplace: string;
  keyword: string;
  deepestPage: number;
  present: ReadonlySet<string>;
}

const ASIN = /^[A-Z0-9]{10}$/;

export const resultIdOf = (jobId: string, targetIndex: number, seq: number): string => `${jobId}:${targetIndex}:${seq}`;

function marketplaceOf(record: ResultRecord, config: TargetRecords['config']): string {
  return marketplaceDomainOf(record.marketplace) ?? marketplaceDomainOf(config.domain) ?? HISTORY_LIMITS.defaultMarketplace;
}

/**
 * The delivery postal code a record stands for: the verified one, or null for a job that set
 * none. Undefined: the record says nothing trustworthy (not verified, or a job that asked for a
 * location the record does not confirm) and writes nothing.
 */
function zipOf(record: ResultRecord, config: TargetRecords['config']): string | null | undefined {
  if (record.location) return record.location.verified ? record.location.requested : undefined;
  return config.deliveryZip === undefined ? null : undefined;
}

// The report's items are the worker's records as sent: a value of another type than the record's
// schema gives it (a worker of another version, a hand-made report) is not a value history keeps.
const wholeAbove0 = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;
const numberOrUndefined = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const textOrUndefined = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flagOrUndefined = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** The record fields a tracked field is read from: naming any in `quality.missing` keeps it unwritten. */
const PRODUCT_SOURCES: ReadonlyArray<readonly [field: string, sources: readonly string[], read: (r: ProductRecord) => TrackedValue | undefined]> = [
  ['price', ['price'], (r) => numberOrUndefined(r.price?.amount)],
  ['listPrice', ['listPrice'], (r) => numberOrUndefined(r.listPrice?.amount)],
  ['currency', ['currency', 'price'], (r) => textOrUndefined(r.price?.currency) ?? textOrUndefined(r.currency)],
  ['inStock', ['inStock'], (r) => flagOrUndefined(r.inStock)],
  ['availability', ['availability'], (r) => textOrUndefined(r.availability)],
  ['buyBoxSeller', ['seller'], (r) => textOrUndefined(r.seller)],
  ['offerCount', ['otherOffersCount'], (r) => numberOrUndefined(r.otherOffersCount)],
  ['rating', ['rating'], (r) => numberOrUndefined(r.rating)],
  ['reviewCount', ['reviewCount'], (r) => numberOrUndefined(r.reviewCount)],
  // Presence flags: a record lists an absent coupon or deal in `missingFields`, so "none shown" is an observation.
  ['hasCoupon', ['coupon'], (r) => r.coupon !== undefined],
  ['hasDeal', ['deal'], (r) => r.deal !== undefined],
];

/**
 * The values a product record carries: a field the record lacks, or whose source its
 * `quality.missing` names, is left out (the last known value stands). The best-sellers ranks are
 * one value per category; a category the record's list no longer shows is null (dropped out of
 * that ranking), known only when the record has a list at all.
 */
export function productValues(record: ProductRecord): Map<string, TrackedValue> {
  const missing = new Set(record.quality?.missing ?? []);
  const values = new Map<string, TrackedValue>();
  for (const [field, sources, read] of PRODUCT_SOURCES) {
    if (missing.has(field) || sources.some((source) => missing.has(source))) continue;
    const value = read(record);
    if (value !== undefined) values.set(field, value);
  }
  if (!missing.has('bestSellersRank') && Array.isArray(record.bestSellersRank)) {
    for (const entry of record.bestSellersRank as readonly unknown[]) {
      const { category, rank } = (entry ?? {}) as { category?: unknown; rank?: unknown };
      if (typeof category === 'string' && wholeAbove0(rank)) values.set(categoryField(category), rank as number);
    }
  }
  return values;
}

/** One check per product a details target's records show (the last record of a subject wins). */
export function productChecks(target: TargetRecords): SubjectCheck<ProductSubjectOf>[] {
  const checks = new Map<string, SubjectCheck<ProductSubjectOf>>();
  target.records.forEach((record, seq) => {
    const zip = zipOf(record, target.config);
    const asin = record.asin;
    if (zip === undefined || asin === undefined || !ASIN.test(asin)) return;
    const values = productValues(record as ProductRecord);
    if (values.size === 0) return;
    const subject: ProductSubjectOf = { kind: 'product', marketplace: marketplaceOf(record, target.config), asin, zip };
    checks.set(`${subject.marketplace}|${subject.asin}|${zip}`, { subject, values, resultId: resultIdOf(target.jobId, target.targetIndex, seq) });
  });
  return [...checks.values()];
}

const RANK_SOURCES = ['rank', 'position', 'page', 'sponsored', 'asin'];

/**
 * A search result history can place: its ASIN, keyword, page, position and kind. The report's items
 * are the worker's records as sent; a target with one that is not (a worker of another version, a
 * hand-made report) is observed not at all, rather than failing its report on every delivery.
 */
function isRankSource(record: SearchRecord): boolean {
  return (
    ASIN.test(record.asin) &&
    typeof record.keyword === 'string' &&
    record.keyword.trim() !== '' &&
    wholeAbove0(record.page) &&
    wholeAbove0(record.position) &&
    typeof record.sponsored === 'boolean' &&
    (record.rank === undefined || wholeAbove0(record.rank))
  );
}

interface Appearance {
  record: SearchRecord;
  seq: number;
}

const earlier = (a: Appearance, b: Appearance): boolean =>
  a.record.page < b.record.page || (a.record.page === b.record.page && a.record.position < b.record.position);

/**
 * One check per ASIN of a search target: its best organic rank (null when only an ad of it was
 * shown), the position of its first sponsored placement (null: none) and the page it was on
 * (the organic result's, else the ad's). A value the records do not carry reliably (a rank
 * source in `quality.missing`, an organic item without a rank) is left out. With the coverage,
 * when every organic item has its rank: the ASINs not among them can be marked as gone. On the
 * report path for every search target, so one pass over the records and one over each ASIN's.
 */
export function rankChecks(target: TargetRecords): { checks: SubjectCheck<RankSubjectOf>[]; coverage: KeywordCoverage | undefined } {
  const records = target.records as readonly SearchRecord[];
  const first = records[0];
  if (!first || records.some((record) => record.location?.verified === false || !isRankSource(record))) return { checks: [], coverage: undefined };
  const marketplace = marketplaceOf(first, target.config);
  const keyword = normalizeKeyword(first.keyword);
  let complete = true;
  const byAsin = new Map<string, Appearance[]>();
  records.forEach((record, seq) => {
    if (record.keyword !== first.keyword && normalizeKeyword(record.keyword) !== keyword) return;
    if ((record.quality?.missing ?? []).some((field) => RANK_SOURCES.includes(field)) || (!record.sponsored && record.rank === undefined)) complete = false;
    const appearances = byAsin.get(record.asin);
    if (appearances) appearances.push({ record, seq });
    else byAsin.set(record.asin, [{ record, seq }]);
  });
  const checks: SubjectCheck<RankSubjectOf>[] = [];
  let deepestPage = 0;
  for (const [asin, appearances] of byAsin) {
    let bestOrganic: Appearance | undefined;
    let firstAd: Appearance | undefined;
    let unranked = false;
    let missing: Set<string> | undefined;
    for (const a of appearances) {
      for (const field of a.record.quality?.missing ?? []) (missing ??= new Set()).add(field);
      if (a.record.sponsored) {
        if (!firstAd || earlier(a, firstAd)) firstAd = a;
      } else if (a.record.rank === undefined) unranked = true;
      else if (!bestOrganic || a.record.rank < (bestOrganic.record.rank as number)) bestOrganic = a;
      deepestPage = Math.max(deepestPage, a.record.page);
    }
    const values = new Map<string, TrackedValue>();
    if (!unranked && !missing?.has('rank')) values.set('organicRank', bestOrganic ? (bestOrganic.record.rank as number) : null);
    if (!missing?.has('position')) values.set('sponsoredPosition', firstAd ? firstAd.record.position : null);
    const source = bestOrganic ?? firstAd ?? (appearances[0] as Appearance);
    if (!missing?.has('page')) values.set('page', source.record.page);
    if (values.size > 0) {
      checks.push({ subject: { kind: 'rank', marketplace, keyword, asin }, values, resultId: resultIdOf(target.jobId, target.targetIndex, source.seq) });
    }
  }
  return { checks, coverage: complete && deepestPage > 0 ? { marketplace, keyword, deepestPage, present: new Set(byAsin.keys()) } : undefined };
}
