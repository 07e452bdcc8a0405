import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';
import { SHOPPER_CURRENCIES } from './money.ts';

/** The storefront's cookie holding the currency a shopper chose to see prices in. */
export const CURRENCY_COOKIE = 'i18n-prefs';

/**
 * The currency a shopper chose on this storefront (`i18n-prefs=TWD`), when it is one the simulator
 * converts to and not the storefront's own; the storefront's prices otherwise.
 */
export function chosenCurrency(cookieHeader: string | undefined, domain: MarketplaceDomain): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== CURRENCY_COOKIE) continue;
    const code = part
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    return SHOPPER_CURRENCIES.includes(code) && code !== MARKETPLACES[domain].currency ? code : undefined;
  }
  return undefined;
}
