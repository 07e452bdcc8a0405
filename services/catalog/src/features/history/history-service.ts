import {
  HISTORY_LIMITS,
  PRODUCT_TRACKED_FIELDS,
  type HistoryPoint,
  type HistoryValues,
  type KeywordRanks,
  type KeywordRanksQuery,
  type ProductHistory,
  type ProductHistoryQuery,
  type ProductLatestQuery,
  type ProductObservation,
  type RankPoint,
  type TrackedValue,
} from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import { errors } from '@crawl/errors';
import { MARKETPLACE_DOMAINS, marketplaceDomainOf } from '@crawl/marketplace';
import type { CatalogResources } from '../shared/resources.ts';
import { decodeCursor, encodeCursor } from './history-cursor.ts';
import { fieldOfStoredKey, fieldSelected, keywordScopeOf, normalizeKeyword, subjectIdOf, type ProductSubjectOf } from './observed-subjects.ts';
import type { ChangePoint, StoredValues } from './change-points.ts';
import type { ObservationDoc, ObservationRepository } from './observation-repository.ts';
import { downsample, type StepPoint } from './step-series.ts';

const BUCKET_MS = { '1h': 3_600_000, '1d': 86_400_000 } as const;
/** Change points read for one downsampled page at most (a subject checked far more often than its buckets). */
const MAX_ROWS_PER_BUCKET_PAGE = 20_000;
const ROW_CHUNK = 1000;

function storefront(domain: string | undefined): string {
  if (domain === undefined) return HISTORY_LIMITS.defaultMarketplace;
  const named = marketplaceDomainOf(domain);
  if (!named)
    throw errors.validation(`domain ${JSON.stringify(domain.slice(0, 100))} is not a supported marketplace; use one of ${MARKETPLACE_DOMAINS.join(', ')}`);
  return named;
}

function timeWindow(query: { from?: string; to?: string }): { from?: string; to?: string } {
  const from = query.from === undefined ? undefined : Date.parse(query.from);
  const to = query.to === undefined ? undefined : Date.parse(query.to);
  if (from !== undefined && Number.isNaN(from)) throw errors.validation('from must be an ISO 8601 date-time');
  if (to !== undefined && Number.isNaN(to)) throw errors.validation('to must be an ISO 8601 date-time');
  if (from !== undefined && to !== undefined && from > to) throw errors.validation('from must not be after to');
  return { ...(from !== undefined ? { from: new Date(from).toISOString() } : {}), ...(to !== undefined ? { to: new Date(to).toISOString() } : {}) };
}

/** `price,bestSellersRank` → the set; undefined for all. @throws VALIDATION_ERROR naming an unknown field. */
function trackedFields(list: string | undefined): ReadonlySet<string> | undefined {
  if (list === undefined) return undefined;
  const fields = list
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  const known = new Set<string>(PRODUCT_TRACKED_FIELDS);
  const unknown = fields.filter((field) => !known.has(field) && !field.startsWith('bestSellersRank:'));
  if (fields.length === 0 || unknown.length > 0) {
    throw errors.validation(`fields ${JSON.stringify(unknown[0] ?? list)} is not a tracked field; tracked fields: ${PRODUCT_TRACKED_FIELDS.join(', ')}`);
  }
  return new Set(fields);
}

function valuesOf(stored: StoredValues, wanted?: ReadonlySet<string>): HistoryValues {
  const keys = Object.keys(stored);
  // The common case (all fields, no encoded category name) hands the stored object on as it is.
  if (!wanted && !keys.some((key) => key.includes('%'))) return stored;
  const values: HistoryValues = {};
  for (const key of keys) {
    const field = fieldOfStoredKey(key);
    if (!wanted || fieldSelected(field, wanted)) values[field] = stored[key] as TrackedValue;
  }
  return values;
}

const limitOf = (limit: number | undefined): number => Math.min(limit ?? HISTORY_LIMITS.defaultLimit, HISTORY_LIMITS.maxLimit);

const pointOf = (row: ObservationDoc, wanted?: ReadonlySet<string>): HistoryPoint => ({
  from: row.firstSeenAt,
  to: row.lastSeenAt,
  checks: row.checks,
  values: valuesOf(row.values, wanted),
});

function rankPointOf(row: ChangePoint): RankPoint {
  const point: RankPoint = { asin: row.asin, from: row.firstSeenAt, to: row.lastSeenAt, checks: row.checks };
  for (const field of ['organicRank', 'sponsoredPosition', 'page'] as const) {
    const value = row.values[field];
    if (value === null || typeof value === 'number') point[field] = value;
  }
  return point;
}

/** History as its readers see it: a product's change points or latest values, a keyword's ranks; and its retention. */
export class HistoryService {
  readonly #observations: ObservationRepository;
  readonly #clock: Clock;
  readonly #retentionMs: number;

  constructor(resources: Pick<CatalogResources, 'clock'>, parts: { observations: ObservationRepository; retentionDays: number }) {
    this.#observations = parts.observations;
    this.#clock = resources.clock;
    this.#retentionMs = parts.retentionDays * 86_400_000;
  }

