import type { PriceElement } from '../html/price-element.ts';

/** Everything seen inside one result card; turned into a SearchItem when the card closes. */
export interface ItemDraft {
  asin: string;
  sponsored: boolean;
  headings: { text: string; linked: boolean }[];
  /** `title` attribute of the legacy `a.s-access-detail-page` link. */
  linkTitle: string | undefined;
  image: string | undefined;
  prices: PriceElement[];
  /** Legacy plain-text prices (`span.s-price`, `span.a-text-strike`). */
  plainPrice: string | undefined;
  plainListPrice: string | undefined;
  ratingText: string | undefined;
  reviewLabel: string | undefined;
  reviewText: string | undefined;
  prime: boolean;
  badgeTexts: string[];
  coupon: string | undefined;
  delivery: string | undefined;
  reviewsBlock: string | undefined;
  /** A secondary-colour line that reads as "bought in past month" (its own element, apart from the review count). */
  boughtText: string | undefined;
  /** The sponsored widget the card is in (video, brand), if any. */
  widget: 'video' | 'brand' | undefined;
}

export function newItemDraft(asin: string, sponsored: boolean): ItemDraft {
  return {
    asin,
    sponsored,
    headings: [],
    linkTitle: undefined,
    image: undefined,
    prices: [],
    plainPrice: undefined,
    plainListPrice: undefined,
    ratingText: undefined,
    reviewLabel: undefined,
    reviewText: undefined,
    prime: false,
    badgeTexts: [],
    coupon: undefined,
    delivery: undefined,
    reviewsBlock: undefined,
    boughtText: undefined,
    widget: undefined,
  };
}

/** The heading that is (or holds) the product link; the unlinked one above it is the brand line. */
export function pickTitle(draft: ItemDraft): string | undefined {
  const linked = draft.headings.find((h) => h.linked && h.text !== '');
  const title = linked?.text ?? draft.headings.find((h) => h.text !== '')?.text ?? draft.linkTitle;
  return title === undefined || title === '' ? undefined : title;
}

/** The price to pay: the first regular `a-price`, never a struck or small secondary one. */
export function pickPrice(prices: readonly PriceElement[]): PriceElement | undefined {
  return prices.find((p) => p.toPay) ?? prices.find((p) => !p.strike && !p.textPrice);
}

export function pickListPrice(prices: readonly PriceElement[]): PriceElement | undefined {
  return prices.find((p) => p.strike);
}
