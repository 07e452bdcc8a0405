import { describe, expect, it } from 'vitest';
import { BLOCK_KINDS, FAULT_KINDS, SPECIAL_ASINS, decideFault, parseFaultList, type FaultConfig } from '../src/index.ts';

describe('parseFaultList', () => {
  it('reads kinds, delays and none', () => {
    expect(parseFaultList('captcha')).toEqual({ delayMs: 0, fault: 'captcha', none: false });
    expect(parseFaultList('slow:200, 429')).toEqual({ delayMs: 200, fault: '429', none: false });
    expect(parseFaultList('slow:100,slow:50')).toEqual({ delayMs: 150, none: false });
    expect(parseFaultList('NONE')).toEqual({ delayMs: 0, none: true });
    expect(parseFaultList('bogus,slow:abc')).toEqual({ delayMs: 0, none: false });
  });

  it('knows every fault kind, the stand-in pages included', () => {
    for (const kind of FAULT_KINDS) expect(parseFaultList(kind).fault).toBe(kind);
    expect(parseFaultList('slow:5,Challenge-200').fault).toBe('challenge-200');
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

  it('sends the documented keywords and ASINs to the stand-in pages', () => {
    const cases: [Partial<{ keyword: string; asin: string }>, string][] = [
      [{ keyword: 'Interstitial lamp' }, 'interstitial'],
      [{ keyword: 'challenge coin' }, 'challenge'],
      [{ keyword: 'wafcaptcha' }, 'waf-captcha'],
      [{ keyword: 'errorpage' }, 'error-page'],
      [{ keyword: 'signin' }, 'signin'],
      [{ keyword: 'unrecognized shoes' }, 'unrecognized'],
      [{ asin: SPECIAL_ASINS.interstitial }, 'interstitial'],
      [{ asin: SPECIAL_ASINS.challenge }, 'challenge'],
      [{ asin: SPECIAL_ASINS.wafCaptcha }, 'waf-captcha'],
      [{ asin: SPECIAL_ASINS.errorPage }, 'error-page'],
      [{ asin: SPECIAL_ASINS.signin }, 'signin'],
      [{ asin: SPECIAL_ASINS.oddPage }, 'unrecognized'],
    ];
    for (const [match, fault] of cases) {
      // Every attempt, not only the first: these pages never go away.
      for (const attempt of [1, 5]) expect(decideFault({ pathKey: '/x', attempt, ...match }, {}, 1).fault, JSON.stringify(match)).toBe(fault);
    }
  });

  const urls = Array.from({ length: 8000 }, (_, i) => `/dp/B0SIM${String(i).padStart(5, '0')}`);
  const shares = (config: FaultConfig, attempt = 1): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const pathKey of urls) {
      const fault = decideFault({ pathKey, attempt }, config, 1).fault ?? 'none';
      counts[fault] = (counts[fault] ?? 0) + 1 / urls.length;
    }
    return counts;
  };

  it('draws each stand-in page at its own rate', () => {
    const config: FaultConfig = {
      interstitialRate: 0.1,
      challengeRate: 0.05,
      challenge200Rate: 0.05,
      wafCaptchaRate: 0.05,
      errorPageRate: 0.05,
      errorPage500Rate: 0.05,
      signinRate: 0.05,
      unrecognizedRate: 0.1,
    };
    const got = shares(config);
    // ±0.02 is more than five standard deviations at these rates over 8000 draws.
    expect(Math.abs((got.interstitial ?? 0) - 0.1)).toBeLessThan(0.02);
    expect(Math.abs((got.unrecognized ?? 0) - 0.1)).toBeLessThan(0.02);
    for (const kind of ['challenge', 'challenge-200', 'waf-captcha', 'error-page', 'error-page-500', 'signin'])
      expect(Math.abs((got[kind] ?? 0) - 0.05), kind).toBeLessThan(0.015);
    expect(Math.abs((got.none ?? 0) - 0.5)).toBeLessThan(0.03);
  });

  it('spreads blockRate evenly over the block kinds', () => {
    for (const attempt of [1, 2]) {
      const got = shares({ blockRate: 0.4 }, attempt);
      expect(Object.keys(got).sort()).toEqual([...BLOCK_KINDS, 'none'].sort());
      for (const kind of BLOCK_KINDS) expect(Math.abs((got[kind] ?? 0) - 0.1), kind).toBeLessThan(0.02);
      expect(Math.abs((got.none ?? 0) - 0.6)).toBeLessThan(0.03);
    }
  });

  it('draws blockRate independently per attempt, as the other rates', () => {
    const blocked = (pathKey: string, attempt: number) => decideFault({ pathKey, attempt }, { blockRate: 0.3 }, 1).fault !== undefined;
    const failedAll = urls.filter((pathKey) => [1, 2, 3, 4].every((attempt) => blocked(pathKey, attempt)));
    // 0.3^4 of 8000 is 65; correlated draws would give hundreds.
    expect(failedAll.length).toBeGreaterThan(30);
    expect(failedAll.length).toBeLessThan(110);
    // Which kind an attempt gets does not follow from the attempt before.
    const firstCaptcha = urls.filter((pathKey) => decideFault({ pathKey, attempt: 1 }, { blockRate: 1 }, 1).fault === 'captcha');
    const againCaptcha = firstCaptcha.filter((pathKey) => decideFault({ pathKey, attempt: 2 }, { blockRate: 1 }, 1).fault === 'captcha');
    expect(againCaptcha.length / firstCaptcha.length).toBeLessThan(0.33);
  });

  it('keeps the draws of existing rates when the new ones are unset', () => {
    const old = shares({ captchaRate: 0.2, rate503: 0.1 });
    expect(shares({ captchaRate: 0.2, rate503: 0.1, blockRate: 0, interstitialRate: 0 })).toEqual(old);
    // blockRate takes its share after the others: the captcha and 503 draws stay where they were.
    const both = urls.map((pathKey) => decideFault({ pathKey, attempt: 1 }, { captchaRate: 0.2, rate503: 0.1, blockRate: 0.2 }, 1).fault);
    const before = urls.map((pathKey) => decideFault({ pathKey, attempt: 1 }, { captchaRate: 0.2, rate503: 0.1 }, 1).fault);
    expect(both.filter((f, i) => before[i] !== undefined && f !== before[i])).toEqual([]);
  });

  it('adds the configured delay to every request', () => {
    expect(decideFault(facts, { slowMs: 40 }, 1)).toEqual({ delayMs: 40 });
    expect(decideFault({ ...facts, explicit: 'slow:10' }, { slowMs: 40 }, 1)).toEqual({ delayMs: 50 });
  });
});
