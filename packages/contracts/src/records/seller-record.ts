import { Type, type Static } from '@sinclair/typebox';
import { MissingFields, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

const Count = (description: string) => O(Type.Integer({ minimum: 0, description }));

/** A seller job result: one seller's profile (docs/data.md, "Seller records"). */
export const SellerRecord = Type.Object(
  {
    sellerId: Type.String({ description: "The seller's id (the target).", examples: ['A1B2C3D4E5F6G7'] }),
    marketplace: O(Type.String({ description: 'The storefront the profile was read on.', examples: ['amazon.de'] })),
    name: O(Type.String({ description: 'The seller name the profile shows.', examples: ['Northwind Traders'] })),
    url: Type.String({ description: "The profile's URL on the storefront.", examples: ['https://www.amazon.com/sp?seller=A1B2C3D4E5F6G7'] }),
    ratingPercent: O(Type.Integer({ minimum: 0, maximum: 100, description: 'Positive feedback over the last 12 months, percent.', examples: [95] })),
    ratingCount: O(Type.Integer({ minimum: 0, description: 'Ratings the summary line counts (`(1,234 ratings)`).', examples: [1234] })),
    feedback: O(
      Type.Object(
        { days30: Count('Last 30 days.'), days90: Count('Last 90 days.'), months12: Count('Last 12 months.'), lifetime: Count('Lifetime.') },
        { description: 'Feedback counts per period, from the feedback table.' },
      ),
    ),
    businessName: O(Type.String({ description: 'The "Business Name" row of the detailed seller information.', examples: ['Northwind Traders GmbH'] })),
    businessAddress: O(Type.String({ description: 'The "Business Address" lines, joined by `, `.', examples: ['Hauptstr. 1, 10115 Berlin, DE'] })),
    storefrontUrl: O(
      Type.String({ description: "The link to the seller's products (`/s?me=<id>`).", examples: ['https://www.amazon.com/s?me=A1B2C3D4E5F6G7'] }),
    ),
    quality: RecordQuality,
    missingFields: MissingFields,
  },
  { $id: 'SellerRecord', additionalProperties: true, description: "A seller job result: one seller's profile." },
);
export type SellerRecord = Static<typeof SellerRecord>;
