import { Type, type Static } from '@sinclair/typebox';
import { Badges, DeliverTo, MissingFields, RecordLocation, RecordPrice, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

// In a file of its own so a record made from its fields (a category listing's item) needs no
// import of the union of all records.
export const SearchRecord = Type.Object(
  {
    asin: Type.String(),
    title: Type.String(),
    url: Type.String(),
    image: O(Type.String()),
    price: O(RecordPrice),
    listPrice: O(RecordPrice),
    rank: O(Type.Integer({ minimum: 1, description: 'Organic items only: the position among organic results across all pages of the job.' })),
    position: Type.Integer({ minimum: 1, description: 'On its page, sponsored items included.' }),
    page: Type.Integer({ minimum: 1 }),
    keyword: Type.String(),
    marketplace: O(Type.String()),
    sponsored: Type.Boolean(),
    placement: O(
      Type.Union([Type.Literal('top'), Type.Literal('inline'), Type.Literal('video'), Type.Literal('brand')], { description: 'Sponsored items only.' }),
    ),
    rating: O(Type.Number({ minimum: 0, maximum: 5 })),
    reviewCount: O(Type.Integer({ minimum: 0 })),
    prime: Type.Boolean(),
    badges: O(Badges(['best_seller', 'amazons_choice', 'limited_time_deal'], 'Badges on the card.')),
    coupon: O(Type.String()),
    delivery: O(Type.String()),
    boughtInPastMonth: O(Type.Integer({ minimum: 0, description: 'Lower bound of "10K+ bought in past month".' })),
    searchTotalResults: O(Type.Integer({ minimum: 0, description: "The page's result-count estimate." })),
    relatedSearches: O(Type.Array(Type.String(), { description: "The page's related searches." })),
    deliverTo: O(DeliverTo),
    location: O(RecordLocation),
    quality: RecordQuality,
    missingFields: MissingFields,
    cachedAt: O(Type.String({ format: 'date-time', description: 'Answered from the shared page cache (`config.maxAge`): when the page was fetched.' })),
  },
  { $id: 'SearchRecord', additionalProperties: true, description: 'A search job result: one item of a results page.' },
);
export type SearchRecord = Static<typeof SearchRecord>;
