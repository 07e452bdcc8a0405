import { describe, expect, it } from 'vitest';
import { parsePrice } from '../src/index.ts';

describe('parsePrice', () => {
  it.each([
    ['$1,299.99', undefined, 1299.99, 'USD'],
    ['$5', undefined, 5, 'USD'],
    ['1.299,99 €', undefined, 1299.99, 'EUR'],
    ['1.299,99€', undefined, 1299.99, 'EUR'],
    ['1\u00a0299,99\u00a0€', undefined, 1299.99, 'EUR'],
    ['1\u202f299,99\u00a0€', undefined, 1299.99, 'EUR'],
    ['£12.00', undefined, 12, 'GBP'],
    ['¥1,980', undefined, 1980, 'JPY'],
    ['￥1,980', undefined, 1980, 'JPY'],
    ['R$ 1.299,00', undefined, 1299, 'BRL'],
    ['CA$12.50', undefined, 12.5, 'CAD'],
    ['EUR 12,00', undefined, 12, 'EUR'],
    ['12,99 €', undefined, 12.99, 'EUR'],
    ['1.299 €', undefined, 1299, 'EUR'],
    ['₹1,29,999.00', undefined, 129999, 'INR'],
    ['1 299,00 kr', undefined, 1299, 'SEK'],
    ['1299,99 zł', undefined, 1299.99, 'PLN'],
    ['1.299,99 TL', undefined, 1299.99, 'TRY'],
    ['AED 1,299.00', undefined, 1299, 'AED'],
    ['S$12.50', undefined, 12.5, 'SGD'],
    ['US$12.50', { currency: 'CAD' }, 12.5, 'USD'],
    ['$12.50', { currency: 'CAD' }, 12.5, 'CAD'],
    ['$1,299.00', { currency: 'MXN' }, 1299, 'MXN'],
    ['$12.50', { locale: 'en-AU' }, 12.5, 'AUD'],
    ['$12.50', { currency: 'EUR' }, 12.5, 'USD'],
    ['12.99', { currency: 'GBP' }, 12.99, 'GBP'],
    ['￥1,980.00', undefined, 1980, 'JPY'],
    ['$749.99 with 25 percent savings', undefined, 749.99, 'USD'],
    ['£24.50 - £29.99', undefined, 24.5, 'GBP'],
    ['١٬٢٩٩٫٩٩ ر.س', undefined, 1299.99, 'SAR'],
    // Re-indented markup splits a price around its separator; the fraction stays.
    ['$14 .99', undefined, 14.99, 'USD'],
    ['$14\n   .99', undefined, 14.99, 'USD'],
    ['$ 14 . 99', undefined, 14.99, 'USD'],
    ['14 ,99 €', undefined, 14.99, 'EUR'],
    ['1 299 ,99 €', undefined, 1299.99, 'EUR'],
    // A shopper's currency preference: any ISO code, and the signs of other dollars.
    ['TWD 1,234', { currency: 'JPY' }, 1234, 'TWD'],
    ['TWD1,234.50', { currency: 'JPY' }, 1234.5, 'TWD'],
    ['NT$1,234', { currency: 'JPY' }, 1234, 'TWD'],
    ['HK$99.00', { currency: 'USD' }, 99, 'HKD'],
    ['KRW 12,000', { currency: 'USD' }, 12000, 'KRW'],
    ['$1,299.00', { currency: 'TWD' }, 1299, 'TWD'],
  ])('reads %j', (text, hint, amount, currency) => {
    const price = parsePrice(text, hint);
    expect(price).toEqual({ amount, currency, raw: text.trim() });
  });

  it('keeps amounts free of float noise', () => {
    for (const cents of [1, 7, 10, 29, 99, 129999, 100000001, 33333333]) {
      const text = `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
      const amount = parsePrice(text)?.amount;
      expect(amount).toBe(cents / 100);
      expect(String(amount)).not.toMatch(/\d{5,}$/);
    }
    expect(String(parsePrice('$1,299.99')?.amount)).toBe('1299.99');
    expect(String(parsePrice('0,07 €')?.amount)).toBe('0.07');
  });

  it.each([[''], ['   '], ['Currently unavailable'], ['€'], ['12.99'], ['1.299.99 €'], ['¥1,98']])('returns undefined for %j', (text) => {
    expect(parsePrice(text)).toBeUndefined();
  });

  it('trims the raw text', () => {
    expect(parsePrice('  $3.50 \n')?.raw).toBe('$3.50');
  });
});
