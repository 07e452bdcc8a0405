import {
  type HistoryPoint,
  HistoryRoutes,
  type KeywordRanks,
  type KeywordRanksQuery,
  type ProductHistory,
  type ProductHistoryQuery,
  type ProductLatestQuery,
  type ProductObservation,
  type ProductTrackedField,
  type RankPoint,
} from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachCursorItem } from '../paging.ts';

/** A field of a product's history: a tracked field (`bestSellersRank` stands for every category), or one category's rank. */
export type HistoryField = ProductTrackedField | `bestSellersRank:${string}`;

/** A moment as an ISO 8601 string or a Date. */
export type HistoryTime = string | Date;

/** The query of `history.product`: `fields` as a list or the API's comma-separated text, `from` and `to` as Dates or ISO strings. */
export type ProductHistoryOptions = Omit<ProductHistoryQuery, 'fields' | 'from' | 'to'> & {
  fields?: string | readonly HistoryField[];
  from?: HistoryTime;
  to?: HistoryTime;
};

export type KeywordRanksOptions = Omit<KeywordRanksQuery, 'from' | 'to'> & { from?: HistoryTime; to?: HistoryTime };

const isoOf = (time: HistoryTime | undefined): string | undefined => (time instanceof Date ? time.toISOString() : time);

function productQuery(options: ProductHistoryOptions): ProductHistoryQuery {
  const { fields, from, to, ...rest } = options;
  const query: ProductHistoryQuery = { ...rest };
  if (fields !== undefined) query.fields = typeof fields === 'string' ? fields : fields.join(',');
  if (from !== undefined) query.from = isoOf(from) as string;
  if (to !== undefined) query.to = isoOf(to) as string;
  return query;
}

function ranksQuery(options: KeywordRanksOptions): KeywordRanksQuery {
  const { from, to, ...rest } = options;
  return { ...rest, ...(from !== undefined ? { from: isoOf(from) as string } : {}), ...(to !== undefined ? { to: isoOf(to) as string } : {}) };
}

/**
 * What the organization's jobs observed of products and of keywords' ranks over time, as change
 * points (docs/history.md): a point holds the values from `from` until the last check that saw
 * them (`to`). Pages are cursor-paged; the `iterate…` methods follow `nextCursor` to the end.
 */
export class HistoryApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** One page of a product's change points on one storefront and delivery ZIP, oldest first (`resolution` downsamples for charts). */
  async product(asin: string, options: ProductHistoryOptions = {}, call?: CallOptions): Promise<ProductHistory> {
    return (await this.transport.call(HistoryRoutes.productHistory, { params: { asin }, query: productQuery(options) }, call)).data;
  }

  /** Every change point of the product in the window, fetching a page at a time. */
  iterateProduct(asin: string, options: Omit<ProductHistoryOptions, 'cursor'> = {}, call?: CallOptions): AsyncGenerator<HistoryPoint, void, undefined> {
    return eachCursorItem(async (cursor) => {
      const page = await this.product(asin, { ...options, ...(cursor ? { cursor } : {}) }, call);
      return { items: page.points, nextCursor: page.nextCursor };
    });
  }

  /** The product's latest observed values and when they were last seen; 404 `NOT_FOUND` when it was never observed there. */
  async latest(asin: string, query: ProductLatestQuery = {}, call?: CallOptions): Promise<ProductObservation> {
    return (await this.transport.call(HistoryRoutes.productLatest, { params: { asin }, query }, call)).data;
  }

  /** One page of a keyword's rank history: change points by ASIN, then oldest first (one ASIN's with `asin`). */
  async keywordRanks(keyword: string, options: KeywordRanksOptions = {}, call?: CallOptions): Promise<KeywordRanks> {
    return (await this.transport.call(HistoryRoutes.keywordRanks, { params: { keyword }, query: ranksQuery(options) }, call)).data;
  }

  /** Every rank point of the keyword in the window, fetching a page at a time. */
  iterateKeywordRanks(keyword: string, options: Omit<KeywordRanksOptions, 'cursor'> = {}, call?: CallOptions): AsyncGenerator<RankPoint, void, undefined> {
    return eachCursorItem(async (cursor) => {
      const page = await this.keywordRanks(keyword, { ...options, ...(cursor ? { cursor } : {}) }, call);
      return { items: page.points, nextCursor: page.nextCursor };
    });
  }
}
