import type { MonitorRule, ObservedChange, ObservedSubject, TrackedValue } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { baseField, changePercent, evaluateRules, ruleFires, type EvaluatedMonitor } from './rule-evaluation.ts';

const rule = (op: MonitorRule['op'], field: MonitorRule['field'], value?: number): MonitorRule => ({ field, op, ...(value !== undefined ? { value } : {}) });
const fires = (r: MonitorRule, previous: TrackedValue, current: TrackedValue) => ruleFires(r, previous, current);

const product = (asin: string): ObservedSubject => ({ kind: 'product', marketplace: 'amazon.com', asin, zip: null });
const rank = (keyword: string, asin: string): ObservedSubject => ({ kind: 'rank', marketplace: 'amazon.com', keyword, asin });
const change = (subject: ObservedSubject, field: string, previous: TrackedValue, current: TrackedValue, jobId = 'job_1'): ObservedChange => ({
  subject,
  field,
  previous,
  current,
  previousObservedAt: '2026-03-02T07:00:00.000Z',
  observedAt: '2026-03-02T08:00:00.000Z',
  jobId,
  resultId: `${jobId}:0:0`,
});

describe('each rule operation on a change of two values', () => {
  it('changed: any difference, including to and from null, never an equal value', () => {
    const r = rule('changed', 'availability');
    expect(fires(r, 'In stock', 'Only 2 left')).toBe(true);
    expect(fires(r, null, 'In stock')).toBe(true);
    expect(fires(r, 'In stock', null)).toBe(true);
    expect(fires(r, 'In stock', 'In stock')).toBe(false);
    expect(fires(rule('changed', 'price'), 10, 10)).toBe(false);
  });

  it('dropsBy: a fall of at least the percentage of the previous value, at the threshold included', () => {
    const r = rule('dropsBy', 'price', 10);
    expect(fires(r, 100, 90)).toBe(true);
    expect(fires(r, 100, 90.01)).toBe(false);
    expect(fires(r, 19.99, 17.99)).toBe(true);
    expect(fires(r, 100, 50)).toBe(true);
    expect(fires(r, 100, 110)).toBe(false);
    expect(fires(rule('dropsBy', 'price', 100), 25, 0)).toBe(true);
  });

  it('risesBy: a rise of at least the percentage, beyond 100 % too', () => {
    expect(fires(rule('risesBy', 'price', 10), 100, 110)).toBe(true);
    expect(fires(rule('risesBy', 'price', 10), 100, 109.99)).toBe(false);
    expect(fires(rule('risesBy', 'reviewCount', 200), 10, 30)).toBe(true);
    expect(fires(rule('risesBy', 'price', 10), 100, 90)).toBe(false);
  });

  it('percent rules never fire from 0, from a negative value, or with a null on either side', () => {
    for (const op of ['dropsBy', 'risesBy'] as const) {
      expect(fires(rule(op, 'price', 10), 0, 50), `${op} from 0`).toBe(false);
      expect(fires(rule(op, 'price', 10), 0, 0)).toBe(false);
      expect(fires(rule(op, 'price', 10), -5, 5)).toBe(false);
      expect(fires(rule(op, 'price', 10), null, 50)).toBe(false);
      expect(fires(rule(op, 'price', 10), 50, null)).toBe(false);
      expect(fires(rule(op, 'price', 10), '50', 10)).toBe(false);
    }
  });

  it('below and above: fire when the value crosses into the zone, not on changes inside it', () => {
    const below = rule('below', 'price', 20);
    expect(fires(below, 25, 19.99)).toBe(true);
    expect(fires(below, 19, 18)).toBe(false);
    expect(fires(below, 20, 20)).toBe(false);
    expect(fires(below, 25, 20)).toBe(false);
    expect(fires(below, 15, 25)).toBe(false);
    const above = rule('above', 'rating', 4.5);
    expect(fires(above, 4.4, 4.6)).toBe(true);
    expect(fires(above, 4.6, 4.7)).toBe(false);
    expect(fires(above, 4.5, 4.5)).toBe(false);
  });

  it('below and above: a value appearing (from none) in the zone fires, one disappearing never does', () => {
    expect(fires(rule('below', 'price', 20), null, 15)).toBe(true);
    expect(fires(rule('above', 'price', 20), null, 15)).toBe(false);
    expect(fires(rule('below', 'price', 20), 15, null)).toBe(false);
    expect(fires(rule('above', 'price', 20), 25, null)).toBe(false);
  });

  it('becomesUnavailable and becomesAvailable: inStock between true and false only', () => {
    expect(fires(rule('becomesUnavailable', 'inStock'), true, false)).toBe(true);
    expect(fires(rule('becomesUnavailable', 'inStock'), false, true)).toBe(false);
    expect(fires(rule('becomesUnavailable', 'inStock'), null, false)).toBe(false);
    expect(fires(rule('becomesUnavailable', 'inStock'), true, null)).toBe(false);
    expect(fires(rule('becomesAvailable', 'inStock'), false, true)).toBe(true);
    expect(fires(rule('becomesAvailable', 'inStock'), null, true)).toBe(false);
    expect(fires(rule('becomesAvailable', 'inStock'), true, true)).toBe(false);
  });

  it('sellerChanges: another named seller holds the buy box; losing it to nobody is not a seller change', () => {
    const r = rule('sellerChanges', 'buyBoxSeller');
    expect(fires(r, 'Shop A', 'Shop B')).toBe(true);
    expect(fires(r, null, 'Shop A')).toBe(true);
    expect(fires(r, 'Shop A', null)).toBe(false);
    expect(fires(r, 'Shop A', '')).toBe(false);
    expect(fires(r, 'Shop A', 'Shop A')).toBe(false);
  });

  it('entersTop: into the first N places from outside them or from unranked; moves within the top do not fire', () => {
    const r = rule('entersTop', 'organicRank', 10);
    expect(fires(r, 11, 10)).toBe(true);
    expect(fires(r, null, 3)).toBe(true);
    expect(fires(r, 5, 2)).toBe(false);
    expect(fires(r, 12, 11)).toBe(false);
    expect(fires(r, 3, null)).toBe(false);
  });

  it('leavesTop: out of the first N places, to a rank past them or to unranked (gone from the results)', () => {
    const r = rule('leavesTop', 'organicRank', 10);
    expect(fires(r, 10, 11)).toBe(true);
    expect(fires(r, 4, null)).toBe(true);
    expect(fires(r, 4, 9)).toBe(false);
    expect(fires(r, 11, 30)).toBe(false);
    expect(fires(r, null, 30)).toBe(false);
  });
});

