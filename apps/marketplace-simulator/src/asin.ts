import { CATEGORIES } from './categories.ts';
import { hashString } from './rng.ts';

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * ASINs with a documented behaviour, for tests and demos. Every other ASIN is either a generated
 * catalog ASIN (see isCatalogAsin) or unknown (404).
 */
export const SPECIAL_ASINS = {
  /** Exists, but has no offer: no price, "Currently unavailable." */
  noPrice: 'B0NOPRICE1',
  /** Always answered with the HTTP 200 captcha page. */
  blocked: 'B0BLOCKED1',
  /** 503 on the first request for its URL, the product page afterwards. */
  flaky: 'B0FLAKY001',
  /** 429 (Retry-After: 1) on the first request for its URL, the product page afterwards. */
  throttled: 'B0THROTTL1',
  /** Socket destroyed on the first request for its URL, the product page afterwards. */
  reset: 'B0RESET001',
  /** Answered after a 300 ms delay. */
  slow: 'B0SLOW0001',
  /** A paperback book: authors, four formats, the price a plain format price in the books buy box. */
  paperback: 'B0BOOKSIM1',
  /** A Kindle edition whose price appears only as the selected format's price. */
  kindle: 'B0KINDLE01',
  /** Always answered with the bot-manager interstitial (HTTP 200, meta refresh with `bm-verify`). */
  interstitial: 'B0INTERST1',
  /** Always answered with the WAF's JavaScript challenge (HTTP 202, `x-amzn-waf-action: challenge`). */
  challenge: 'B0CHALLNG1',
  /** Always answered with the WAF's captcha (HTTP 405, `x-amzn-waf-action: captcha`). */
  wafCaptcha: 'B0WAFCAPT1',
  /** Always answered with the storefront's error page (HTTP 200). */
  errorPage: 'B0ERRPAGE1',
  /** Always answered with the sign-in page (HTTP 200). */
  signin: 'B0SIGNIN01',
  /** Always answered with a promotion page: neither a product, nor results, nor a known block (HTTP 200). */
  oddPage: 'B0ODDPAGE1',
} as const;

/** ASINs starting with `B0NOTF` (`B0NOTFOUND`, `B0NOTF0001`, …) are always unknown (404). */
export const NOT_FOUND_PREFIX = 'B0NOTF';

/** Well-known catalog ASINs `B0SIM00001`…`B0SIM00050`: always exist, always in stock with a price. */
export const WELL_KNOWN_ASINS: readonly string[] = Array.from({ length: 50 }, (_, i) => `B0SIM${String(i + 1).padStart(5, '0')}`);

function checkChar(first9: string): string {
  let sum = 0;
  for (let i = 0; i < first9.length; i++) sum += first9.charCodeAt(i) * (i + 1);
  return BASE36[sum % 36] as string;
}

/**
 * A generated catalog ASIN: `B0`, the category digit, six characters from `seed`, and a check
 * character — so the simulator can tell its own ASINs from made-up ones without a database.
 */
export function makeCatalogAsin(categoryIndex: number, seed: string): string {
  let hash = hashString(seed);
  let body = '';
  for (let i = 0; i < 6; i++) {
    body += BASE36[hash % 36];
    hash = Math.floor(hash / 36) ^ hashString(seed, hash + i);
    hash >>>= 0;
  }
  const first9 = `B0${BASE36[categoryIndex]}${body}`;
  return first9 + checkChar(first9);
}

export function isCatalogAsin(asin: string): boolean {
  if (!/^B0[0-9A-Z]{8}$/.test(asin)) return false;
  const category = BASE36.indexOf(asin[2] as string);
  if (category < 0 || category >= CATEGORIES.length) return false;
  return checkChar(asin.slice(0, 9)) === asin[9];
}

/** Category of any existing ASIN (generated, well-known or special). */
export function categoryOfAsin(asin: string): number {
  if (isCatalogAsin(asin)) return BASE36.indexOf(asin[2] as string);
  const wellKnown = WELL_KNOWN_ASINS.indexOf(asin);
  if (wellKnown >= 0) return wellKnown % CATEGORIES.length;
  return hashString(asin) % CATEGORIES.length;
}
