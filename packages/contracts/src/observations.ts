import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/**
 * The values history keeps of a product, per (organization, marketplace, ASIN, delivery ZIP).
 * `bestSellersRank` is one value per category (`bestSellersRank:<category>` in a change).
 */
export const PRODUCT_TRACKED_FIELDS = [
  'price',
  'listPrice',
  'currency',
  'inStock',
  'availability',
  'buyBoxSeller',
  'offerCount',
  'rating',
  'reviewCount',
  'bestSellersRank',
  'hasCoupon',
  'hasDeal',
] as const;
export type ProductTrackedField = (typeof PRODUCT_TRACKED_FIELDS)[number];

/** The values history keeps of a search result, per (organization, marketplace, keyword, ASIN). */
export const RANK_TRACKED_FIELDS = ['organicRank', 'sponsoredPosition', 'page'] as const;
export type RankTrackedField = (typeof RANK_TRACKED_FIELDS)[number];

export type TrackedField = ProductTrackedField | RankTrackedField;

export const ProductTrackedFieldSchema = Type.Union(PRODUCT_TRACKED_FIELDS.map((field) => Type.Literal(field)));
export const RankTrackedFieldSchema = Type.Union(RANK_TRACKED_FIELDS.map((field) => Type.Literal(field)));
export const TrackedFieldSchema = Type.Union([...PRODUCT_TRACKED_FIELDS, ...RANK_TRACKED_FIELDS].map((field) => Type.Literal(field)));

/** One tracked value: a price's amount, a flag, a seller's name, a rank; null where the page showed none (an explicit absence, e.g. no coupon). */
export const TrackedValue = Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]);
export type TrackedValue = Static<typeof TrackedValue>;

/** What history follows: a product at a delivery location, or a product's place in a keyword's results. */
export const ObservedSubject = Type.Union([
  Type.Object({
    kind: Type.Literal('product'),
    marketplace: Type.String({ examples: ['amazon.de'] }),
    asin: Type.String({ examples: ['B08N5WRWNW'] }),
    zip: Type.Union([Type.String(), Type.Null()], { description: 'The delivery postal code the record was verified for; null when the job set none.' }),
  }),
  Type.Object({
    kind: Type.Literal('rank'),
    marketplace: Type.String({ examples: ['amazon.de'] }),
    keyword: Type.String({ examples: ['usb c cable'] }),
    asin: Type.String({ examples: ['B08N5WRWNW'] }),
  }),
]);
export type ObservedSubject = Static<typeof ObservedSubject>;

/**
 * A tracked value that changed between two checks of the same subject, as the observation write
 * reports it (and as the monitors' rules read it). `field` is a tracked field, or
 * `bestSellersRank:<category>` for one category's rank. No change is reported for a subject's
 * first check, nor for a value the record did not carry (missing, partial or unverified).
 */
export const ObservedChange = Type.Object({
  subject: ObservedSubject,
  field: Type.String({ examples: ['price', 'bestSellersRank:Electronics'] }),
  previous: TrackedValue,
  current: TrackedValue,
  previousObservedAt: Timestamp,
  observedAt: Timestamp,
  jobId: Type.String(),
  /** The result row the current value was read from (`<jobId>:<targetIndex>:<seq>`, seq from 0 in the target's records). */
  resultId: Type.String(),
});
export type ObservedChange = Static<typeof ObservedChange>;
