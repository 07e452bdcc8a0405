import { Type, type Static } from '@sinclair/typebox';
import { MissingFields, RecordPrice, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

/** A category in a best-seller list's browse tree, outermost first. */
export const BestsellerCategory = Type.Object(
  {
    name: Type.String({ examples: ['Electronics'] }),
    nodeId: O(Type.String({ description: 'Browse node id, when the tree links it.', examples: ['172282'] })),
  },
  { description: 'One level of the browse tree above (and including) the list shown.' },
);

export const BestsellerRecord = Type.Object(
  {
    nodeId: Type.String({ description: 'The browse node id the job asked for.', examples: ['172541'] }),
    list: Type.Union([Type.Literal('bestsellers'), Type.Literal('new-releases'), Type.Literal('movers-and-shakers')], {
      description: 'Which ranked list (`config.list`).',
    }),
    rank: Type.Integer({ minimum: 1, description: 'Place in the list, 1–100 (page 2 holds 51–100).' }),
    asin: Type.String({ examples: ['B08N5WRWNW'] }),
    title: Type.String(),
    url: Type.String({ description: 'Canonical product URL on the storefront: `<origin>/dp/<asin>`.' }),
    price: O(RecordPrice),
    rating: O(Type.Number({ minimum: 0, maximum: 5 })),
    reviewCount: O(Type.Integer({ minimum: 0 })),
    image: O(Type.String()),
    categoryName: O(Type.String({ description: "The list's category as the page names it.", examples: ['Headphones'] })),
    categoryPath: O(Type.Array(BestsellerCategory, { description: 'The browse tree from the top category down to the one shown.' })),
    marketplace: O(Type.String({ examples: ['amazon.de'] })),
    quality: RecordQuality,
    missingFields: MissingFields,
  },
  {
    $id: 'BestsellerRecord',
    additionalProperties: true,
    description: 'A bestsellers job result: one ranked item of a best-seller, new-release or movers list.',
  },
);
export type BestsellerRecord = Static<typeof BestsellerRecord>;
