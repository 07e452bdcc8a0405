import { TARGET_LIST_LIMITS, type JobType, type RejectedLine, type TargetListCounts } from '@crawl/contracts';
import type { TargetCheck } from '../jobs/index.ts';
import { csvFields, targetColumnOf } from './csv-column.ts';
import { splitLines } from './line-splitter.ts';
import type { TargetListPageDoc } from './target-list-model.ts';

export type UploadFormat = 'text' | 'csv';

/** What an upload came to: the counts, the refusals shown, and how many pages were written. */
export interface IntakeResult {
  counts: TargetListCounts;
  rejectedLines: RejectedLine[];
  pageCount: number;
}

export interface IntakeOptions {
  type: JobType;
  format: UploadFormat;
  check: (type: JobType, raw: string) => TargetCheck;
  /** Called with each full page (and the last, partial one) as soon as it fills. */
  writePage: (index: number, targets: TargetListPageDoc['targets']) => Promise<void>;
  limits?: Pick<typeof TARGET_LIST_LIMITS, 'maxTargets' | 'maxLines' | 'maxLineBytes' | 'maxRejectedShown' | 'pageSize'>;
}

/** The upload is past what one list may read: the request is refused whole. */
export class UploadTooLargeError extends Error {}

function shown(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/**
 * Reads an upload line by line, checks each target with the job's rules, drops duplicates and
 * writes the accepted targets a page at a time: memory holds the keys seen and one page, never
 * the upload.
 */
export async function takeIn(body: AsyncIterable<Uint8Array | string>, options: IntakeOptions): Promise<IntakeResult> {
  const limits = options.limits ?? TARGET_LIST_LIMITS;
  const counts: TargetListCounts = { received: 0, accepted: 0, duplicates: 0, rejected: 0 };
  const rejectedLines: RejectedLine[] = [];
  const seen = new Set<string>();
  let page: TargetListPageDoc['targets'] = [];
  let pageCount = 0;
  let column: number | undefined = options.format === 'csv' ? undefined : 0;
  const reject = (line: number, value: string, reason: string) => {
    counts.rejected += 1;
    if (rejectedLines.length < limits.maxRejectedShown) rejectedLines.push({ line, value: shown(value), reason });
  };
  for await (const line of splitLines(body, limits.maxLineBytes)) {
    if (line.number > limits.maxLines) throw new UploadTooLargeError(`An upload holds at most ${limits.maxLines} lines`);
    let raw = line.text;
    if (options.format === 'csv' && !line.tooLong) {
      if (column === undefined) {
        const found = targetColumnOf(raw);
        column = found.column;
        if (found.header) continue;
      }
      raw = csvFields(raw)[column] ?? '';
    }
    if (raw.trim() === '') continue;
    counts.received += 1;
    if (line.tooLong) {
      reject(line.number, raw, `is longer than ${limits.maxLineBytes} bytes`);
      continue;
    }
    const checked = options.check(options.type, raw);
    if (!checked.ok) {
      reject(line.number, raw.trim(), checked.reason);
      continue;
    }
    if (seen.has(checked.key)) {
      counts.duplicates += 1;
      continue;
    }
    if (counts.accepted >= limits.maxTargets) {
      reject(line.number, raw.trim(), `is past the list's limit of ${limits.maxTargets} targets`);
      continue;
    }
    seen.add(checked.key);
    counts.accepted += 1;
    page.push(checked.target);
    if (page.length === limits.pageSize) {
      await options.writePage(pageCount, page);
      pageCount += 1;
      page = [];
    }
  }
  if (page.length > 0) {
    await options.writePage(pageCount, page);
    pageCount += 1;
  }
  return { counts, rejectedLines, pageCount };
}
