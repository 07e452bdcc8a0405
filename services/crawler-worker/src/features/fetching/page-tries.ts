import type { TargetFailureReason } from '@crawl/contracts';
import type { FetchedPage } from './page-fetcher.ts';
import type { PageOutcome, SessionHolder } from './upstream-client.ts';

/**
 * A step of the tries: a try about to be made on the held session (the crawl may ready the session
 * first, set its delivery location, or stop because the target is no longer wanted), or a page that
 * is no block, for the crawl to judge.
 */
export type TryStep = { kind: 'try'; attempt: number; session: SessionHolder } | { kind: 'page'; page: FetchedPage };

/**
 * What the crawl makes of a page that is no block, said before it asks for the next try: the page
 * asked for (the default); a usable page another session may serve better (one more try, and the
 * better of the two is kept); or not the page asked for at all, which is handled as a block.
 */
export type PageJudgement = { kind: 'accept' } | { kind: 'second-chance'; detail: string } | { kind: 'reject'; reason: TargetFailureReason; detail: string };

const ACCEPT: PageJudgement = { kind: 'accept' };

/**
 * The tries of one page, driven by the crawl: iterating yields a `try` step before each try and a
 * `page` step for each page that is no block (blocks, throttling and outages are retried inside, on
 * the attempt budget). Before a try the crawl may ready the session or `stop`; after a page it says,
 * when the page is not the one asked for or not good enough, so (`reject`, `secondChance`) before it
 * asks for the next step. When the iteration ends, `outcome` holds the page taken or why none was.
 * The crawl keeps the control flow: nothing calls back into it.
 */
export class PageTries implements AsyncIterable<TryStep> {
  #judgement: PageJudgement = ACCEPT;
  #stopped: string | undefined;
  #outcome: PageOutcome | undefined;
  readonly #run: (tries: PageTries) => AsyncGenerator<TryStep, PageOutcome>;

  constructor(run: (tries: PageTries) => AsyncGenerator<TryStep, PageOutcome>) {
    this.#run = run;
  }

  /** Tries with a known end, for stand-ins: the page of `outcome`, if any, then that outcome. */
  static settled(outcome: PageOutcome): PageTries {
    return new PageTries(async function* () {
      if (outcome.ok) yield { kind: 'page', page: outcome.page };
      return outcome;
    });
  }

  /** Said on a `try` step: no try is made, and the tries end as cancelled with this reason. */
  stop(detail: string): void {
    this.#stopped = detail;
  }

  /** Why the crawl stopped the tries, if it did (read by the loop of tries after a `try` step). */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  /** The page just yielded is not the page asked for: it counts as a block. */
  reject(reason: TargetFailureReason, detail: string): void {
    this.#judgement = { kind: 'reject', reason, detail };
  }

  /** The page just yielded is usable but short: one more try on another session. */
  secondChance(detail: string): void {
    this.#judgement = { kind: 'second-chance', detail };
  }

  /** The judgement of the page last yielded (read once by the loop of tries). */
  takeJudgement(): PageJudgement {
    const judgement = this.#judgement;
    this.#judgement = ACCEPT;
    return judgement;
  }

  /** How the tries ended; read after the iteration. */
  get outcome(): PageOutcome {
    if (this.#outcome === undefined) throw new Error('the tries of this page have not ended');
    return this.#outcome;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<TryStep> {
    const tries = this.#run(this);
    for (let next = await tries.next(); ; next = await tries.next()) {
      if (next.done) {
        this.#outcome = next.value;
        return;
      }
      yield next.value;
    }
  }
}
