import { PageTries, type GetPageInput, type PageOutcome, type UpstreamClient } from '../features/fetching/index.ts';

/**
 * An upstream that answers each page with a fixed outcome, for tests of what comes after the fetch:
 * the page (if any) is handed over once and its judgement taken as given.
 */
export function stubUpstream(answer: (input: GetPageInput) => PageOutcome): Pick<UpstreamClient, 'getPage' | 'tries'> {
  return {
    getPage: async (input) => answer(input),
    tries: (input) => PageTries.settled(answer(input)),
  };
}
