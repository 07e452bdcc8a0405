import { describe, expect, it } from 'vitest';
import { MARKETPLACES, MARKETPLACE_DOMAINS, isAllowedMarketplaceHost, marketplaceById, marketplaceDomainOf, marketplaceForOrigin } from '../src/index.ts';

const EXPECTED: Record<string, [string, string]> = {
  'amazon.com': ['USD', 'en-US'],
  'amazon.ca': ['CAD', 'en-CA'],
  'amazon.com.mx': ['MXN', 'es-MX'],
  'amazon.com.br': ['BRL', 'pt-BR'],
  'amazon.co.uk': ['GBP', 'en-GB'],
  'amazon.de': ['EUR', 'de-DE'],
  'amazon.fr': ['EUR', 'fr-FR'],
  'amazon.it': ['EUR', 'it-IT'],
  'amazon.es': ['EUR', 'es-ES'],
  'amazon.nl': ['EUR', 'nl-NL'],
  'amazon.se': ['SEK', 'sv-SE'],
  'amazon.pl': ['PLN', 'pl-PL'],
  'amazon.com.be': ['EUR', 'fr-BE'],
  'amazon.com.tr': ['TRY', 'tr-TR'],
  'amazon.ae': ['AED', 'en-AE'],
  'amazon.sa': ['SAR', 'ar-SA'],
  'amazon.in': ['INR', 'en-IN'],
  'amazon.co.jp': ['JPY', 'ja-JP'],
  'amazon.sg': ['SGD', 'en-SG'],
  'amazon.com.au': ['AUD', 'en-AU'],
};

describe('MARKETPLACES', () => {
  it('lists exactly the 20 storefronts with origin, currency and language', () => {
    expect([...MARKETPLACE_DOMAINS].sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [domain, [currency, lang]] of Object.entries(EXPECTED)) {
      expect(MARKETPLACES[domain as keyof typeof MARKETPLACES]).toEqual({
        domain,
        origin: `https://www.${domain}`,
        currency,
        defaultLang: lang,
        id: expect.stringMatching(/^A[A-Z0-9]{8,13}$/),
      });
    }
    expect(new Set(Object.values(MARKETPLACES).map((m) => m.id)).size).toBe(20);
  });

  it('reads a storefront named leniently, the one way every service reads it', () => {
    for (const named of ['amazon.de', 'Amazon.DE', 'www.amazon.de', 'https://www.amazon.de/', ' http://amazon.de '])
      expect(marketplaceDomainOf(named), named).toBe('amazon.de');
    for (const other of ['amazon.com.evil.net', 'evil.com', '', 42, undefined, null]) expect(marketplaceDomainOf(other)).toBeUndefined();
  });

  it('finds a storefront by the marketplace id its pages carry', () => {
    expect(marketplaceById('A1AM78C64UM0Y8')?.domain).toBe('amazon.com.mx');
    expect(marketplaceById('ATVPDKIKX0DER')?.currency).toBe('USD');
    expect(marketplaceById('A1PA6795UKMFR9')?.domain).toBe('amazon.de');
    expect(marketplaceById('NOPE')).toBeUndefined();
  });

  it('is frozen', () => {
    expect(Object.isFrozen(MARKETPLACES)).toBe(true);
    expect(Object.isFrozen(MARKETPLACES['amazon.de'])).toBe(true);
  });

  it('finds the marketplace of an origin', () => {
    expect(marketplaceForOrigin('https://www.amazon.co.jp')?.currency).toBe('JPY');
    expect(marketplaceForOrigin('https://amazon.de/')?.domain).toBe('amazon.de');
    expect(marketplaceForOrigin('http://127.0.0.1:4010')).toBeUndefined();
    expect(marketplaceForOrigin('not a url')).toBeUndefined();
  });
});

describe('isAllowedMarketplaceHost', () => {
  it.each(['www.amazon.com', 'amazon.com', 'smile.amazon.com', 'm.amazon.com', 'M.AMAZON.DE', 'WWW.AMAZON.DE', 'www.amazon.com.au', 'www.amazon.co.jp'])(
    'allows %s',
    (host) => expect(isAllowedMarketplaceHost(host)).toBe(true),
  );

  it.each([
    'evil.com',
    'amazon.com.evil.com',
    'www.amazon.com.evil.com',
    'evilamazon.com',
    'm.www.amazon.com',
    'mm.amazon.com',
    'm.amazon.cn',
    'www.amazon.cn',
    'www.amazon.com:8080',
    'www.amazon.com@evil.com',
    'www.amazon.com/dp',
    '',
    '127.0.0.1:4010',
  ])('rejects %j', (host) => expect(isAllowedMarketplaceHost(host)).toBe(false));

  it('allows extra hosts exactly, port included', () => {
    expect(isAllowedMarketplaceHost('127.0.0.1:4010', ['127.0.0.1:4010'])).toBe(true);
    expect(isAllowedMarketplaceHost('LOCALHOST:4010', ['localhost:4010'])).toBe(true);
    expect(isAllowedMarketplaceHost('127.0.0.1:4011', ['127.0.0.1:4010'])).toBe(false);
    expect(isAllowedMarketplaceHost('127.0.0.1', ['127.0.0.1:4010'])).toBe(false);
  });
});
