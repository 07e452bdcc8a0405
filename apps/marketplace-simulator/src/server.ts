import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STOREFRONT_LANGUAGES, isMarketplaceDomain, marketplaceForHost, type MarketplaceDomain } from '@crawl/marketplace';
import { handleControl, isControlPath, type ControlTarget } from './control/routes.ts';
import { MarketOverrides } from './control/overrides.ts';
import { ADDRESS_CHANGE_PATH, addressChange, chosenZip, CSRF_HEADER, locationCookie } from './delivery-location.ts';
import { DEFAULT_DRIFT, stepAt, type DriftSettings } from './drift.ts';
import { marketAt } from './market.ts';
import { chosenCurrency } from './shopper-currency.ts';
import { faultResponse, type FaultRequest } from './fault-responses.ts';
import { decideFault, type FaultConfig, type FaultKind } from './faults.ts';
import { notFoundPage } from './render/block-pages.ts';
import type { PageSize } from './render/page-shell.ts';
import { renderHomePage, renderProductPage, renderSearchPage } from './render/pages.ts';
import { SimulatorClock, type TimeSource } from './simulator-clock.ts';
import { PRODUCT_LAYOUTS, type ProductLayout } from './render/product-layouts.ts';
import { SEARCH_LAYOUTS, type SearchLayout } from './render/search-layouts.ts';
import { StatsRecorder, type Route, type SimulatorStats } from './stats.ts';
import { kindRouteOf } from './kinds/index.ts';
import { categoryListingPage, listedNode } from './kinds/category-route.ts';

export interface SimulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Storefront served when neither `?domain=` nor a storefront Host header says otherwise; default amazon.com. */
  domain?: MarketplaceDomain;
  /** Default `full` (1–2 MB pages); `small` for fast tests. Per request: `sim_size` / `x-sim-size`. */
  pageSize?: PageSize;
  /** Search pages after this one are empty; default 7. */
  maxPages?: number;
  /** Seed of the random fault draws; default 1. */
  seed?: number;
  faults?: FaultConfig;
  /** Force one layout for every search page (else `?layout=` or chosen per keyword). */
  searchLayout?: SearchLayout;
  /** Force one layout for every product page (else `?layout=` or chosen per ASIN). */
  productLayout?: ProductLayout;
  /**
   * Drift of the catalog with time (price moves, stock-outs, seller, promotions, ranks): off by
   * default, so every page is the generated one; `true` for the default settings (one-hour
   * steps, about 5 % of the products changing per step). `POST /__control/drift` switches it.
   */
  drift?: boolean | Partial<DriftSettings>;
  /** Where the simulator's clock takes its time from until set; default the system's. */
  clock?: TimeSource;
}

export interface Simulator {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** `127.0.0.1:<port>`, as URL#host gives it (for `extraHosts`). */
  host: string;
  close(): Promise<void>;
  stats(): SimulatorStats;
  /** Clears the counters and the per-URL attempt history (so `times` rules fire again). */
  resetStats(): void;
  /** Replaces the fault configuration. */
  setFaults(faults: FaultConfig): void;
  /** The clock drift reads: `set` and `advance` it as `POST /__control/clock` does. */
  clock: SimulatorClock;
  /** Clears what the control routes set (overrides, clock, drift switch), as `DELETE /__control` does. */
  resetControl(): void;
}

const PRODUCT_PATH = /^\/(?:[^/]+\/)?(?:dp|gp\/product)\/([A-Za-z0-9]{10})(?:[/?]|$)/;

function routeOf(pathname: string): Route {
  if (pathname === '/health') return 'health';
  const kind = kindRouteOf(pathname);
  if (kind) return kind.name;
  if (pathname === '/' || pathname === '/ref=nav_logo') return 'home';
  if (pathname === ADDRESS_CHANGE_PATH) return 'address-change';
  if (pathname === '/s' || pathname === '/s/') return 'search';
  if (PRODUCT_PATH.test(pathname)) return 'product';
  return 'other';
}

/** The address change's JSON is a few hundred bytes; anything past this is refused unread. */
const MAX_BODY_BYTES = 16 * 1024;

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function driftSettings(drift: SimulatorOptions['drift']): DriftSettings {
  const settings = { ...DEFAULT_DRIFT, ...(typeof drift === 'object' ? drift : {}) };
  if (!Number.isInteger(settings.stepMs) || settings.stepMs < 1) throw new Error('drift.stepMs must be a positive integer');
  if (!(settings.changeShare > 0 && settings.changeShare <= 0.5)) throw new Error('drift.changeShare must be above 0 and at most 0.5');
  return settings;
}

