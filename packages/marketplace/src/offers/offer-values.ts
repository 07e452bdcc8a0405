import { parsePrice, type Price, type PriceHint } from '../price.ts';
import { currencyDecimals } from '../currency.ts';

// A delivery charge of nothing, in the storefront languages, anywhere in the line: the AOD's
// `data-csa-c-delivery-price` holds `FREE`, the offer-listing page says "FREE Shipping" or
// "Livraison GRATUITE" (with the order minimum after it, whose figure is no charge).
const FREE =
  /(?:^|[\s(:])(?:free|gratis|gratuit[aeo]?|gratuites|kostenlos(?:e|er)?|kostenfrei|grátis|darmowa|darmowy|gratuita|ücretsiz|مجاني|مجانا)(?=$|[\s,.!):])|無料/i;

/** The delivery charge a text or attribute states: 0 for a free delivery, undefined when it names no amount. */
export function shippingCharge(text: string | undefined, hint: PriceHint): Price | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (FREE.test(trimmed)) {
    const currency = hint.currency;
    return currency === undefined ? undefined : { amount: 0, currency, raw: trimmed };
  }
  if (!/\d/.test(trimmed)) return undefined;
  return parsePrice(trimmed.replace(/^\+\s*/, ''), hint);
}

/** price + shipping when both are in one currency; `raw` says what was added. */
export function landedPrice(price: Price | undefined, shipping: Price | undefined): Price | undefined {
  if (price === undefined || shipping === undefined || price.currency !== shipping.currency) return undefined;
  const factor = 10 ** currencyDecimals(price.currency);
  const amount = Math.round(price.amount * factor + shipping.amount * factor) / factor;
  return { amount, currency: price.currency, raw: `${price.raw} + ${shipping.raw}` };
}

const SELLER_ID = /^A[A-Z0-9]{9,20}$/;

/** The seller id a profile link carries (`/gp/aag/main?…&seller=A1…`, `/sp?seller=A1…`, `/s?me=A1…`). */
export function sellerIdOfHref(href: string, param: 'seller' | 'me' = 'seller'): string | undefined {
  const match = new RegExp(`[?&]${param}=([A-Za-z0-9]+)`).exec(href);
  const id = match?.[1]?.toUpperCase();
  return id !== undefined && SELLER_ID.test(id) ? id : undefined;
}

/** The ASIN a link names in its query (`…&asin=B0…`). */
export function asinOfHref(href: string): string | undefined {
  const match = /[?&]asin=([A-Za-z0-9]{10})(?:[&#]|$)/.exec(href);
  return match?.[1]?.toUpperCase();
}

/** The ASIN an offer's hidden add-to-cart inputs carry: `items[0.base][asin]`, `asin`, `ASIN`, `asin.1`. */
export function isAsinInputName(name: string): boolean {
  return /^(?:items\[\d+(?:\.base)?\]\[asin\]|asin(?:\.\d+)?)$/i.test(name);
}

// "Ships from Amazon", "Amazon.de", "Amazon EU S.a.r.L.", "Amazon.co.jp": Amazon ships it.
const AMAZON = /^amazon\b/i;

export function isAmazonName(text: string): boolean {
  return AMAZON.test(text.trim());
}

// The label in front of a value when the row has no separate value column.
const ROW_LABEL =
  /^(?:ships from|sold by|versand(?: durch)?|verkauf durch|verkäufer|expédié par|vendu par|enviado (?:desde|por)|vendido por|spedito da|venduto da|verzonden door|verkocht door|skickas från|säljs av|wysyłka z|sprzedawca|gönderici|satıcı|出荷元|販売元|الشحن من|البائع)\s*:?\s*/i;

export function withoutRowLabel(text: string): string {
  return text.replace(ROW_LABEL, '').trim();
}
