import { describe, expect, it } from 'vitest';
import { SPECIAL_ASINS, decideFault, parseFaultList } from '../src/index.ts';

describe('parseFaultList', () => {
  it('reads kinds, delays and none', () => {
    expect(parseFaultList('captcha')).toEqual({ delayMs: 0, fault: 'captcha', none: false });
    expect(parseFaultList('slow:200, 429')).toEqual({ delayMs: 200, fault: '429', none: false });
    expect(parseFaultList('slow:100,slow:50')).toEqual({ delayMs: 150, none: false });
    expect(parseFaultList('NONE')).toEqual({ delayMs: 0, none: true });
    expect(parseFaultList('bogus,slow:abc')).toEqual({ delayMs: 0, none: false });
  });
});

describe('decideFault', () => {
  const facts = { pathKey: '/s?k=shoes', attempt: 1, keyword: 'shoes' };

  it('serves normally without configuration', () => {
    expect(decideFault(facts, {}, 1)).toEqual({ delayMs: 0 });
  });

  it('puts the explicit fault before rules, and rules before rates', () => {
    const config = { captchaRate: 1, rules: [{ keyword: 'shoe', fault: '503' as const }] };
    expect(decideFault({ ...facts, explicit: '429' }, config, 1)).toEqual({ delayMs: 0, fault: '429' });
    expect(decideFault(facts, config, 1)).toEqual({ delayMs: 0, fault: '503' });
    expect(decideFault(facts, { captchaRate: 1 }, 1)).toEqual({ delayMs: 0, fault: 'captcha' });
    expect(decideFault({ ...facts, explicit: 'none' }, config, 1)).toEqual({ delayMs: 0 });
  });

  it('limits a rule to the first attempts of a URL', () => {
    const config = { rules: [{ path: '/s?k=shoes', fault: '503' as const, times: 2 }] };
    expect(decideFault({ ...facts, attempt: 2 }, config, 1).fault).toBe('503');
    expect(decideFault({ ...facts, attempt: 3 }, config, 1).fault).toBeUndefined();
  });

  it('has the documented built-in rules, which can be turned off', () => {
    expect(decideFault({ ...facts, keyword: 'Blocked Shoes' }, {}, 1).fault).toBe('captcha');
    expect(decideFault({ pathKey: '/dp/x', attempt: 1, asin: SPECIAL_ASINS.slow }, {}, 1)).toEqual({ delayMs: 300 });
    expect(decideFault({ ...facts, keyword: 'blocked' }, { builtInRules: false }, 1).fault).toBeUndefined();
  });

  it('draws random faults from seed, URL and attempt only', () => {
    const config = { rate503: 0.5 };
    const draws = (seed: number): (string | undefined)[] =>
      Array.from({ length: 200 }, (_, i) => decideFault({ pathKey: `/s?k=${i}`, attempt: 1 }, config, seed).fault);
    expect(draws(3)).toEqual(draws(3));
    expect(draws(3)).not.toEqual(draws(4));
    const failed = draws(3).filter(Boolean).length;
    expect(failed).toBeGreaterThan(70);
    expect(failed).toBeLessThan(130);
  });

  it('draws the attempts of one URL independently', () => {
    // A URL failed on every one of 4 attempts at rate 0.3 should be rare (0.3^4 ≈ 0.8 %), not the
    // fate of the URL: correlated draws made 22–28 % of 50 URLs fail all four.
    const config = { captchaRate: 0.3 };
    const urls = Array.from({ length: 2000 }, (_, i) => `/dp/B0SIM${String(i).padStart(5, '0')}`);
    const failedAll = urls.filter((pathKey) => [1, 2, 3, 4].every((attempt) => decideFault({ pathKey, attempt }, config, 1).fault === 'captcha'));
    expect(failedAll.length).toBeLessThan(40);
    const firstFailed = urls.filter((pathKey) => decideFault({ pathKey, attempt: 1 }, config, 1).fault === 'captcha');
    const secondAlso = firstFailed.filter((pathKey) => decideFault({ pathKey, attempt: 2 }, config, 1).fault === 'captcha');
    expect(secondAlso.length / firstFailed.length).toBeLessThan(0.4);
  });

  it('adds the configured delay to every request', () => {
    expect(decideFault(facts, { slowMs: 40 }, 1)).toEqual({ delayMs: 40 });
    expect(decideFault({ ...facts, explicit: 'slow:10' }, { slowMs: 40 }, 1)).toEqual({ delayMs: 50 });
  });
});
