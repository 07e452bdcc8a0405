import { rngFor } from './rng.ts';

export type CardBadge = 'best_seller' | 'amazons_choice' | 'limited_time_deal';

/** What a search card shows besides the product itself: the same for an ASIN on every page. */
export interface CardExtras {
  badges: CardBadge[];
  /** Coupon percent. */
  couponPercent?: number;
  /** Delivery day of May (the promise line); absent for products without an offer. */
  deliveryDay?: number;
  /** The "bought in past month" lower bound. */
  boughtInPastMonth?: number;
}

const BOUGHT = [50, 100, 200, 500, 1000, 2000, 5000, 10000];

export function cardExtras(asin: string, hasOffer: boolean): CardExtras {
  const rng = rngFor('search-extras', asin);
  const badges: CardBadge[] = [];
  if (rng.chance(0.12)) badges.push('best_seller');
  else if (rng.chance(0.15)) badges.push('amazons_choice');
  if (hasOffer && rng.chance(0.15)) badges.push('limited_time_deal');
  const extras: CardExtras = { badges };
  if (hasOffer && rng.chance(0.2)) extras.couponPercent = rng.pick([5, 10, 15, 20, 25]);
  if (hasOffer) extras.deliveryDay = rng.int(20, 31);
  if (rng.chance(0.4)) extras.boughtInPastMonth = rng.pick(BOUGHT);
  return extras;
}
