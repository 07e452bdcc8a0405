import { Type, type Static } from '@sinclair/typebox';
import { MissingFields, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

/** A reviews job result: one customer review of a product (docs/data.md, "Review records"). */
export const ReviewRecord = Type.Object(
  {
    asin: Type.String({ description: 'The product the review is of (the target).', examples: ['B08N5WRWNW'] }),
    reviewId: Type.String({ description: "The storefront's id of the review.", examples: ['R1ABCDEF2GHIJK'] }),
    marketplace: O(Type.String({ description: 'The storefront the review was read on.', examples: ['amazon.de'] })),
    title: O(Type.String({ description: "The review's headline.", examples: ['Does what it says'] })),
    body: O(Type.String({ description: "The review's text, paragraphs joined by `\\n`." })),
    rating: O(Type.Integer({ minimum: 1, maximum: 5, description: 'Stars the reviewer gave.', examples: [4] })),
    date: O(
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The review date, ISO, when the date line could be read.', examples: ['2024-03-03'] }),
    ),
    dateRaw: O(Type.String({ description: 'The date line as shown.', examples: ['Reviewed in the United States on March 3, 2024'] })),
    country: O(Type.String({ description: 'Where it was reviewed, as the date line names it.', examples: ['the United States', 'Deutschland'] })),
    verifiedPurchase: Type.Boolean({ description: 'The review carries the verified purchase badge.' }),
    helpfulVotes: O(Type.Integer({ minimum: 0, description: 'People who found it helpful; absent when the page shows no count.', examples: [42] })),
    variant: O(Type.String({ description: 'The variation reviewed, as the format strip shows it.', examples: ['Colour: Black | Size: M'] })),
    images: O(Type.Array(Type.String(), { description: "URLs of the reviewer's images." })),
    authorName: O(Type.String({ description: "The reviewer's public name.", examples: ['Kim'] })),
    authorProfileId: O(Type.String({ description: "The reviewer's profile id.", examples: ['amzn1.account.AEXAMPLE1234567'] })),
    source: O(
      Type.Union([Type.Literal('review_list'), Type.Literal('product_page')], {
        description: "Where the review was read: the review list, or the product page's top reviews when the list asked to sign in.",
      }),
    ),
    quality: RecordQuality,
    missingFields: MissingFields,
  },
  { $id: 'ReviewRecord', additionalProperties: true, description: 'A reviews job result: one customer review.' },
);
export type ReviewRecord = Static<typeof ReviewRecord>;
