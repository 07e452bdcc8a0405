import { describe, expect, it } from 'vitest';
import { MARKETPLACE_DOMAINS, STOREFRONT_LANGUAGES, isDeliveryZip, isSearchSort, storefrontLanguage, takesDeliveryZip } from '../src/index.ts';

describe('storefront options', () => {
  it('knows the sort names and nothing else', () => {
    expect(isSearchSort('price_asc')).toBe(true);
    expect(isSearchSort('toString')).toBe(false);
    expect(isSearchSort('cheapest')).toBe(false);
  });

  it('matches a language tag to the storefront language, region first', () => {
    expect(storefrontLanguage('amazon.de', 'en')).toBe('en_GB');
    expect(storefrontLanguage('amazon.de', 'en-US')).toBe('en_GB');
    expect(storefrontLanguage('amazon.ca', 'fr-CA')).toBe('fr_CA');
    expect(storefrontLanguage('amazon.com.be', 'nl')).toBe('nl_BE');
    expect(storefrontLanguage('amazon.co.jp', 'EN-us')).toBe('en_US');
    expect(storefrontLanguage('amazon.fr', 'de')).toBeUndefined();
    for (const domain of MARKETPLACE_DOMAINS) expect(STOREFRONT_LANGUAGES[domain].length).toBeGreaterThan(0);
  });

  it('checks postal codes as each storefront writes them', () => {
    expect(isDeliveryZip('10001', 'amazon.com')).toBe(true);
    expect(isDeliveryZip('10115', 'amazon.de')).toBe(true);
    expect(isDeliveryZip('SW1A 1AA', 'amazon.co.uk')).toBe(true);
    expect(isDeliveryZip('100-0001', 'amazon.co.jp')).toBe(true);
    expect(isDeliveryZip('1011 AB', 'amazon.nl')).toBe(true);
    expect(isDeliveryZip('1234', 'amazon.de')).toBe(false);
    expect(isDeliveryZip('10115', 'amazon.ae')).toBe(false);
    expect(takesDeliveryZip('amazon.ae')).toBe(false);
    expect(isDeliveryZip('10115')).toBe(true);
    expect(isDeliveryZip('<script>')).toBe(false);
  });
});