describe('changePercent', () => {
  it('is the signed change in percent of the previous value, rounded to 2 decimals', () => {
    expect(changePercent(100, 87.5)).toBe(-12.5);
    expect(changePercent(19.99, 17.99)).toBe(-10.01);
    expect(changePercent(3, 4)).toBe(33.33);
  });

  it('is null from 0 and for anything that is not two numbers', () => {
    expect(changePercent(0, 5)).toBeNull();
    expect(changePercent(null, 5)).toBeNull();
    expect(changePercent(5, null)).toBeNull();
    expect(changePercent(true, false)).toBeNull();
    expect(changePercent('a', 'b')).toBeNull();
  });
});

describe('evaluateRules over a report’s changes', () => {
  const details: EvaluatedMonitor = {
    type: 'details',
    targets: ['B000000001', 'B000000002'],
    watch: ['price', 'inStock', 'bestSellersRank'],
    rules: [rule('dropsBy', 'price', 10), rule('below', 'price', 50), rule('becomesUnavailable', 'inStock'), rule('changed', 'bestSellersRank')],
  };

  it('fires every rule of the change’s field that passes, naming the rule, its index and the target', () => {
    const firings = evaluateRules(details, { _id: 'job_1' }, [change(product('B000000001'), 'price', 60, 45)]);
    expect(firings.map((f) => [f.ruleIndex, f.rule.op, f.target])).toEqual([
      [0, 'dropsBy', 'B000000001'],
      [1, 'below', 'B000000001'],
    ]);
    expect(firings[0]?.change.current).toBe(45);
  });

  it('skips changes of fields not watched, of other targets, of other jobs, and of the other kind of subject', () => {
    const firings = evaluateRules(details, { _id: 'job_1' }, [
      change(product('B000000001'), 'rating', 4.5, 1),
      change(product('B000000009'), 'price', 100, 10),
      change(product('B000000001'), 'price', 100, 10, 'job_other'),
      change(rank('kw', 'B000000001'), 'organicRank', 1, 50),
    ]);
    expect(firings).toEqual([]);
  });

  it('names the target a variation was shown for, when the job asked for it', () => {
    const variation = change(product('B00VARIANT'), 'price', 60, 45);
    expect(evaluateRules(details, { _id: 'job_1' }, [variation])).toEqual([]);
    const asked = (c: ObservedChange) => (c.subject.kind === 'product' && c.subject.asin === 'B00VARIANT' ? 'B000000002' : undefined);
    expect(evaluateRules(details, { _id: 'job_1' }, [variation], asked).map((f) => [f.target, f.change.subject])).toEqual([
      ['B000000002', product('B00VARIANT')],
      ['B000000002', product('B00VARIANT')],
    ]);
    expect(evaluateRules(details, { _id: 'job_1' }, [variation], () => 'B000000009')).toEqual([]);
  });

  it('applies a bestSellersRank rule to each category’s rank', () => {
    const firings = evaluateRules(details, { _id: 'job_1' }, [
      change(product('B000000002'), 'bestSellersRank:Electronics', 5, 7),
      change(product('B000000002'), 'bestSellersRank:Home & Kitchen', 40, 30),
    ]);
    expect(firings.map((f) => f.change.field)).toEqual(['bestSellersRank:Electronics', 'bestSellersRank:Home & Kitchen']);
    expect(baseField('bestSellersRank:Home & Kitchen')).toBe('bestSellersRank');
  });

  it('finds a search monitor’s keyword however the change spells it, and names it as the monitor does', () => {
    const search: EvaluatedMonitor = { type: 'search', targets: ['USB C  Cable'], watch: ['organicRank'], rules: [rule('entersTop', 'organicRank', 10)] };
    const firings = evaluateRules(search, { _id: 'job_1' }, [change(rank('usb c cable', 'B000000003'), 'organicRank', 14, 9)]);
    expect(firings.map((f) => f.target)).toEqual(['USB C  Cable']);
    expect(evaluateRules(search, { _id: 'job_1' }, [change(rank('usb cable', 'B000000003'), 'organicRank', 14, 9)])).toEqual([]);
  });

  it('fires nothing for an empty report, and a null on either side only where the operation allows it', () => {
    expect(evaluateRules(details, { _id: 'job_1' }, [])).toEqual([]);
    expect(evaluateRules(details, { _id: 'job_1' }, [change(product('B000000001'), 'price', null, 80)])).toEqual([]);
    expect(evaluateRules(details, { _id: 'job_1' }, [change(product('B000000001'), 'price', null, 40)]).map((f) => f.rule.op)).toEqual(['below']);
  });

  it('stays cheap: 10,000 monitored targets’ changes against 20 rules in well under a second', () => {
    const targets = Array.from({ length: 1000 }, (_, n) => `B${String(n).padStart(9, '0')}`);
    const many: EvaluatedMonitor = {
      type: 'details',
      targets,
      watch: ['price', 'inStock', 'rating'],
      rules: Array.from({ length: 20 }, (_, n) => rule('dropsBy', 'price', n + 1)),
    };
    const started = performance.now();
    let fired = 0;
    for (let report = 0; report < 10_000; report += 1) {
      const asin = targets[report % targets.length] as string;
      fired += evaluateRules(many, { _id: 'job_1' }, [change(product(asin), 'price', 100, 95), change(product(asin), 'inStock', true, true)]).length;
    }
    expect(fired).toBe(10_000 * 5);
    // The budget is 5 % of a core for 10,000 targets an hour (180 ms per hour); this loose bound only catches a regression by orders of magnitude.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
