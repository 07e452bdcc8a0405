import { MARKETPLACES, isMarketplaceDomain } from '@crawl/marketplace';
import { decimalsOf, type Money } from '../money.ts';
import { EVERY_STOREFRONT, type OverrideScope, type ProductOverride, type SearchRank } from './overrides.ts';

/** A body read into its type, or the reasons it could not be. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; details: string[] };

export interface ProductOverrideRequest {
  scope: OverrideScope;
  override: ProductOverride;
}

export type ClockChange = { at: Date } | { advanceMs: number };

const MAX_AMOUNT = 10_000_000;
const MAX_TEXT = 200;
const MAX_SELLER = 100;
const MAX_RANK = 1000;
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3_600_000;
const MAX_ADVANCE_STEPS = 100_000;
/** The range a JavaScript Date holds. */
const MAX_TIME_MS = 8.64e15;

type JsonObject = { [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object with only `allowed` keys: no field the route does not know is taken. */
function objectWith(body: unknown, allowed: readonly string[], errors: string[]): JsonObject | undefined {
  if (!isObject(body)) {
    errors.push('body must be a JSON object');
    return undefined;
  }
  for (const key of Object.keys(body)) if (!allowed.includes(key)) errors.push(`unknown field ${JSON.stringify(key).slice(0, 60)}`);
  return body;
}

function integerIn(value: unknown, name: string, min: number, max: number, errors: string[]): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  errors.push(`${name} must be an integer from ${min} to ${max}`);
  return undefined;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function text(value: unknown, name: string, max: number, errors: string[]): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed.length > 0 && trimmed.length <= max && !hasControlCharacter(trimmed)) return trimmed;
  errors.push(`${name} must be a string of 1 to ${max} characters without control characters`);
  return undefined;
}

function boolean(value: unknown, name: string, errors: string[]): boolean | undefined {
  if (typeof value === 'boolean') return value;
  errors.push(`${name} must be true or false`);
  return undefined;
}

/** An amount in `currency` as it would be written on the page: positive, no more decimals than the currency has. */
function money(value: unknown, name: string, currency: string, errors: string[]): Money | undefined {
  const decimals = decimalsOf(currency);
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_AMOUNT) {
    errors.push(`${name} must be a number above 0 and at most ${MAX_AMOUNT} (${currency})`);
    return undefined;
  }
  const scaled = value * 10 ** decimals;
  const minor = Math.round(scaled);
  if (Math.abs(scaled - minor) > 1e-6 || minor === 0) {
    errors.push(`${name} must have at most ${decimals} decimals in ${currency}`);
    return undefined;
  }
  return { minor, currency, decimals };
}

const PRODUCT_FIELDS = ['price', 'listPrice', 'inStock', 'stockLeft', 'availability', 'seller', 'coupon', 'deal', 'domain'] as const;

/**
 * `POST /__control/products/:asin`: `{ price?, listPrice?, inStock?, stockLeft?, availability?,
 * seller?, coupon?, deal?, domain? }`. With `domain` the override is that storefront's and its
 * prices are in its currency; without, it holds on every storefront and its prices are in USD.
 */