  async productHistory(organizationId: string, asin: string, query: ProductHistoryQuery): Promise<ProductHistory> {
    const subject: ProductSubjectOf = { kind: 'product', marketplace: storefront(query.domain), asin, zip: query.zip ?? null };
    const window = timeWindow(query);
    const wanted = trackedFields(query.fields);
    const limit = limitOf(query.limit);
    const subjectId = subjectIdOf(organizationId, subject);
    const view = { marketplace: subject.marketplace, asin, zip: subject.zip };
    if (query.resolution !== undefined) {
      const size = BUCKET_MS[query.resolution];
      const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'bucket');
      const startMs = cursor && 'bucket' in cursor ? cursor.bucket : window.from === undefined ? undefined : Date.parse(window.from);
      const { points, next } = await this.#buckets(
        organizationId,
        subjectId,
        { ...window, size, limit, ...(startMs !== undefined ? { startMs } : {}) },
        wanted,
      );
      return { subject: view, points, nextCursor: next === null ? null : encodeCursor({ bucket: next }) };
    }
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'seq');
    const rows = await this.#observations.subjectRows(organizationId, subjectId, {
      ...window,
      limit: limit + 1,
      ...(cursor && 'seq' in cursor ? { afterSeq: cursor.seq } : {}),
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { subject: view, points: page.map((row) => pointOf(row, wanted)), nextCursor: rows.length > limit && last ? encodeCursor({ seq: last.seq }) : null };
  }

  /** The change points read in chunks and downsampled, until a page of buckets is full or they end. */
  async #buckets(
    organizationId: string,
    subjectId: string,
    options: { from?: string; to?: string; size: number; limit: number; startMs?: number },
    wanted: ReadonlySet<string> | undefined,
  ): Promise<{ points: HistoryPoint[]; next: number | null }> {
    const rows: ObservationDoc[] = [];
    const from = options.startMs !== undefined ? new Date(options.startMs).toISOString() : options.from;
    const toMs = options.to === undefined ? undefined : Date.parse(options.to);
    for (;;) {
      const chunk = await this.#observations.subjectRows(organizationId, subjectId, {
        ...(from !== undefined ? { from } : {}),
        ...(options.to !== undefined ? { to: options.to } : {}),
        limit: ROW_CHUNK,
        ...(rows.length > 0 ? { afterSeq: (rows[rows.length - 1] as ObservationDoc).seq } : {}),
      });
      rows.push(...chunk);
      const steps = rows.map((row): StepPoint<ObservationDoc> => ({ from: Date.parse(row.firstSeenAt), to: Date.parse(row.lastSeenAt), row }));
      const { buckets, next } = downsample(steps, {
        size: options.size,
        limit: options.limit,
        ...(options.startMs !== undefined ? { startMs: options.startMs } : {}),
        ...(toMs !== undefined ? { toMs } : {}),
      });
      const ended = chunk.length < ROW_CHUNK;
      const capped = rows.length >= MAX_ROWS_PER_BUCKET_PAGE;
      if (next !== null || ended || capped) {
        // Capped: the last bucket may have more change points to come, so it starts the next page.
        const kept = capped && next === null && !ended ? buckets.slice(0, -1) : buckets;
        const resume = capped && next === null && !ended ? (buckets[buckets.length - 1]?.start ?? null) : next;
        return {
          points: kept.map((bucket) => ({
            from: new Date(bucket.start).toISOString(),
            to: new Date(bucket.to).toISOString(),
            checks: bucket.row.checks,
            values: valuesOf(bucket.row.values, wanted),
          })),
          next: resume,
        };
      }
    }
  }

  /** @throws NOT_FOUND when the organization never observed the product there. */
  async productLatest(organizationId: string, asin: string, query: ProductLatestQuery): Promise<ProductObservation> {
    const subject: ProductSubjectOf = { kind: 'product', marketplace: storefront(query.domain), asin, zip: query.zip ?? null };
    const head = await this.#observations.head(organizationId, subjectIdOf(organizationId, subject));
    if (!head) throw errors.notFound('Product observation');
    return {
      subject: { marketplace: subject.marketplace, asin, zip: subject.zip },
      values: valuesOf(head.values),
      since: head.firstSeenAt,
      lastSeenAt: head.lastSeenAt,
      checks: head.checks,
    };
  }

  async keywordRanks(organizationId: string, rawKeyword: string, query: KeywordRanksQuery): Promise<KeywordRanks> {
    const keyword = normalizeKeyword(rawKeyword);
    if (keyword === '') throw errors.validation('keyword must not be blank');
    const marketplace = storefront(query.domain);
    const window = timeWindow(query);
    const limit = limitOf(query.limit);
    const scopeId = keywordScopeOf(organizationId, marketplace, keyword);
    let after: { asin: string; seq: number } | undefined;
    if (query.asin !== undefined) {
      const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'seq');
      if (cursor && 'seq' in cursor) after = { asin: query.asin, seq: cursor.seq };
    } else {
      const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'asin');
      if (cursor && 'asin' in cursor && cursor.asin !== undefined) after = { asin: cursor.asin, seq: cursor.seq };
    }
    const rows = await this.#observations.keywordRows(organizationId, scopeId, {
      ...window,
      limit: limit + 1,
      ...(query.asin !== undefined ? { asin: query.asin } : {}),
      ...(after ? { after } : {}),
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor(query.asin !== undefined ? { seq: last.seq } : { seq: last.seq, asin: last.asin }) : null;
    return { keyword, marketplace, points: page.map(rankPointOf), nextCursor };
  }

  /** Removes change points last seen longer ago than the retention (HISTORY_RETENTION_DAYS). @returns rows removed. */
  prune(): Promise<number> {
    return this.#observations.prune(new Date(this.#clock.now().getTime() - this.#retentionMs).toISOString());
  }
}
