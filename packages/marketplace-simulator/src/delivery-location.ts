import type { MarketplaceDomain } from '@crawl/marketplace';

/** What the header says without a chosen postal code: the storefront's country. */
const COUNTRY: Record<MarketplaceDomain, string> = {
  'amazon.com': 'United States',
  'amazon.ca': 'Canada',
  'amazon.com.mx': 'México',
  'amazon.com.br': 'Brasil',
  'amazon.co.uk': 'United Kingdom',
  'amazon.de': 'Deutschland',
  'amazon.fr': 'France',
  'amazon.it': 'Italia',
  'amazon.es': 'España',
  'amazon.nl': 'Nederland',
  'amazon.se': 'Sverige',
  'amazon.pl': 'Polska',
  'amazon.com.be': 'Belgique',
  'amazon.com.tr': 'Türkiye',
  'amazon.ae': 'United Arab Emirates',
  'amazon.sa': 'Saudi Arabia',
  'amazon.in': 'India',
  'amazon.co.jp': '日本',
  'amazon.sg': 'Singapore',
  'amazon.com.au': 'Australia',
};

/** The delivery location a page is rendered for: the postal code asked for, else the country. */
export function deliveryLocation(domain: MarketplaceDomain, deliveryZip: string | undefined): string {
  return deliveryZip ?? COUNTRY[domain];
}

/** A postal code the simulator accepts as a delivery location (letters, digits, a space or dash). */
export function isPostalCode(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(value);
}
