import { cleanValue } from '../fields/validate-product.ts';
import { parsePrice, type PriceHint } from '../price.ts';
import { offerCondition } from './offer-condition.ts';
import { type OfferDraft, pickOfferPrice } from './offer-draft.ts';
import { isAmazonName, landedPrice, shippingCharge, withoutRowLabel } from './offer-values.ts';
import { OFFER_ITEM_FIELDS, type OfferItem } from './types.ts';

/**
 * The offer a block shows, values checked as a product's are; undefined when it shows neither a
 * price nor a seller (an empty pinned slot: "no featured offer").
 */
export function assembleOffer(draft: OfferDraft, asin: string, hint: PriceHint): OfferItem | undefined {
  const offer: OfferItem = { asin, position: 0, buyBox: draft.buyBox, prime: draft.prime, missingFields: [] };
  const priceText = pickOfferPrice(draft.prices)?.text ?? draft.apexPrice ?? pickOfferPrice(draft.otherPrices)?.text ?? draft.plainPrice;
  const price = priceText === undefined ? undefined : parsePrice(priceText, hint);
  if (price) offer.price = price;
  const shippingHint = price ? { currency: price.currency } : hint;
  const shipping = shippingCharge(draft.shippingText, shippingHint) ?? shippingCharge(draft.freeShippingText, shippingHint);
  if (shipping) offer.shipping = shipping;
  const landed = landedPrice(price, shipping);
  if (landed) offer.landedPrice = landed;

  const sellerName = cleanValue(draft.sellerName) ?? cleanValue(draft.soldByText === undefined ? undefined : withoutRowLabel(draft.soldByText));
  if (sellerName) offer.sellerName = sellerName;
  if (draft.sellerId) offer.sellerId = draft.sellerId;
  if (offer.price === undefined && offer.sellerName === undefined) return undefined;

  const conditionRaw = cleanValue(draft.conditionText);
  if (conditionRaw) {
    offer.conditionRaw = conditionRaw;
    const condition = offerCondition(conditionRaw);
    if (condition) offer.condition = condition;
  }
  const note = cleanValue(draft.conditionNote);
  if (note) offer.conditionNote = note;
  const shipsFrom = cleanValue(draft.shipsFrom === undefined ? undefined : withoutRowLabel(draft.shipsFrom));
  if (shipsFrom) offer.shipsFrom = shipsFrom;
  // Amazon ships it: the ships-from row names Amazon, the offer carries the fulfilment badge, or
  // Amazon sells it where the row is not shown ("Ships from and sold by Amazon").
  if (shipsFrom !== undefined) offer.fulfilledByAmazon = isAmazonName(shipsFrom) || draft.fulfillmentBadge;
  else if (draft.fulfillmentBadge) offer.fulfilledByAmazon = true;
  else if (sellerName !== undefined && isAmazonName(sellerName)) offer.fulfilledByAmazon = true;
  const delivery = cleanValue(draft.delivery);
  if (delivery) offer.delivery = delivery;
  for (const field of OFFER_ITEM_FIELDS) if (offer[field] === undefined) offer.missingFields.push(field);
  return offer;
}
