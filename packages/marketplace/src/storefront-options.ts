import type { MarketplaceDomain } from './marketplaces.ts';

/** A search job's `config.sort` → the storefront's `s=` parameter. */
export const SEARCH_SORTS = {
  featured: 'relevanceblender',
  price_asc: 'price-asc-rank',
  price_desc: 'price-desc-rank',
  avg_review: 'review-rank',
  newest: 'date-desc-rank',
} as const;
export type SearchSort = keyof typeof SEARCH_SORTS;
export const SEARCH_SORT_NAMES = Object.keys(SEARCH_SORTS) as SearchSort[];

export function isSearchSort(value: unknown): value is SearchSort {
  return typeof value === 'string' && Object.hasOwn(SEARCH_SORTS, value);
}

/**
 * The languages each storefront offers in its language switcher (`language=` parameter), its
 * default first. A job's `config.lang` is honoured where the storefront has that language.
 */
export const STOREFRONT_LANGUAGES: Readonly<Record<MarketplaceDomain, readonly string[]>> = {
  'amazon.com': ['en_US', 'es_US', 'de_DE', 'pt_BR', 'zh_CN', 'zh_TW', 'ko_KR', 'he_IL', 'ar_AE'],
  'amazon.ca': ['en_CA', 'fr_CA'],
  'amazon.com.mx': ['es_MX'],
  'amazon.com.br': ['pt_BR'],
  'amazon.co.uk': ['en_GB'],
  'amazon.de': ['de_DE', 'en_GB', 'nl_NL', 'pl_PL', 'tr_TR', 'cs_CZ', 'da_DK'],
  'amazon.fr': ['fr_FR', 'en_GB'],
  'amazon.it': ['it_IT', 'en_GB'],
  'amazon.es': ['es_ES', 'pt_PT', 'en_GB'],
  'amazon.nl': ['nl_NL', 'en_GB'],
  'amazon.se': ['sv_SE', 'en_GB'],
  'amazon.pl': ['pl_PL'],
  'amazon.com.be': ['fr_BE', 'nl_BE', 'en_GB'],
  'amazon.com.tr': ['tr_TR'],
  'amazon.ae': ['en_AE', 'ar_AE'],
  'amazon.sa': ['ar_AE', 'en_AE'],
  'amazon.in': ['en_IN', 'hi_IN', 'ta_IN', 'te_IN', 'kn_IN', 'ml_IN', 'bn_IN', 'mr_IN'],
  'amazon.co.jp': ['ja_JP', 'en_US', 'zh_CN'],
  'amazon.sg': ['en_SG'],
  'amazon.com.au': ['en_AU'],
};

/**
 * The storefront language for a BCP 47 tag (`en-GB`, `en`, `de`): the exact language and region
 * when offered, else the first offered one of that language; undefined when it has none.
 */
export function storefrontLanguage(domain: MarketplaceDomain, lang: string): string | undefined {
  const offered = STOREFRONT_LANGUAGES[domain];
  const [language = '', region] = lang.replace(/_/g, '-').split('-');
  const wanted = `${language.toLowerCase()}_${region?.toUpperCase() ?? ''}`;
  return offered.find((code) => code === wanted) ?? offered.find((code) => code.startsWith(`${language.toLowerCase()}_`));
}

/** Postal codes as each storefront's delivery location accepts them; amazon.ae picks a city, not a code. */
const POSTAL_CODES: Readonly<Record<MarketplaceDomain, RegExp | undefined>> = {
  'amazon.com': /^\d{5}(-\d{4})?$/,
  'amazon.ca': /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/,
  'amazon.com.mx': /^\d{5}$/,
  'amazon.com.br': /^\d{5}-?\d{3}$/,
  'amazon.co.uk': /^[A-Za-z]{1,2}\d[A-Za-z\d]? ?\d[A-Za-z]{2}$/,
  'amazon.de': /^\d{5}$/,
  'amazon.fr': /^\d{5}$/,
  'amazon.it': /^\d{5}$/,
  'amazon.es': /^\d{5}$/,
  'amazon.nl': /^\d{4} ?[A-Za-z]{2}$/,
  'amazon.se': /^\d{3} ?\d{2}$/,
  'amazon.pl': /^\d{2}-\d{3}$/,
  'amazon.com.be': /^\d{4}$/,
  'amazon.com.tr': /^\d{5}$/,
  'amazon.ae': undefined,
  'amazon.sa': /^\d{5}$/,
  'amazon.in': /^\d{6}$/,
  'amazon.co.jp': /^\d{3}-?\d{4}$/,
  'amazon.sg': /^\d{6}$/,
  'amazon.com.au': /^\d{4}$/,
};
/** Any storefront's postal code, when the storefront is not known yet. */
const ANY_POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/;

/** Whether `zip` is a postal code the storefront (or, without one, some storefront) accepts. */
export function isDeliveryZip(zip: string, domain?: MarketplaceDomain): boolean {
  if (domain === undefined) return ANY_POSTAL_CODE.test(zip);
  return POSTAL_CODES[domain]?.test(zip) ?? false;
}

/** Whether the storefront takes a postal code as its delivery location at all. */
export function takesDeliveryZip(domain: MarketplaceDomain): boolean {
  return POSTAL_CODES[domain] !== undefined;
}
