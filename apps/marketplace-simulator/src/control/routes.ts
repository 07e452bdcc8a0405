import { MARKETPLACES } from '@crawl/marketplace';
import { isKnownAsin } from '../catalog.ts';
import { stepAt, type DriftSettings } from '../drift.ts';
import { amountOf, type Money } from '../money.ts';
import type { SimulatorClock } from '../simulator-clock.ts';
import { parseClockChange, parseDriftSwitch, parseProductOverride, parseSearchRank, type Parsed } from './input.ts';
import type { MarketOverrides, OverrideScope, ProductOverride, SearchRank } from './overrides.ts';
import { EVERY_STOREFRONT, MAX_PRODUCT_OVERRIDES, MAX_SEARCH_RANKS } from './overrides.ts';

/**
 * The control routes live under this prefix: no marketplace URL starts with it, and the crawler
 * asks only for search (`/s`), product (`/dp/<ASIN>`) and location-widget URLs it builds itself.
 */
export const CONTROL_PREFIX = '/__control';

export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

/** Whether drift is on now, and how it drifts. */
export interface DriftSwitch {
  enabled: boolean;
  settings: DriftSettings;
}

/** What the control routes change: the overrides, the clock, the drift switch; `reset` puts all three back. */
export interface ControlTarget {
  overrides: MarketOverrides;
  clock: SimulatorClock;
  drift: DriftSwitch;
  reset(): void;
}

/** The error envelope of the service's API, so clients read the simulator's refusals the same way. */
export interface ControlError {
  success: false;
  error: { code: string; message: string; details: string[] };
}

/** An override as JSON: amounts as numbers in `currency` (the storefront's, USD for every storefront). */
export interface OverrideView {
  currency: string;
  price?: number;
  listPrice?: number | null;
  inStock?: boolean;
  stockLeft?: number;
  availability?: string;
  seller?: string | null;
  coupon?: number | null;
  deal?: boolean;
}

export interface ProductOverrideView {
  asin: string;
  domain: OverrideScope;
  override: OverrideView;
}

export interface ClockView {
  now: string;
  /** False while the clock follows its source; true once set or advanced. */
  pinned: boolean;
  /** The step the clock is in (with the drift's step length, whether or not drift is on). */
  step: number;
}

export interface DriftView extends DriftSettings {
  enabled: boolean;
}

export interface ControlStateView {
  drift: DriftView;
  clock: ClockView;
  products: ProductOverrideView[];
  searchRanks: SearchRank[];
}

export type ControlBody = ControlError | ControlStateView | ProductOverrideView | SearchRank | ClockView | DriftView | { asin: string; cleared: boolean };

export interface ControlAnswer {
  status: number;
  body: ControlBody;
  headers?: { allow: string };
}

/** A control request: the body is the raw text (undefined when it was too large to read). */
export interface ControlRequest {
  method: string;
  pathname: string;
  body: () => Promise<string | undefined>;
}

function failure(status: number, code: string, message: string, details: string[] = []): ControlAnswer {
  return { status, body: { success: false, error: { code, message, details } } };
}

function methodNotAllowed(allow: string): ControlAnswer {
  return { ...failure(405, 'METHOD_NOT_ALLOWED', `use ${allow}`), headers: { allow } };
}

const amount = (money: Money | null | undefined): number | null | undefined => (money == null ? money : amountOf(money));

function overrideView(scope: OverrideScope, override: ProductOverride): OverrideView {
  const view: OverrideView = { currency: scope === EVERY_STOREFRONT ? 'USD' : MARKETPLACES[scope].currency };
  const { price, listPrice, ...rest } = override;
  if (price !== undefined) view.price = amount(price) as number;
  if (listPrice !== undefined) view.listPrice = amount(listPrice) ?? null;
  return { ...view, ...rest };
}

function clockView(target: ControlTarget): ClockView {
  const now = target.clock.now();
  return { now: now.toISOString(), pinned: target.clock.pinned, step: stepAt(now, target.drift.settings.stepMs) };
}

function stateView(target: ControlTarget): ControlStateView {
  const snapshot = target.overrides.snapshot();
  return {
    drift: { enabled: target.drift.enabled, ...target.drift.settings },
    clock: clockView(target),
    products: snapshot.products.map(({ asin, scope, override }) => ({ asin, domain: scope, override: overrideView(scope, override) })),
    searchRanks: snapshot.searchRanks,
  };
}

