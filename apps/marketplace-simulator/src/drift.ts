import { SPECIAL_ASINS, WELL_KNOWN_ASINS } from './asin.ts';
import { SELLERS, type CatalogProduct, type SeededProduct, type StockState } from './catalog.ts';
import { hashString, rngFor, uniformDraw, type Rng } from './rng.ts';
import type { CardExtras } from './search-extras.ts';

/** How the catalog drifts with time when drift is on. */
export interface DriftSettings {
  /** Length of a time step: the catalog stays the same within one. Default one hour. */
  stepMs: number;
  /** About this share of the products changes at each step (0–0.5); default 0.05. */
  changeShare: number;
}

export const DEFAULT_DRIFT: DriftSettings = { stepMs: 3_600_000, changeShare: 0.05 };

export type DriftField = 'price' | 'stock' | 'seller' | 'promo' | 'rank';
export const DRIFT_FIELDS: readonly DriftField[] = ['price', 'stock', 'seller', 'promo', 'rank'];

/** Each field's part of the changes; together they make `changeShare`. */
const FIELD_PARTS: Readonly<Record<DriftField, number>> = { price: 0.3, stock: 0.15, seller: 0.15, promo: 0.2, rank: 0.2 };

/** The step `time` falls in (steps count from the Unix epoch). */
export function stepAt(time: Date, stepMs: number): number {
  return Math.floor(time.getTime() / stepMs);
}

/** The well-known ASINs are documented as always in stock; special ASINs keep their one behaviour. */
const SPECIAL: ReadonlySet<string> = new Set(Object.values(SPECIAL_ASINS));
const ALWAYS_IN_STOCK: ReadonlySet<string> = new Set(WELL_KNOWN_ASINS);

/** Whether `asin` drifts at all: every product but the special ones (books, fault pages, no offer). */
export function drifts(asin: string): boolean {
  return !SPECIAL.has(asin);
}

/** Who drifts: the simulator's seed and the product, with the settings' share. */
export interface DriftKey {
  seed: number;
  asin: string;
  changeShare: number;
}

interface FieldPhase {
  /** How many times the field has changed since the epoch (relative; may be negative). */
  change: number;
  /** Odd changes move the field away from its seeded value, even ones bring it back. */
  moved: boolean;
}

/**
 * Where one field of one product is at `step`. The field changes exactly once in every window of
 * W steps (W = 1 / (changeShare × the field's part)), at a step drawn per window, so the number of
 * changes so far is known without replaying history and any step is computed at once. The field
 * alternates between its seeded value and a moved one (drawn anew for every change), so every
 * change shows and a product never wanders far from what it was generated as.
 */
function phaseOf(key: DriftKey, field: DriftField, step: number): FieldPhase {
  const window = Math.max(2, Math.round(1 / (key.changeShare * FIELD_PARTS[field])));
  const index = Math.floor(step / window);
  const at = Math.floor(uniformDraw(`${key.asin}\u0000${field}\u0000${index}`, key.seed) * window);
  const change = index + (step - index * window >= at ? 1 : 0);
  // A per-product parity, so that not every product is moved in the same windows.
  const parity = hashString(`${key.asin}\u0000${field}`, key.seed) & 1;
  return { change, moved: ((change + parity) & 1) === 1 };
}

function changeRng(key: DriftKey, field: DriftField, change: number): Rng {
  return rngFor('drift', key.seed, key.asin, field, change);
}

/** The fields of a product that change at `step` (from the step before); none for special ASINs. */
export function changedFields(key: DriftKey, step: number): DriftField[] {
  if (!drifts(key.asin)) return [];
  return DRIFT_FIELDS.filter((field) => phaseOf(key, field, step).change !== phaseOf(key, field, step - 1).change);
}

/** A moved shelf price: a sale (5–25 % off) or a raise (5–20 %), charm-priced, never the seeded one. */
function movedPrice(base: number, rng: Rng): number {
  const sale = rng.chance(0.6);
  const factor = sale ? rng.int(75, 95) / 100 : rng.int(105, 120) / 100;
  const cents = Math.max(99, Math.round((base * factor) / 100) * 100 - 1);
  if (cents !== base) return cents;
  return sale && base > 199 ? base - 100 : base + 100;
}

function movedStock(seeded: CatalogProduct, rng: Rng): { stock: StockState; left?: number } {
  if (seeded.stock === 'unavailable') return { stock: 'in_stock' };
  if (seeded.stock === 'low_stock') return rng.chance(0.5) ? { stock: 'in_stock' } : { stock: 'unavailable' };
  // A well-known ASIN runs low but never out.
  if (ALWAYS_IN_STOCK.has(seeded.asin) || rng.chance(0.35)) return { stock: 'low_stock', left: rng.int(1, 9) };
  return { stock: 'unavailable' };
}

function movedSeller(seeded: CatalogProduct, rng: Rng): string | undefined {
  const current = seeded.thirdPartySeller;
  if (current === undefined) return rng.pick(SELLERS);
  return rng.chance(0.5) ? undefined : rng.pick(SELLERS.filter((seller) => seller !== current));
}

function movedRank(rank: number, rng: Rng): number {
  const factor = rng.chance(0.5) ? rng.int(50, 80) / 100 : rng.int(125, 200) / 100;
  const moved = Math.max(1, Math.round(rank * factor));
  return moved === rank ? rank + 1 : moved;
}

