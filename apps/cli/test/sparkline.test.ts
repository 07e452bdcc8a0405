import { describe, expect, it } from 'vitest';
import { parseWhen } from '../src/commands/history-input.ts';
import { historyCell, historyColumns } from '../src/output/history-view.ts';
import { sampleSteps, sparkline } from '../src/output/sparkline.ts';

describe('sparkline', () => {
  it('draws the lowest value lowest and the highest highest, a gap as a space, equal values flat', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([10, null, 20])).toBe('▁ █');
    expect(sparkline([5, 5, 5])).toBe('▄▄▄');
    expect(sparkline([null, null])).toBe('  ');
  });

  it('inverted for ranks: first place gets the tallest bar', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8], { invert: true })).toBe('█▇▆▅▄▃▂▁');
  });
});

describe('sampleSteps', () => {
  const hour = 3_600_000;
  it('reads a step series at even moments, so a value held longer takes more room', () => {
    const steps = [
      { from: 0, to: 6 * hour, value: 10 },
      { from: 7 * hour, to: 8 * hour, value: 20 },
    ];
    // Moments 0, 2h, 4h, 6h, 8h: the first value until the second one begins at 7h.
    expect(sampleSteps(steps, 5)).toEqual([10, 10, 10, 10, 20]);
  });

  it('keeps a gap as null and copes with a single moment', () => {
    expect(sampleSteps([{ from: 0, to: 0, value: 3 }], 10)).toEqual([3]);
    expect(
      sampleSteps(
        [
          { from: 0, to: hour, value: null },
          { from: hour, to: 2 * hour, value: 4 },
        ],
        3,
      ),
    ).toEqual([null, 4, 4]);
    expect(sampleSteps([], 10)).toEqual([]);
  });
});

describe('history input and cells', () => {
  it('reads --from as a date, an ISO time or a time ago', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(parseWhen('--from', '2026-03-01', now)).toBe('2026-03-01T00:00:00.000Z');
    expect(parseWhen('--from', '2026-03-01T08:30:00+01:00', now)).toBe('2026-03-01T07:30:00.000Z');
    expect(parseWhen('--from', '12h', now)).toBe('2026-03-10T00:00:00.000Z');
    expect(parseWhen('--from', '2w', now)).toBe('2026-02-24T12:00:00.000Z');
    expect(() => parseWhen('--from', 'last week', now)).toThrow(/--from must be a date/);
  });

  it('shows the asked fields in tracked order, one column per best-sellers category, prices with their currency', () => {
    const points = [
      { from: 'a', to: 'b', checks: 1, values: { 'bestSellersRank:Toys': 3, price: 5, currency: 'USD', 'bestSellersRank:Electronics': 9, hasDeal: null } },
    ];
    expect(historyColumns(points, ['hasDeal', 'bestSellersRank', 'price', 'rating'])).toEqual([
      'price',
      'bestSellersRank:Electronics',
      'bestSellersRank:Toys',
      'hasDeal',
    ]);
    expect(historyCell('price', points[0]!.values)).toBe('5.00 USD');
    expect(historyCell('hasDeal', points[0]!.values)).toBe('-');
    expect(historyCell('rating', points[0]!.values)).toBe('');
  });
});
