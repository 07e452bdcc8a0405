import type { MarketplaceDomain } from '@crawl/marketplace';
import type { Market } from '../market.ts';
import type { PageSize } from '../render/page-shell.ts';

/** What a page kind's route is asked: the request and the storefront's state at this moment. */
export interface KindRequest {
  url: URL;
  domain: MarketplaceDomain;
  size: PageSize;
  /** The simulator's seed: the same seed serves the same pages. */
  seed: number;
  market: Market;
  /** `?layout=` as given (the route checks it against its own layouts). */
  layout?: string | undefined;
  /** The storefront language chosen with its switcher, when it offers it. */
  language?: string | undefined;
  /** The delivery postal code set on the session. */
  deliveryZip?: string | undefined;
  /** The currency the shopper chose (`i18n-prefs`). */
  currency?: string | undefined;
}

/** A page a kind's route serves (status 200 unless it says otherwise). */
export interface KindPage {
  html: string;
  layout: string;
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * One page kind of the storefront besides home, search and product pages: which paths are its,
 * what a targeted fault keys on, and the page for a request (undefined: 404).
 */
export interface KindRoute {
  /** The route's name in the stats (`byRoute`). */
  name: string;
  matches(pathname: string): boolean;
  /** The ASIN or keyword a per-target fault rule (`faults.asins`, `faults.keywords`) matches. */
  faultKey?(url: URL): { asin?: string; keyword?: string };
  render(request: KindRequest): KindPage | undefined;
}