/** Starts the marketplace simulator; see docs/marketplace.md for routes and controls. */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const stats = new StatsRecorder();
  let faults: FaultConfig = options.faults ?? {};
  const seed = options.seed ?? 1;
  const driftInitially = options.drift !== undefined && options.drift !== false;
  const clock = new SimulatorClock(options.clock);
  const control: ControlTarget = {
    overrides: new MarketOverrides(),
    clock,
    drift: { enabled: driftInitially, settings: driftSettings(options.drift) },
    reset() {
      this.overrides.clear();
      this.clock.follow();
      this.drift.enabled = driftInitially;
    },
  };
  const pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let closed = false;

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          pending.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      pending.add(entry);
    });

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    stats.status(status);
    res.writeHead(status, {
      'content-type': headers['content-type'] ?? 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };

  const sendFault = (req: IncomingMessage, res: ServerResponse, fault: FaultKind, request: Omit<FaultRequest, 'retryAfterSeconds'>): void => {
    stats.fault(fault);
    if (fault === 'reset') {
      stats.status('reset');
      req.socket.destroy();
      return;
    }
    const answer = faultResponse(fault, { ...request, retryAfterSeconds: faults.retryAfterSeconds ?? 1 });
    send(res, answer.status, answer.body, { ...answer.headers, 'x-sim-fault': fault });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    // The control routes are the test's, not the marketplace's: never faulted, never counted.
    if (isControlPath(url.pathname)) {
      const answer = await handleControl({ method: req.method ?? '', pathname: url.pathname, body: () => readBody(req) }, control);
      const body = JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'cache-control': 'no-store',
        ...answer.headers,
      });
      res.end(body);
      return;
    }
    const route = routeOf(url.pathname);
    const keyParams = new URLSearchParams(url.search);
    for (const name of [...keyParams.keys()]) if (name.startsWith('sim_')) keyParams.delete(name);
    const query = keyParams.toString();
    const pathKey = `${url.pathname}${query ? `?${query}` : ''}`;
    const attempt = stats.request(pathKey, route);

    // The location widget posts; every page is read with GET.
    const allowed = route === 'address-change' ? 'POST' : 'GET, HEAD';
    if (!allowed.split(', ').includes(req.method ?? '')) return send(res, 405, 'Method Not Allowed', { allow: allowed, 'content-type': 'text/plain' });
    if (route === 'health') return send(res, 200, JSON.stringify({ status: 'ok' }), { 'content-type': 'application/json' });

    const domainParam = url.searchParams
      .get('domain')
      ?.toLowerCase()
      .replace(/^www\./, '');
    const domain: MarketplaceDomain =
      (domainParam && isMarketplaceDomain(domainParam) ? domainParam : undefined) ??
      marketplaceForHost(single(req.headers.host)?.replace(/:\d+$/, '') ?? '')?.domain ??
      options.domain ??
      'amazon.com';
    const sizeParam = url.searchParams.get('sim_size') ?? single(req.headers['x-sim-size']);
    const size: PageSize = sizeParam === 'small' || sizeParam === 'full' ? sizeParam : (options.pageSize ?? 'full');
    const layoutParam = url.searchParams.get('layout') ?? undefined;
    // The storefront's own controls: language switcher, delivery location, sort order.
    const languageParam = url.searchParams.get('language') ?? undefined;
    const language = languageParam && STOREFRONT_LANGUAGES[domain].includes(languageParam) ? languageParam : undefined;
    // The delivery location is the session's, set through the location widget (ADDRESS_CHANGE_PATH).
    const deliveryZip = chosenZip(single(req.headers.cookie), domain);
    // The currency the shopper chose to see prices in, as the storefront keeps it (`i18n-prefs`).
    const currency = chosenCurrency(single(req.headers.cookie), domain);
    const shopperOptions = { ...(language ? { language } : {}), ...(deliveryZip ? { deliveryZip } : {}), ...(currency ? { currency } : {}) };
    const kindRoute = kindRouteOf(url.pathname);
    const keyword = route === 'search' ? (url.searchParams.get('k') ?? url.searchParams.get('field-keywords') ?? '') : undefined;
    const kindKey = kindRoute?.faultKey?.(url) ?? {};
    const faultKeyword = keyword ?? kindKey.keyword;
    const asin = route === 'product' ? PRODUCT_PATH.exec(url.pathname)?.[1]?.toUpperCase() : kindKey.asin;

    const explicit = single(req.headers['x-sim-fault']) ?? url.searchParams.get('sim_fault') ?? undefined;
    const decision = decideFault(
      {
        pathKey,
        attempt,
        ...(faultKeyword !== undefined ? { keyword: faultKeyword } : {}),
        ...(asin !== undefined ? { asin } : {}),
        ...(explicit ? { explicit } : {}),
      },
      faults,
      seed,
    );
    if (decision.delayMs > 0) await delay(decision.delayMs);
    if (closed) return void req.socket.destroy();
    if (decision.fault)
      return sendFault(req, res, decision.fault, {
        domain,
        returnPath: pathKey,
        tokenSeed: `${seed}\u0000${pathKey}\u0000${attempt}`,
        size,
        ...shopperOptions,
      });

    if (route === 'address-change') {
      const body = await readBody(req);
      if (body === undefined) return send(res, 413, JSON.stringify({ successful: 0 }), { 'content-type': 'application/json' });
      const answer = addressChange(domain, single(req.headers[CSRF_HEADER]), body);
      return send(res, answer.status, JSON.stringify(answer.body), {
        'content-type': 'application/json;charset=UTF-8',
        ...(answer.zip !== undefined ? { 'set-cookie': locationCookie(domain, answer.zip) } : {}),
      });
    }
    // What the products are at this moment: drifted to the clock's step when drift is on, overrides over it.
    const drift = control.drift.enabled ? control.drift.settings : undefined;
    const now = clock.now();
    const market = marketAt({ seed, overrides: control.overrides, ...(drift ? { drift } : {}) }, domain, now);
    const stepHeader: Record<string, string> = drift ? { 'x-sim-step': String(stepAt(now, drift.stepMs)) } : {};
    if (route === 'home') {
      const page = renderHomePage({ domain, size, ...shopperOptions });
      return send(res, 200, page.html, { 'x-sim-layout': page.layout, 'x-sim-domain': domain });
    }
    // A results page that names a category and no keyword (`/s?rh=n:<node>`) is the category's listing.
    const listed = route === 'search' && keyword === '' ? listedNode(url) : undefined;
    if (listed !== undefined) {
      const page = categoryListingPage({ url, domain, size, seed, market, layout: layoutParam, ...shopperOptions }, listed);
      return send(res, page.status ?? 200, page.html, { 'x-sim-layout': page.layout, 'x-sim-domain': domain, ...stepHeader });
    }
    if (route === 'search' && keyword !== undefined) {
      const pageNumber = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
      const layout = options.searchLayout ?? (SEARCH_LAYOUTS.includes(layoutParam as SearchLayout) ? (layoutParam as SearchLayout) : undefined);
      const sort = url.searchParams.get('s') ?? undefined;
      const page = renderSearchPage({
        keyword,
        page: pageNumber,
        domain,
        size,
        maxPages: options.maxPages ?? 7,
        ...(layout ? { layout } : {}),
        ...(sort ? { sort } : {}),
        ...shopperOptions,
        market,
      });
      return send(res, 200, page.html, { 'x-sim-layout': page.layout, 'x-sim-domain': domain, ...stepHeader });
    }
    if (route === 'product' && asin !== undefined) {
      const layout = options.productLayout ?? (PRODUCT_LAYOUTS.includes(layoutParam as ProductLayout) ? (layoutParam as ProductLayout) : undefined);
      const page = renderProductPage({ asin, domain, size, ...(layout ? { layout } : {}), ...shopperOptions, market });
      if (page) return send(res, 200, page.html, { 'x-sim-layout': page.layout, 'x-sim-domain': domain, ...stepHeader });
    }
    if (kindRoute) {
      const page = kindRoute.render({ url, domain, size, seed, market, layout: layoutParam, ...shopperOptions });
      if (page)
        return send(res, page.status ?? 200, page.html, {
          ...(page.contentType ? { 'content-type': page.contentType } : {}),
          ...page.headers,
          'x-sim-layout': page.layout,
          'x-sim-domain': domain,
          ...stepHeader,
        });
    }
    return send(res, 404, notFoundPage());
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, `simulator error: ${error instanceof Error ? error.message : String(error)}`, { 'content-type': 'text/plain' });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostName = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const host = `${hostName}:${address.port}`;

  return {
    url: `http://${host}`,
    port: address.port,
    host,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults: (next) => {
      faults = next;
    },
    clock,
    resetControl: () => control.reset(),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const entry of pending) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      pending.clear();
      const done = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      server.closeAllConnections();
      await done;
    },
  };
}