export function parseProductOverride(body: unknown): Parsed<ProductOverrideRequest> {
  const errors: string[] = [];
  const input = objectWith(body, PRODUCT_FIELDS, errors);
  if (!input) return { ok: false, details: errors };
  let scope: OverrideScope = EVERY_STOREFRONT;
  if (input.domain !== undefined) {
    const domain =
      typeof input.domain === 'string'
        ? input.domain
            .trim()
            .toLowerCase()
            .replace(/^www\./, '')
        : '';
    if (isMarketplaceDomain(domain)) scope = domain;
    else errors.push('domain must be a marketplace domain such as amazon.de');
  }
  const currency = scope === EVERY_STOREFRONT ? 'USD' : MARKETPLACES[scope].currency;
  const override: ProductOverride = {};
  if (input.price !== undefined) {
    const price = money(input.price, 'price', currency, errors);
    if (price) override.price = price;
  }
  if (input.listPrice === null) override.listPrice = null;
  else if (input.listPrice !== undefined) {
    const listPrice = money(input.listPrice, 'listPrice', currency, errors);
    if (listPrice) override.listPrice = listPrice;
  }
  if (input.inStock !== undefined) {
    const inStock = boolean(input.inStock, 'inStock', errors);
    if (inStock !== undefined) override.inStock = inStock;
  }
  if (input.stockLeft !== undefined) {
    const left = integerIn(input.stockLeft, 'stockLeft', 1, 99, errors);
    if (left !== undefined) override.stockLeft = left;
    if (input.inStock === false) errors.push('stockLeft says in stock, inStock false says not: give one');
  }
  if (input.availability !== undefined) {
    const availability = text(input.availability, 'availability', MAX_TEXT, errors);
    if (availability !== undefined) override.availability = availability;
  }
  if (input.seller === null) override.seller = null;
  else if (input.seller !== undefined) {
    const seller = text(input.seller, 'seller', MAX_SELLER, errors);
    if (seller !== undefined) override.seller = seller;
  }
  if (input.coupon === null) override.coupon = null;
  else if (input.coupon !== undefined) {
    const coupon = integerIn(input.coupon, 'coupon', 1, 90, errors);
    if (coupon !== undefined) override.coupon = coupon;
  }
  if (input.deal !== undefined) {
    const deal = boolean(input.deal, 'deal', errors);
    if (deal !== undefined) override.deal = deal;
  }
  if (errors.length === 0 && Object.keys(override).length === 0) errors.push(`nothing to set: give at least one of ${PRODUCT_FIELDS.slice(0, -1).join(', ')}`);
  return errors.length > 0 ? { ok: false, details: errors } : { ok: true, value: { scope, override } };
}

/** `POST /__control/search-ranks`: `{ keyword, asin, rank }`. */
export function parseSearchRank(body: unknown): Parsed<SearchRank> {
  const errors: string[] = [];
  const input = objectWith(body, ['keyword', 'asin', 'rank'], errors);
  if (!input) return { ok: false, details: errors };
  const keyword = text(input.keyword, 'keyword', MAX_TEXT, errors);
  const asin = typeof input.asin === 'string' && /^[A-Za-z0-9]{10}$/.test(input.asin) ? input.asin.toUpperCase() : undefined;
  if (asin === undefined) errors.push('asin must be 10 letters or digits');
  const rank = integerIn(input.rank, 'rank', 1, MAX_RANK, errors);
  if (errors.length > 0 || keyword === undefined || asin === undefined || rank === undefined) return { ok: false, details: errors };
  return { ok: true, value: { keyword, asin, rank } };
}

/** `POST /__control/clock`: exactly one of `{ at }` (ISO 8601 or epoch ms), `{ advanceMs }`, `{ advanceSteps }`. */
export function parseClockChange(body: unknown, stepMs: number): Parsed<ClockChange> {
  const errors: string[] = [];
  const input = objectWith(body, ['at', 'advanceMs', 'advanceSteps'], errors);
  if (!input) return { ok: false, details: errors };
  const given = ['at', 'advanceMs', 'advanceSteps'].filter((key) => input[key] !== undefined);
  if (given.length !== 1) return { ok: false, details: [...errors, 'give exactly one of at, advanceMs, advanceSteps'] };
  let change: ClockChange | undefined;
  if (input.at !== undefined) {
    const ms =
      typeof input.at === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(input.at) ? Date.parse(input.at) : typeof input.at === 'number' ? input.at : Number.NaN;
    if (Number.isInteger(ms) && Math.abs(ms) <= MAX_TIME_MS) change = { at: new Date(ms) };
    else errors.push('at must be an ISO 8601 date-time (2026-01-01T00:00:00Z) or epoch milliseconds');
  } else if (input.advanceMs !== undefined) {
    const ms = integerIn(input.advanceMs, 'advanceMs', 1, MAX_ADVANCE_MS, errors);
    if (ms !== undefined) change = { advanceMs: ms };
  } else {
    const steps = integerIn(input.advanceSteps, 'advanceSteps', 1, MAX_ADVANCE_STEPS, errors);
    if (steps !== undefined) change = { advanceMs: steps * stepMs };
  }
  return errors.length > 0 || !change ? { ok: false, details: errors } : { ok: true, value: change };
}

/** `POST /__control/drift`: `{ enabled }`. */
export function parseDriftSwitch(body: unknown): Parsed<{ enabled: boolean }> {
  const errors: string[] = [];
  const input = objectWith(body, ['enabled'], errors);
  if (!input) return { ok: false, details: errors };
  const enabled = boolean(input.enabled, 'enabled', errors);
  return errors.length > 0 || enabled === undefined ? { ok: false, details: errors } : { ok: true, value: { enabled } };
}