/** Which promotions a moved `promo` field turns over (coupon, deal or both), the same on the page and the cards. */
export interface PromoFlip {
  coupon: boolean;
  deal: boolean;
  /** The coupon's percent where the flip adds one. */
  percent: number;
}

function promoFlip(key: DriftKey, step: number): PromoFlip | undefined {
  const phase = phaseOf(key, 'promo', step);
  if (!phase.moved) return undefined;
  const rng = changeRng(key, 'promo', phase.change);
  const which = rng.pick(['coupon', 'deal', 'both'] as const);
  return { coupon: which !== 'deal', deal: which !== 'coupon', percent: rng.pick([5, 10, 15, 20]) };
}

/** Puts a product in `stock`: out of stock it has no offer (no price, coupon or deal); restocked it has its shelf price back. */
export function setStock(product: CatalogProduct, seeded: SeededProduct, stock: StockState, left?: number): void {
  product.stock = stock;
  delete product.stockLeft;
  if (stock === 'low_stock') product.stockLeft = left ?? 1;
  if (stock === 'unavailable') {
    withoutOffer(product);
    return;
  }
  if (product.priceUsdCents === undefined) {
    product.priceUsdCents = seeded.shelfPriceUsdCents;
    if (seeded.shelfListPriceUsdCents !== undefined) product.listPriceUsdCents = seeded.shelfListPriceUsdCents;
  }
}

/** A product without an offer shows no price, coupon or deal, as generated products do. */
export function withoutOffer(product: CatalogProduct): void {
  delete product.priceUsdCents;
  delete product.listPriceUsdCents;
  delete product.couponPercent;
  product.deal = false;
}

/** A copy of a product that the drift and the overrides may change without touching the catalog's. */
export function copyProduct(product: CatalogProduct): CatalogProduct {
  return {
    ...product,
    ranks: [...product.ranks],
    badges: [...product.badges],
    ...(product.book ? { book: { ...product.book, formats: product.book.formats.map((f) => ({ ...f })) } } : {}),
  };
}

/** The product as it stands at `step`: each moved field drawn for its last change, the others as seeded. */
export function driftedProduct(seeded: SeededProduct, seed: number, step: number, changeShare: number): CatalogProduct {
  const product = copyProduct(seeded.product);
  if (!drifts(product.asin)) return product;
  const key: DriftKey = { seed, asin: product.asin, changeShare };
  const phase = (field: DriftField) => phaseOf(key, field, step);

  const stock = phase('stock');
  if (stock.moved) {
    const moved = movedStock(seeded.product, changeRng(key, 'stock', stock.change));
    setStock(product, seeded, moved.stock, moved.left);
  }
  const price = phase('price');
  if (price.moved && product.priceUsdCents !== undefined) {
    product.priceUsdCents = movedPrice(seeded.shelfPriceUsdCents, changeRng(key, 'price', price.change));
  }
  const seller = phase('seller');
  if (seller.moved) {
    const moved = movedSeller(seeded.product, changeRng(key, 'seller', seller.change));
    if (moved === undefined) delete product.thirdPartySeller;
    else product.thirdPartySeller = moved;
  }
  const flip = promoFlip(key, step);
  if (flip && product.priceUsdCents !== undefined) {
    if (flip.coupon) {
      if (product.couponPercent === undefined) product.couponPercent = flip.percent;
      else delete product.couponPercent;
    }
    if (flip.deal) product.deal = !product.deal;
  }
  const rank = phase('rank');
  if (rank.moved) {
    const rng = changeRng(key, 'rank', rank.change);
    product.ranks = [movedRank(product.ranks[0], rng), movedRank(product.ranks[1], rng)];
  }
  return product;
}

/** A search card's coupon and deal badge at `step`: turned over with the product's promotions. */
export function driftedCardExtras(extras: CardExtras, asin: string, hasOffer: boolean, seed: number, step: number, changeShare: number): CardExtras {
  if (!hasOffer || !drifts(asin)) return extras;
  const flip = promoFlip({ seed, asin, changeShare }, step);
  if (!flip) return extras;
  const next: CardExtras = { ...extras, badges: [...extras.badges] };
  if (flip.coupon) {
    if (next.couponPercent === undefined) next.couponPercent = flip.percent;
    else delete next.couponPercent;
  }
  if (flip.deal) {
    next.badges = next.badges.includes('limited_time_deal') ? next.badges.filter((b) => b !== 'limited_time_deal') : [...next.badges, 'limited_time_deal'];
  }
  return next;
}

/**
 * How far a product moves in its keywords' organic results at `step`: none while its rank is as
 * seeded, 1.5–3.5 places up or down while it is moved (the results are ordered by place + shift).
 */
export function searchShift(asin: string, seed: number, step: number, changeShare: number): number {
  if (!drifts(asin)) return 0;
  const key: DriftKey = { seed, asin, changeShare };
  const rank = phaseOf(key, 'rank', step);
  if (!rank.moved) return 0;
  const rng = rngFor('drift-search', seed, asin, rank.change);
  return (rng.chance(0.5) ? -1 : 1) * (1.5 + rng.next() * 2);
}
