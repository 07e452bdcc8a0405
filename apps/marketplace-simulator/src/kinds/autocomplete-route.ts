import { marketplaceById, SUGGESTIONS_PATH } from '@crawl/marketplace';
import { captchaPage } from '../render/block-pages.ts';
import { hashString } from '../rng.ts';
import { suggestionsFor } from '../suggestions.ts';
import type { KindPage, KindRequest, KindRoute } from './kind-route.ts';

const JSON_TYPE = 'application/json;charset=UTF-8';

/** The endpoint's answer, in its shape: the prefix asked, the suggestions in order. */
function answer(prefix: string): string {
  return JSON.stringify({
    alias: 'aps',
    prefix,
    suffix: null,
    suggestions: suggestionsFor(prefix).map((s, i) => ({
      suggType: s.type === 'WIDGET' ? 'WidgetSuggestion' : 'KeywordSuggestion',
      type: s.type,
      value: s.value,
      refTag: `nb_sb_ss_${s.type === 'WIDGET' ? 'w' : 'i'}_${i + 1}_${prefix.length}`,
      candidateSources: 'local',
      strategyId: 'organic',
      prior: 0,
      ghost: false,
      help: false,
    })),
    suggestionTitleId: null,
    responseId: hashString(prefix, 41).toString(36).toUpperCase(),
    shuffled: false,
  });
}

/**
 * The search box's suggestion endpoint (`/api/2017/suggestions?prefix=…&mid=…`), JSON like the
 * storefront's completion host answers; the storefront is the one `mid` names. Stand-ins
 * (`sim_block=`): an HTML captcha with status 200 (`captcha`), the answer for another prefix
 * (`other-prefix`), an empty body (`empty`).
 */
export const autocompleteRoute: KindRoute = {
  name: 'autocomplete',
  matches: (pathname) => pathname === SUGGESTIONS_PATH,
  faultKey: (url) => ({ keyword: url.searchParams.get('prefix') ?? '' }),
  render(request: KindRequest): KindPage | undefined {
    const { url } = request;
    const prefix = url.searchParams.get('prefix');
    if (prefix === null) return { html: JSON.stringify({ message: 'prefix is required' }), layout: 'error', status: 400, contentType: JSON_TYPE };
    const domain = marketplaceById(url.searchParams.get('mid') ?? '')?.domain ?? request.domain;
    const block = url.searchParams.get('sim_block');
    if (block === 'captcha') return { html: captchaPage(domain, `${url.pathname}${url.search}`), layout: 'captcha' };
    if (block === 'empty') return { html: '', layout: 'empty', contentType: JSON_TYPE };
    const asked = block === 'other-prefix' ? `${prefix}x` : prefix;
    return { html: answer(asked), layout: 'suggestions', contentType: JSON_TYPE };
  },
};
