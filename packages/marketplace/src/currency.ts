import { MARKETPLACES } from './marketplaces.ts';

/** ISO 4217 minor-unit exponent; only the currencies the marketplaces quote in deviate from 2. */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'CLP', 'VND', 'ISK', 'HUF']);

export function currencyDecimals(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : 2;
}

/**
 * The ISO 4217 codes a storefront may show a price in: its own, and the ones a shopper can choose to
 * see prices in (a visitor's currency preference shows `TWD 1,234` on amazon.co.jp).
 */
export const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(
  (
    'AED ARS AUD BDT BGN BHD BRL CAD CHF CLP CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JOD JPY KES KRW KWD ' +
    'LKR MAD MXN MYR NGN NOK NZD OMR PEN PHP PKR PLN QAR RON RSD RUB SAR SEK SGD THB TRY TWD UAH USD VND ZAR'
  ).split(' '),
);

/** Currencies whose own sign is a bare `$`. */
const DOLLAR_CURRENCIES = new Set(['USD', 'CAD', 'MXN', 'AUD', 'SGD', 'NZD', 'HKD', 'TWD', 'ARS', 'CLP', 'COP']);

// Checked in order, so prefixed dollars win over the bare `$` and `R$` over `$`.
const SYMBOLS: readonly (readonly [RegExp, string])[] = [
  [/(?<![A-Za-z])R\$/, 'BRL'],
  [/(?<![A-Za-z])(?:CA|CDN|C)\$/i, 'CAD'],
  [/(?<![A-Za-z])(?:AU|A)\$/i, 'AUD'],
  [/(?<![A-Za-z])(?:SG|S)\$/i, 'SGD'],
  [/(?<![A-Za-z])(?:MX|Mex)\$/i, 'MXN'],
  [/(?<![A-Za-z])NZ\$/i, 'NZD'],
  [/(?<![A-Za-z])NT\$/i, 'TWD'],
  [/(?<![A-Za-z])HK\$/i, 'HKD'],
  [/(?<![A-Za-z])US\$/i, 'USD'],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/[¥￥円]/, 'JPY'],
  [/₹|\bRs\.?/, 'INR'],
  [/zł/i, 'PLN'],
  [/₺|\bTL\b/, 'TRY'],
  [/₩/, 'KRW'],
  [/₱/, 'PHP'],
  [/฿/, 'THB'],
  [/₪/, 'ILS'],
  [/₫/, 'VND'],
  [/د\.إ/, 'AED'],
  [/ر\.س/, 'SAR'],
  [/\bkr\b/i, 'SEK'],
];

const ISO_CODE = /(?:^|[^A-Za-z])([A-Z]{3})(?![A-Za-z])/g;

/**
 * Currency named in `text` by ISO code or symbol. A bare `$` means the hint currency when that is a
 * dollar currency (amazon.ca shows `$12.50` for CAD), else USD; `kr` likewise follows the hint.
 */
export function detectCurrency(text: string, hintCurrency?: string): string | undefined {
  for (const match of text.matchAll(ISO_CODE)) {
    const code = match[1];
    if (code && KNOWN_CURRENCIES.has(code)) return code;
  }
  for (const [pattern, currency] of SYMBOLS) {
    if (pattern.test(text)) {
      if (currency === 'SEK' && hintCurrency && ['DKK', 'NOK', 'SEK'].includes(hintCurrency)) return hintCurrency;
      return currency;
    }
  }
  if (text.includes('$')) return hintCurrency && DOLLAR_CURRENCIES.has(hintCurrency) ? hintCurrency : 'USD';
  return undefined;
}

/** Currency of the storefront whose default language is `locale` (`de-DE` → EUR), if any. */
export function currencyForLocale(locale: string): string | undefined {
  const lower = locale.toLowerCase();
  for (const marketplace of Object.values(MARKETPLACES)) {
    if (marketplace.defaultLang.toLowerCase() === lower) return marketplace.currency;
  }
  return undefined;
}
