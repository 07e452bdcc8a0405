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
  /** The marketplace id its pages name themselves by (`ue_mid`, `marketplaceId`). */
  id: string;
}

function entry(domain: MarketplaceDomain, currency: string, defaultLang: string, id: string): Marketplace {
  return Object.freeze({ domain, origin: `https://www.${domain}`, currency, defaultLang, id });
}

export const MARKETPLACES: Readonly<Record<MarketplaceDomain, Marketplace>> = Object.freeze({
  'amazon.com': entry('amazon.com', 'USD', 'en-US', 'ATVPDKIKX0DER'),
  'amazon.ca': entry('amazon.ca', 'CAD', 'en-CA', 'A2EUQ1WTGCTBG2'),
  'amazon.com.mx': entry('amazon.com.mx', 'MXN', 'es-MX', 'A1AM78C64UM0Y8'),
  'amazon.com.br': entry('amazon.com.br', 'BRL', 'pt-BR', 'A2Q3Y263D00KWC'),
  'amazon.co.uk': entry('amazon.co.uk', 'GBP', 'en-GB', 'A1F83G8C2ARO7P'),
  'amazon.de': entry('amazon.de', 'EUR', 'de-DE', 'A1PA6795UKMFR9'),
  'amazon.fr': entry('amazon.fr', 'EUR', 'fr-FR', 'A13V1IB3VIYZZH'),
  'amazon.it': entry('amazon.it', 'EUR', 'it-IT', 'APJ6JRA9NG5V4'),
  'amazon.es': entry('amazon.es', 'EUR', 'es-ES', 'A1RKKUPIHCS9HS'),
  'amazon.nl': entry('amazon.nl', 'EUR', 'nl-NL', 'A1805IZSGTT6HS'),
  'amazon.se': entry('amazon.se', 'SEK', 'sv-SE', 'A2NODRKZP88ZB9'),
  'amazon.pl': entry('amazon.pl', 'PLN', 'pl-PL', 'A1C3SOZRARQ6R3'),
  'amazon.com.be': entry('amazon.com.be', 'EUR', 'fr-BE', 'AMEN7PMS3EDWL'),
  'amazon.com.tr': entry('amazon.com.tr', 'TRY', 'tr-TR', 'A33AVAJ2PDY3EV'),
  'amazon.ae': entry('amazon.ae', 'AED', 'en-AE', 'A2VIGQ35RCS4UG'),
  'amazon.sa': entry('amazon.sa', 'SAR', 'ar-SA', 'A17E79C6D8DWNP'),
  'amazon.in': entry('amazon.in', 'INR', 'en-IN', 'A21TJRUUN4KGV'),
  'amazon.co.jp': entry('amazon.co.jp', 'JPY', 'ja-JP', 'A1VC38T7YXB528'),
  'amazon.sg': entry('amazon.sg', 'SGD', 'en-SG', 'A19VAU5U5O7RUS'),
  'amazon.com.au': entry('amazon.com.au', 'AUD', 'en-AU', 'A39IBJ37TRP1C6'),
});

export const MARKETPLACE_DOMAINS: readonly MarketplaceDomain[] = Object.freeze(Object.keys(MARKETPLACES) as MarketplaceDomain[]);

const BY_ID: ReadonlyMap<string, Marketplace> = new Map(Object.values(MARKETPLACES).map((m) => [m.id, m]));

/** The storefront a marketplace id names (`A1PA6795UKMFR9` → amazon.de). */
export function marketplaceById(id: string): Marketplace | undefined {
  return BY_ID.get(id);
}

export function isMarketplaceDomain(value: string): value is MarketplaceDomain {
  return Object.hasOwn(MARKETPLACES, value);
}

/**
 * The storefront a user named, read leniently the one way every service reads it: any case, with
 * or without a scheme, `www.` and a trailing slash (`https://www.Amazon.de/` is amazon.de).
 * Undefined for anything else, other types included.
 */
export function marketplaceDomainOf(value: unknown): MarketplaceDomain | undefined {
  if (typeof value !== 'string') return undefined;
  const bare = value
    .trim()
    .toLowerCase()
    .replace(/^(https?:\/\/)?(www\.)?/, '')
    .replace(/\/$/, '');
  return isMarketplaceDomain(bare) ? bare : undefined;
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
