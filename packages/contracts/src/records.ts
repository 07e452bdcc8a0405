import { Type, type Static } from '@sinclair/typebox';
import { BestsellerRecord } from './records/bestseller-record.ts';
import { SearchRecord } from './records/search-record.ts';
import { CategoryItemRecord } from './records/category-item-record.ts';
import { OfferRecord } from './records/offer-record.ts';
import { ReviewRecord } from './records/review-record.ts';
import { SellerRecord } from './records/seller-record.ts';
import { SuggestionRecord } from './records/suggestion-record.ts';
import { Badges, DeliverTo, MissingFields, RecordLocation, RecordPrice, RecordQuality } from './record-parts.ts';

// The records a job's results hold (docs/data.md lists every field with an example and the page
// kinds that have it). A field a page does not show is absent; `missingFields` names those.
// Open objects: a record may carry fields added later, and the storage keeps what the crawler sent.

const O = Type.Optional;

export { RecordLocation, RecordPrice, RecordQuality } from './record-parts.ts';
export * from './records/bestseller-record.ts';
export * from './records/category-item-record.ts';
export * from './records/offer-record.ts';
export * from './records/review-record.ts';
export * from './records/seller-record.ts';
export * from './records/suggestion-record.ts';

export const ProductRecord = Type.Object(
  {
    asin: Type.String({ examples: ['B08N5WRWNW'] }),
    requestedAsin: O(Type.String({ description: 'The ASIN asked for, when the page is another variation.' })),
    marketplace: O(Type.String({ examples: ['amazon.de'] })),
    title: Type.String(),
    url: Type.String(),
    parentAsin: O(Type.String()),
    brand: O(Type.String()),
    authors: O(Type.Array(Type.Object({ name: Type.String(), role: O(Type.String()) }))),
    manufacturer: O(Type.String()),
    modelNumber: O(Type.String()),
    format: O(Type.String({ examples: ['Paperback', 'Kindle'] })),
    formats: O(Type.Array(Type.Object({ name: Type.String(), price: O(RecordPrice), selected: Type.Boolean() }))),
    price: O(RecordPrice),
    listPrice: O(RecordPrice),
    savings: O(Type.Object({ price: O(RecordPrice), percent: O(Type.Number()) })),
    coupon: O(Type.String()),
    deal: O(Type.String()),
    currency: O(Type.String()),
    rating: O(Type.Number({ minimum: 0, maximum: 5 })),
    reviewCount: O(Type.Integer({ minimum: 0 })),
    starHistogram: O(
      Type.Object(
        { fiveStar: O(Type.Number()), fourStar: O(Type.Number()), threeStar: O(Type.Number()), twoStar: O(Type.Number()), oneStar: O(Type.Number()) },
        { description: 'Percent of ratings per star count.' },
      ),
    ),
    availability: O(Type.String()),
    inStock: O(Type.Boolean()),
    seller: O(Type.String()),
    shipsFrom: O(Type.String()),
    fulfilledByAmazon: O(Type.Boolean()),
    prime: O(Type.Boolean()),
    delivery: O(Type.String()),
    otherOffersCount: O(Type.Integer({ minimum: 0 })),
    features: O(Type.Array(Type.String())),
    description: O(Type.String()),
    images: O(Type.Array(Type.String())),
    videoCount: O(Type.Integer({ minimum: 0 })),
    specifications: O(Type.Record(Type.String(), Type.String(), { description: 'Technical details and product overview: label → value.' })),
    details: O(Type.Record(Type.String(), Type.String(), { description: 'Product information rows: label → value.' })),
    dimensions: O(Type.String()),
    weight: O(Type.String()),
    firstAvailable: O(
      Type.Object({
        raw: Type.String(),
        date: O(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'ISO date, when the raw text could be read.' })),
      }),
    ),
    categories: O(Type.Array(Type.String())),
    breadcrumbs: O(Type.Array(Type.Object({ name: Type.String(), nodeId: O(Type.String()), url: O(Type.String()) }))),
    bestSellersRank: O(Type.Array(Type.Object({ rank: Type.Integer({ minimum: 1 }), category: Type.String(), link: O(Type.String()) }))),
    variations: O(Type.Array(Type.Object({ asin: Type.String(), dimension: O(Type.String()), label: O(Type.String()), selected: Type.Boolean() }))),
    badges: O(Badges(['amazons_choice', 'best_seller', 'climate_pledge_friendly', 'small_business'], 'Badges on the page.')),
    deliverTo: O(DeliverTo),
    location: O(RecordLocation),
    quality: RecordQuality,
    missingFields: MissingFields,
    cachedAt: O(Type.String({ format: 'date-time', description: 'Answered from the shared page cache (`config.maxAge`): when the page was fetched.' })),
  },
  { $id: 'ProductRecord', additionalProperties: true, description: 'A details job result: one product page.' },
);
export type ProductRecord = Static<typeof ProductRecord>;

export { SearchRecord } from './records/search-record.ts';

/** Any record, as a job's results and JSON export hold them (one kind per job, by its type). */
export const ResultRecord = Type.Union(
  [ProductRecord, SearchRecord, ReviewRecord, OfferRecord, BestsellerRecord, CategoryItemRecord, SellerRecord, SuggestionRecord],
  {
    description:
      'ProductRecord (details jobs), SearchRecord (search), ReviewRecord (reviews), OfferRecord (offers), BestsellerRecord (bestsellers), CategoryItemRecord (category), SellerRecord (seller) or SuggestionRecord (autocomplete).',
  },
);

type AnyRecord = ProductRecord | SearchRecord | ReviewRecord | OfferRecord | BestsellerRecord | CategoryItemRecord | SellerRecord | SuggestionRecord;
type KeysOfAny<T> = T extends unknown ? keyof T : never;
/** The fields only other kinds have, absent: what lets a field of any record be read without first telling which it is. */
type Only<Own> = Own & { [Field in Exclude<KeysOfAny<AnyRecord>, keyof Own>]?: never };

/**
 * A record of a job's results, of the kind its job type gives (RECORD_SCHEMAS). Any field of any
 * kind can be read from it (`record.rank` is a number or undefined); a record of one kind has
 * none of the others' own fields.
 */
export type ResultRecord =
  | Only<ProductRecord>
  | Only<SearchRecord>
  | Only<ReviewRecord>
  | Only<OfferRecord>
  | Only<BestsellerRecord>
  | Only<CategoryItemRecord>
  | Only<SellerRecord>
  | Only<SuggestionRecord>;

/**
 * A record's value for a field named at run time (a CSV or table column, a field a job requires,
 * one whose coverage it shows). The records are open objects, so a name outside the schema may be
 * present too; only the record's own fields count.
 */
export function recordField(record: object, name: string): unknown {
  return Object.hasOwn(record, name) ? Reflect.get(record, name) : undefined;
}
