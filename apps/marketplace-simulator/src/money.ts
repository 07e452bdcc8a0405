import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';

/** How a storefront prints money. Written out by hand (not Intl) so the parser is tested against an independent formatter. */
interface MoneyFormat {
  symbol: string;
  symbolFirst: boolean;
  /** Between symbol and number. */
  gap: string;
  group: string;
  decimal: string;
  /** Indian numbering groups by 2 after the first 3 digits. */
  indian?: boolean;
}

const NBSP = '\u00a0';
const NNBSP = '\u202f';
const EURO_DE: MoneyFormat = { symbol: '€', symbolFirst: false, gap: NBSP, group: '.', decimal: ',' };

const FORMATS: Record<MarketplaceDomain, MoneyFormat> = {
  'amazon.com': { symbol: '$', symbolFirst: true, gap: '', group: ',', decimal: '.' },
  'amazon.ca': { symbol: '$', symbolFirst: true, gap: '', group: ',', decimal: '.' },
  'amazon.com.mx': { symbol: '$', symbolFirst: true, gap: '', group: ',', decimal: '.' },
  'amazon.com.br': { symbol: 'R$', symbolFirst: true, gap: NBSP, group: '.', decimal: ',' },
  'amazon.co.uk': { symbol: '£', symbolFirst: true, gap: '', group: ',', decimal: '.' },
  'amazon.de': EURO_DE,
  'amazon.fr': { symbol: '€', symbolFirst: false, gap: NBSP, group: NNBSP, decimal: ',' },
  'amazon.it': EURO_DE,
  'amazon.es': EURO_DE,
  'amazon.nl': { symbol: '€', symbolFirst: true, gap: NBSP, group: '.', decimal: ',' },
  'amazon.se': { symbol: 'kr', symbolFirst: false, gap: NBSP, group: NBSP, decimal: ',' },
  'amazon.pl': { symbol: 'zł', symbolFirst: false, gap: NBSP, group: NBSP, decimal: ',' },
  'amazon.com.be': EURO_DE,
  'amazon.com.tr': { symbol: 'TL', symbolFirst: false, gap: NBSP, group: '.', decimal: ',' },
  'amazon.ae': { symbol: 'AED', symbolFirst: true, gap: NBSP, group: ',', decimal: '.' },
  'amazon.sa': { symbol: 'SAR', symbolFirst: true, gap: NBSP, group: ',', decimal: '.' },
  'amazon.in': { symbol: '₹', symbolFirst: true, gap: '', group: ',', decimal: '.', indian: true },
  'amazon.co.jp': { symbol: '￥', symbolFirst: true, gap: '', group: ',', decimal: '.' },
  'amazon.sg': { symbol: 'S$', symbolFirst: true, gap: '', group: ',', decimal: '.' },
  'amazon.com.au': { symbol: '$', symbolFirst: true, gap: '', group: ',', decimal: '.' },
};

// Rough USD exchange rates; only plausibility matters.
const USD_RATE: Record<string, number> = {
  USD: 1,
  CAD: 1.36,
  MXN: 17.1,
  BRL: 5.0,
  GBP: 0.79,
  EUR: 0.92,
  SEK: 10.6,
  PLN: 4.0,
  TRY: 32,
  AED: 3.67,
  SAR: 3.75,
  INR: 83,
  JPY: 150,
  SGD: 1.35,
  AUD: 1.52,
  // Currencies a shopper may choose to see prices in (the storefront's currency preference).
  TWD: 32.3,
  HKD: 7.8,
  KRW: 1350,
  NZD: 1.65,
  CHF: 0.88,
  CNY: 7.2,
};

/** Currencies a shopper can pick to see prices in, besides the storefront's own. */
export const SHOPPER_CURRENCIES: readonly string[] = Object.keys(USD_RATE);

export interface Money {
  /** Integer minor units (cents; yen for JPY). */
  minor: number;
  currency: string;
  decimals: number;
}

export function decimalsOf(currency: string): number {
  return currency === 'JPY' || currency === 'KRW' ? 0 : 2;
}

/** Shelf price on `domain` for a USD price: converted, then charm-priced (…,99 or round yen). */
export function localPrice(usdCents: number, domain: MarketplaceDomain): Money {
  return priceIn(usdCents, MARKETPLACES[domain].currency);
}

/** A USD price in `currency` (the storefront's, or one the shopper chose), charm-priced. */
export function priceIn(usdCents: number, currency: string): Money {
  const rate = USD_RATE[currency] ?? 1;
  const decimals = decimalsOf(currency);
  if (decimals === 0) return { minor: Math.max(10, Math.round(((usdCents / 100) * rate) / 10) * 10), currency, decimals };
  const converted = Math.round(usdCents * rate);
  return { minor: usdCents % 100 === 0 ? Math.round(converted / 100) * 100 : Math.floor(converted / 100) * 100 + 99, currency, decimals };
}

/** A price in any converted currency as USD cents (unrounded rates, so only near the original). */
export function usdCentsOf(money: Money): number {
  return Math.max(1, Math.round((amountOf(money) * 100) / (USD_RATE[money.currency] ?? 1)));
}

export function amountOf(money: Money): number {
  return money.minor / 10 ** money.decimals;
}

function group(digits: string, format: MoneyFormat): string {
  if (format.indian && digits.length > 3) {
    const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, format.group);
    return `${head}${format.group}${digits.slice(-3)}`;
  }
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, format.group);
}

export interface MoneyParts {
  symbol: string;
  symbolFirst: boolean;
  /** Grouped integer digits. */
  whole: string;
  decimal: string;
  /** Empty for zero-decimal currencies. */
  fraction: string;
  /** The full text as the storefront prints it. */
  text: string;
}

// A price in a currency the shopper chose over the storefront's: its ISO code first, English digits.
const SHOPPER_FORMAT: Omit<MoneyFormat, 'symbol'> = { symbolFirst: true, gap: NBSP, group: ',', decimal: '.' };

export function formatMoney(money: Money, domain: MarketplaceDomain): MoneyParts {
  const format = money.currency === MARKETPLACES[domain].currency ? FORMATS[domain] : { ...SHOPPER_FORMAT, symbol: money.currency };
  const digits = String(money.minor).padStart(money.decimals + 1, '0');
  const whole = group(digits.slice(0, digits.length - money.decimals), format);
  const fraction = money.decimals === 0 ? '' : digits.slice(-money.decimals);
  const number = fraction === '' ? whole : `${whole}${format.decimal}${fraction}`;
  const text = format.symbolFirst ? `${format.symbol}${format.gap}${number}` : `${number}${format.gap}${format.symbol}`;
  return { symbol: format.symbol, symbolFirst: format.symbolFirst, whole, decimal: format.decimal, fraction, text };
}

/** Integer with the storefront's thousands separator (review counts, ranks). */
export function formatCount(value: number, domain: MarketplaceDomain): string {
  const format = FORMATS[domain];
  return group(String(value), { ...format, group: format.group === NNBSP ? NBSP : format.group });
}
