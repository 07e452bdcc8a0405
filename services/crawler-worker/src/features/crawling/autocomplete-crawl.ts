import type { SuggestionRecord } from '@crawl/contracts';
import type { SuggestionsPage } from '@crawl/marketplace';
import type { FetchedPage } from '../fetching/index.ts';
import { type Crawled, type CrawlContext, describeUnrecognized, failed, failedFetch, PageParseError, parseOrFail, succeeded } from './crawl-context.ts';
import { suggestionsUrl } from './list-urls.ts';
import { shortfall } from './record-checks.ts';
import { recordQuality } from './record-quality.ts';

/**
 * An autocomplete target: one request to the storefront's suggestion endpoint for its prefix,
 * recognised as the suggestions document for that prefix (an HTML captcha, another prefix's answer
 * or anything else is retried like a block). No suggestions is an answer too.
 */
export async function crawlAutocomplete(ctx: CrawlContext): Promise<Crawled> {
  const prefix = ctx.task.value;
  const reads = new WeakMap<FetchedPage, SuggestionsPage>();
  const read = async (fetched: FetchedPage): Promise<SuggestionsPage> => {
    const result = await parseOrFail(ctx, `suggestions for ${JSON.stringify(prefix)}`, () => ctx.parser.read('autocomplete', fetched, { prefix }, ctx.signal));
    reads.set(fetched, result);
    return result;
  };
  const tries = ctx.tries(suggestionsUrl(ctx.store, prefix));
  try {
    for await (const fetched of ctx.pages(tries)) {
      if (!(await read(fetched)).recognized) tries.reject('unrecognized_page', describeUnrecognized(fetched, 'suggestions'));
    }
  } catch (error) {
    if (error instanceof PageParseError) return failed('parse_error', error.message, 1);
    throw error;
  }
  const outcome = ctx.outcomeOf(tries);
  if (!outcome.ok) return failedFetch(outcome, outcome.attempts);
  const parsed = reads.get(outcome.page) ?? (await read(outcome.page));
  if (!parsed.recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, 'suggestions'), outcome.attempts);
  const items = parsed.suggestions.map((suggestion): SuggestionRecord => {
    const record: Omit<SuggestionRecord, 'quality'> = {
      prefix,
      position: suggestion.position,
      suggestion: suggestion.value,
      ...(suggestion.type !== undefined ? { type: suggestion.type } : {}),
      missingFields: suggestion.type === undefined ? ['type'] : [],
    };
    return { ...record, quality: recordQuality(record, ctx.required) };
  });
  return succeeded(items, outcome.attempts, shortfall(items));
}
