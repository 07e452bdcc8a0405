import type { FetchedPage } from '../fetching/index.ts';
import { type Crawled, type CrawlContext, describeUnrecognized, failed, failedFetch, PageParseError, parseOrFail, succeeded } from './crawl-context.ts';
import { productUrl } from './marketplace-origin.ts';
import type { ProductRecord } from '@crawl/contracts';
import { type CheckedRecord, checkRecord, judgeRecords, shortfall, type UncheckedRecord } from './record-checks.ts';

interface ProductPageRead {
  recognized: boolean;
  record: CheckedRecord<ProductRecord>;
}

/**
 * A details target: the product page of its ASIN, recognised by the product's identity (else it is
 * retried like a block), read into one record, and given a second session when that record lacks a
 * required field or shows another delivery location than asked for.
 */
export async function crawlProduct(ctx: CrawlContext): Promise<Crawled> {
  const asin = ctx.task.value.toUpperCase();
  const options = { origin: ctx.store.origin, asin, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
  const reads = new WeakMap<FetchedPage, ProductPageRead>();

  const read = async (page: FetchedPage): Promise<ProductPageRead> => {
    const reading = await parseOrFail(ctx, `product page of ${asin}`, () => ctx.parser.product(page, options, ctx.signal));
    const { product } = reading;
    const read: UncheckedRecord<ProductRecord> = {
      ...product,
      ...(product.asin !== asin ? { requestedAsin: asin } : {}),
      ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}),
    };
    const record = checkRecord(read, ctx.required, ctx.zip);
    const result = { recognized: reading.recognized, record };
    reads.set(page, result);
    return result;
  };
  const tries = ctx.tries(productUrl(ctx.store, asin));
  try {
    for await (const page of ctx.pages(tries)) {
      const { recognized, record } = await read(page);
      if (!recognized) tries.reject('unrecognized_page', describeUnrecognized(page, 'product'));
      else judgeRecords(tries, [record]);
    }
  } catch (error) {
    if (error instanceof PageParseError) return failed('parse_error', error.message, 1);
    throw error;
  }
  const outcome = ctx.outcomeOf(tries);
  if (!outcome.ok) return failedFetch(outcome, outcome.attempts);
  const { recognized, record } = reads.get(outcome.page) ?? (await read(outcome.page));
  if (!recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, 'product'), outcome.attempts);
  return succeeded([record], outcome.attempts, shortfall([record]));
}
