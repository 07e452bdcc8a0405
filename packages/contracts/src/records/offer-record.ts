import { Type, type Static } from '@sinclair/typebox';
import { DeliverTo, MissingFields, RecordLocation, RecordPrice, RecordQuality } from '../record-parts.ts';

const O = Type.Optional;

/** The conditions an offer is listed in, as `config.condition` names them. */
export const OFFER_CONDITIONS = ['new', 'used', 'collectible', 'refurbished'] as const;

/** An offers job result: one offer of a product's all-offers view (docs/data.md, "Offer records"). */
export const OfferRecord = Type.Object(
  {
    asin: Type.String({ description: 'The product the offer is of (the target).', examples: ['B08N5WRWNW'] }),
    position: Type.Integer({ minimum: 1, description: 'Place in the all-offers view over every page read, the buy-box offer first.', examples: [3] }),
    page: Type.Integer({ minimum: 1, description: 'The page of offers it was read on (ten offers a page).', examples: [1] }),
    marketplace: O(Type.String({ description: 'The storefront the offer was read on.', examples: ['amazon.de'] })),
    sellerId: O(
      Type.String({ description: "The seller's id, from the link to its profile (none for Amazon's own offers on some pages).", examples: ['A1B2C3D4E5F6G7'] }),
    ),
    sellerName: O(Type.String({ description: 'The seller as the offer names it.', examples: ['Northwind Traders', 'Amazon.com'] })),
    price: O(RecordPrice),
    // shipping: the delivery charge, `amount` 0 when the offer says delivery is free. landedPrice:
    // price plus shipping, absent when either is unknown; its `raw` says what was added.
    shipping: O(RecordPrice),
    landedPrice: O(RecordPrice),
    condition: O(
      Type.Union(
        OFFER_CONDITIONS.map((c) => Type.Literal(c)),
        { description: 'The condition the offer is listed in.' },
      ),
    ),
    conditionRaw: O(Type.String({ description: 'The condition heading as shown.', examples: ['Used - Like New', 'Gebraucht - Sehr gut'] })),
    conditionNote: O(Type.String({ description: "The seller's note on the item's condition.", examples: ['Box opened, item unused.'] })),
    fulfilledByAmazon: O(Type.Boolean({ description: 'Amazon ships it (the "Ships from" line names Amazon).' })),
    shipsFrom: O(Type.String({ description: 'The "Ships from" line as shown.', examples: ['Amazon'] })),
    prime: Type.Boolean({ description: 'The offer carries the Prime badge.' }),
    delivery: O(Type.String({ description: 'The delivery estimate as shown.', examples: ['FREE delivery Friday, May 31'] })),
    buyBox: Type.Boolean({ description: 'This offer holds the buy box (the pinned offer of the view).' }),
    totalOffers: O(
      Type.Integer({
        minimum: 0,
        description: 'Offers the list states it holds (the pinned buy-box offer not counted), on every record of the page.',
        examples: [12],
      }),
    ),
    deliverTo: O(DeliverTo),
    location: O(RecordLocation),
    quality: RecordQuality,
    missingFields: MissingFields,
  },
  { $id: 'OfferRecord', additionalProperties: true, description: 'An offers job result: one offer of a product by one seller.' },
);
export type OfferRecord = Static<typeof OfferRecord>;
