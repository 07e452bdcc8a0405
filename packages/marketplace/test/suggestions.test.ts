import { describe, expect, it } from 'vitest';
import { parseSuggestions } from '../src/autocomplete/parse-suggestions.ts';
import { fixture } from './fixtures.ts';

// Our own document in the endpoint's shape (invented values).
const ANSWER = JSON.stringify({
  alias: 'aps',
  prefix: 'hea',
  suffix: null,
  suggestions: [
    { suggType: 'KeywordSuggestion', type: 'KEYWORD', value: 'headphones wireless', refTag: 'nb_sb_ss_i_1_3', strategyId: 'organic' },
    { suggType: 'WidgetSuggestion', type: 'WIDGET', widgetType: 'SHOP_THE_LOOK', value: 'heat  gun', refTag: 'nb_sb_ss_w_2_3' },
    { suggType: 'KeywordSuggestion', type: 'KEYWORD', value: '', refTag: 'nb_sb_ss_i_3_3' },
    { suggType: 'KeywordSuggestion', type: 'KEYWORD', value: 'heated blanket &amp; throw', refTag: 'nb_sb_ss_i_4_3' },
  ],
  suggestionTitleId: null,
  responseId: '1X2Y3Z',
  shuffled: false,
});

describe('parseSuggestions', () => {
  it('reads the suggestions in order, with their kind', () => {
    const page = parseSuggestions(ANSWER, { prefix: 'hea' });
    expect(page.recognized).toBe(true);
    expect(page.suggestions).toEqual([
      { position: 1, value: 'headphones wireless', type: 'KEYWORD' },
      { position: 2, value: 'heat gun', type: 'WIDGET' },
      { position: 3, value: 'heated blanket & throw', type: 'KEYWORD' },
    ]);
  });

  it('reads the answer as bytes too', () => {
    const page = parseSuggestions(new TextEncoder().encode(ANSWER.replace('headphones', 'héadphones')), { prefix: 'hea' });
    expect(page.suggestions[0]?.value).toBe('héadphones wireless');
  });

  it('a prefix with no suggestions is a recognised empty answer', () => {
    const page = parseSuggestions(JSON.stringify({ alias: 'aps', prefix: 'zqxj', suggestions: [] }), { prefix: ' ZQXJ ' });
    expect(page).toEqual({ suggestions: [], recognized: true });
  });

  it.each([
    ['the answer for another prefix', JSON.stringify({ prefix: 'he', suggestions: [{ value: 'hello' }] })],
    ['JSON without suggestions', JSON.stringify({ prefix: 'hea', error: 'throttled' })],
    ['broken JSON', '{"prefix":"hea","suggestions":['],
    ['a captcha page', fixture('block-captcha-200.html')],
    ['an empty body', ''],
  ])('%s is not recognised', (_, body) => {
    expect(parseSuggestions(body, { prefix: 'hea' })).toEqual({ suggestions: [], recognized: false });
  });
});