/** The body read as JSON and then as the route's input, or the 4xx that says why not. */
async function input<T>(request: ControlRequest, parse: (body: unknown) => Parsed<T>): Promise<{ value: T } | { answer: ControlAnswer }> {
  const text = await request.body();
  if (text === undefined) return { answer: failure(413, 'PAYLOAD_TOO_LARGE', 'the body is larger than 16 KB') };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { answer: failure(400, 'VALIDATION_ERROR', 'the body is not JSON') };
  }
  const parsed = parse(body);
  if (!parsed.ok) return { answer: failure(400, 'VALIDATION_ERROR', parsed.details.join('; '), parsed.details) };
  return { value: parsed.value };
}

const PRODUCT_ROUTE = new RegExp(`^${CONTROL_PREFIX}/products/([^/]+)$`);

/** Answers one request under CONTROL_PREFIX. */
export async function handleControl(request: ControlRequest, target: ControlTarget): Promise<ControlAnswer> {
  const { method, pathname } = request;
  if (pathname === CONTROL_PREFIX || pathname === `${CONTROL_PREFIX}/`) {
    if (method === 'GET') return { status: 200, body: stateView(target) };
    if (method === 'DELETE') {
      target.reset();
      return { status: 200, body: stateView(target) };
    }
    return methodNotAllowed('GET, DELETE');
  }

  const product = PRODUCT_ROUTE.exec(pathname);
  if (product) {
    const asin = (product[1] as string).toUpperCase();
    if (method !== 'POST' && method !== 'DELETE') return methodNotAllowed('POST, DELETE');
    if (!isKnownAsin(asin)) return failure(404, 'NOT_FOUND', `no product ${asin.slice(0, 20)} in the simulator's catalog`);
    if (method === 'DELETE') return { status: 200, body: { asin, cleared: target.overrides.clearProduct(asin) } };
    const read = await input(request, parseProductOverride);
    if ('answer' in read) return read.answer;
    const { scope, override } = read.value;
    const merged = target.overrides.setProduct(asin, scope, override);
    if (!merged) return failure(409, 'CONFLICT', `at most ${MAX_PRODUCT_OVERRIDES} product overrides; DELETE ${CONTROL_PREFIX} resets them`);
    return { status: 200, body: { asin, domain: scope, override: overrideView(scope, merged) } };
  }

  if (pathname === `${CONTROL_PREFIX}/search-ranks`) {
    if (method !== 'POST') return methodNotAllowed('POST');
    const read = await input(request, parseSearchRank);
    if ('answer' in read) return read.answer;
    if (!isKnownAsin(read.value.asin)) return failure(404, 'NOT_FOUND', `no product ${read.value.asin} in the simulator's catalog`);
    if (!target.overrides.setSearchRank(read.value))
      return failure(409, 'CONFLICT', `at most ${MAX_SEARCH_RANKS} search ranks; DELETE ${CONTROL_PREFIX} resets them`);
    return { status: 200, body: read.value };
  }

  if (pathname === `${CONTROL_PREFIX}/clock`) {
    if (method !== 'POST') return methodNotAllowed('POST');
    const read = await input(request, (body) => parseClockChange(body, target.drift.settings.stepMs));
    if ('answer' in read) return read.answer;
    if ('at' in read.value) target.clock.set(read.value.at);
    else {
      const next = target.clock.now().getTime() + read.value.advanceMs;
      if (Math.abs(next) > 8.64e15) return failure(400, 'VALIDATION_ERROR', 'that would move the clock past the dates it can hold');
      target.clock.advance(read.value.advanceMs);
    }
    return { status: 200, body: clockView(target) };
  }

  if (pathname === `${CONTROL_PREFIX}/drift`) {
    if (method !== 'POST') return methodNotAllowed('POST');
    const read = await input(request, parseDriftSwitch);
    if ('answer' in read) return read.answer;
    target.drift.enabled = read.value.enabled;
    return { status: 200, body: { enabled: target.drift.enabled, ...target.drift.settings } };
  }

  return failure(404, 'NOT_FOUND', `no control route ${pathname.slice(0, 80)}`);
}
