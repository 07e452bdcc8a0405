import { describe, expect, it } from 'vitest';
import { changeInWords, fieldInWords, parseRule, RuleSyntaxError, ruleInWords, ruleText } from '../src/index.ts';

describe('rules written as text', () => {
  it('reads FIELD OP [VALUE] [confirm], in any case, with a percent sign or without', () => {
    expect(parseRule('price dropsBy 10')).toEqual({ field: 'price', op: 'dropsBy', value: 10 });
    expect(parseRule('  Price  drops-by  12.5%  ')).toEqual({ field: 'price', op: 'dropsBy', value: 12.5 });
    expect(parseRule('price below 19.99 confirm')).toEqual({ field: 'price', op: 'below', value: 19.99, confirm: true });
    expect(parseRule('instock becomesunavailable')).toEqual({ field: 'inStock', op: 'becomesUnavailable' });
    expect(parseRule('availability changed')).toEqual({ field: 'availability', op: 'changed' });
    expect(parseRule('bestSellersRank risesBy 50')).toEqual({ field: 'bestSellersRank', op: 'risesBy', value: 50 });
  });

  it('leaves out the field where the operation reads only one', () => {
    expect(parseRule('becomesAvailable')).toEqual({ field: 'inStock', op: 'becomesAvailable' });
    expect(parseRule('sellerChanges confirm')).toEqual({ field: 'buyBoxSeller', op: 'sellerChanges', confirm: true });
    expect(parseRule('entersTop 10')).toEqual({ field: 'organicRank', op: 'entersTop', value: 10 });
  });

  it('says what is wrong, and shows the form', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /it is empty/],
      ['colour changed', /"colour" is not a tracked field/],
      ['price', /an operation must follow price/],
      ['price plummets 10', /"plummets" is not an operation/],
      ['price dropsBy', /dropsBy needs a percentage above 0$|dropsBy needs a percentage above 0;/],
      ['price dropsBy ten', /dropsBy needs a percentage above 0, got "ten"/],
      ['price dropsBy 150', /at most 100, got 150/],
      ['price risesBy 0', /above 0 and at most 1000, got 0/],
      ['price below 5%', /below takes a threshold \(a number\), not a percentage/],
      ['organicRank entersTop 2.5', /a whole rank from 1 to 500, got 2.5/],
      ['inStock becomesUnavailable 3', /becomesUnavailable takes no value, got "3"/],
      ['price entersTop 10', /entersTop does not apply to price; it applies to organicRank/],
      ['dropsBy 10', /say which field dropsBy reads/],
      ['price dropsBy 10 twice', /"twice" is left over/],
    ];
    for (const [text, message] of cases) {
      const error = (() => {
        try {
          parseRule(text);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, text).toBeInstanceOf(RuleSyntaxError);
      expect((error as Error).message, text).toMatch(message);
      expect((error as Error).message).toContain('write FIELD OP [VALUE] [confirm], e.g. "price dropsBy 10"');
    }
  });

  it('writes a rule back as text that reads as the same rule', () => {
    for (const text of ['price dropsBy 10 confirm', 'inStock becomesUnavailable', 'organicRank leavesTop 3']) expect(ruleText(parseRule(text))).toBe(text);
  });
});

describe('rules and changes in words', () => {
  it('says each operation as a sentence', () => {
    expect(ruleInWords({ field: 'price', op: 'dropsBy', value: 10 })).toBe('when price drops by 10 %');
    expect(ruleInWords({ field: 'reviewCount', op: 'risesBy', value: 50 })).toBe('when review count rises by 50 %');
    expect(ruleInWords({ field: 'price', op: 'below', value: 19.99, confirm: true })).toBe('when price goes below 19.99, confirmed by a second check');
    expect(ruleInWords({ field: 'rating', op: 'above', value: 4.5 })).toBe('when rating goes above 4.5');
    expect(ruleInWords({ field: 'availability', op: 'changed' })).toBe('when availability changes');
    expect(ruleInWords({ field: 'inStock', op: 'becomesUnavailable' })).toBe('when it becomes unavailable');
    expect(ruleInWords({ field: 'inStock', op: 'becomesAvailable' })).toBe('when it becomes available again');
    expect(ruleInWords({ field: 'buyBoxSeller', op: 'sellerChanges' })).toBe('when another seller takes the buy box');
    expect(ruleInWords({ field: 'organicRank', op: 'entersTop', value: 10 })).toBe('when it enters the top 10');
    expect(ruleInWords({ field: 'organicRank', op: 'leavesTop', value: 3 })).toBe('when it leaves the top 3');
  });

  it('says what a fired rule saw', () => {
    expect(changeInWords({ field: 'price', previous: 49.99, current: 42.99, changePercent: -14 })).toBe('price 49.99 → 42.99 (−14 %)');
    expect(changeInWords({ field: 'inStock', previous: true, current: false, changePercent: null })).toBe('stock yes → no');
    expect(changeInWords({ field: 'organicRank', previous: 3, current: null, changePercent: null })).toBe('organic rank 3 → none');
    expect(fieldInWords('bestSellersRank:Toys & Games')).toBe('best-sellers rank in Toys & Games');
  });
});
