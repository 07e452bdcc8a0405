import { Type, type Static } from '@sinclair/typebox';
import { Badges, DeliverTo, MissingFields, RecordLocation, RecordPrice, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

// A category listing is a results page: its items have a search item's fields (built here from the
// same parts as SearchRecord, without its keyword), plus the category they were listed under.
export const CategoryItemRecord = Type.Object(
  {
    nodeId: Type.String({ description: 'The browse node id the job asked for.', examples: ['172541'] }),
    categoryName: O(Type.String({ description: 'The category as the listing names it.', examples: ['Headphones'] })),
    asin: Type.String(),
    title: Type.String(),
    url: Type.String(),
    image: O(Type.String()),
    price: O(RecordPrice),
    listPrice: O(RecordPrice),
    rank: O(Type.Integer({ minimum: 1, description: 'Organic items only: the position among organic items across all pages of the job.' })),
    position: Type.Integer({ minimum: 1, description: 'On its page, sponsored items included.' }),
    page: Type.Integer({ minimum: 1 }),
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
    deliverTo: O(DeliverTo),
    location: O(RecordLocation),
    quality: RecordQuality,
    missingFields: MissingFields,
  },
  { $id: 'CategoryItemRecord', additionalProperties: true, description: 'A category job result: one item of a category listing page.' },
);
export type CategoryItemRecord = Static<typeof CategoryItemRecord>;
