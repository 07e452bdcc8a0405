export type MarketplaceDomain =
  | 'amazon.com'
  | 'amazon.ca'
  | 'amazon.com.mx'
  | 'amazon.com.br'
  | 'amazon.co.uk'
  | 'amazon.de'
  | 'amazon.fr'
  | 'amazon.it'
  | 'amazon.es'
  | 'amazon.nl'
  | 'amazon.se'
  | 'amazon.pl'
  | 'amazon.com.be'
  | 'amazon.com.tr'
  | 'amazon.ae'
  | 'amazon.sa'
  | 'amazon.in'
  | 'amazon.co.jp'
  | 'amazon.sg'
  | 'amazon.com.au';

export interface Marketplace {
  domain: MarketplaceDomain;
  /** Always `https://www.<domain>`; page URLs are built on it. */
  origin: string;
  /** ISO 4217 code prices are quoted in. */
  currency: string;
  /** BCP-47 language the storefront serves by default; drives number formats. */
  defaultLang: string;
}

function entry(domain: MarketplaceDomain, currency: string, defaultLang: string): Marketplace {
  return Object.freeze({ domain, origin: `https://www.${domain}`, currency, defaultLang });
}

export const MARKETPLACES: Readonly<Record<MarketplaceDomain, Marketplace>> = Object.freeze({
  'amazon.com': entry('amazon.com', 'USD', 'en-US'),
  'amazon.ca': entry('amazon.ca', 'CAD', 'en-CA'),
  'amazon.com.mx': entry('amazon.com.mx', 'MXN', 'es-MX'),
  'amazon.com.br': entry('amazon.com.br', 'BRL', 'pt-BR'),
  'amazon.co.uk': entry('amazon.co.uk', 'GBP', 'en-GB'),
  'amazon.de': entry('amazon.de', 'EUR', 'de-DE'),
  'amazon.fr': entry('amazon.fr', 'EUR', 'fr-FR'),
  'amazon.it': entry('amazon.it', 'EUR', 'it-IT'),
  'amazon.es': entry('amazon.es', 'EUR', 'es-ES'),
  'amazon.nl': entry('amazon.nl', 'EUR', 'nl-NL'),
  'amazon.se': entry('amazon.se', 'SEK', 'sv-SE'),
  'amazon.pl': entry('amazon.pl', 'PLN', 'pl-PL'),
  'amazon.com.be': entry('amazon.com.be', 'EUR', 'fr-BE'),
  'amazon.com.tr': entry('amazon.com.tr', 'TRY', 'tr-TR'),
  'amazon.ae': entry('amazon.ae', 'AED', 'en-AE'),
  'amazon.sa': entry('amazon.sa', 'SAR', 'ar-SA'),
  'amazon.in': entry('amazon.in', 'INR', 'en-IN'),
  'amazon.co.jp': entry('amazon.co.jp', 'JPY', 'ja-JP'),
  'amazon.sg': entry('amazon.sg', 'SGD', 'en-SG'),
  'amazon.com.au': entry('amazon.com.au', 'AUD', 'en-AU'),
});

export const MARKETPLACE_DOMAINS: readonly MarketplaceDomain[] = Object.freeze(Object.keys(MARKETPLACES) as MarketplaceDomain[]);

export function isMarketplaceDomain(value: string): value is MarketplaceDomain {
  return Object.hasOwn(MARKETPLACES, value);
}

/** The storefront's own subdomains: the desktop site, the charity site and the mobile site. */
const STOREFRONT_SUBDOMAIN = /^(?:www|smile|m)\./;

/** Maps `www.amazon.de`, `amazon.de`, `smile.amazon.de` or `m.amazon.de` (any case) to its marketplace. */
export function marketplaceForHost(host: string): Marketplace | undefined {
  const bare = host.toLowerCase().replace(STOREFRONT_SUBDOMAIN, '');
  return isMarketplaceDomain(bare) ? MARKETPLACES[bare] : undefined;
}

/**
 * Marketplace whose storefront `origin` points at. Parsers use it to pick the currency and number
 * locale; unknown origins (the simulator on 127.0.0.1, tests) yield undefined and callers fall back.
 */
export function marketplaceForOrigin(origin: string): Marketplace | undefined {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return undefined;
  }
  return marketplaceForHost(host);
}
