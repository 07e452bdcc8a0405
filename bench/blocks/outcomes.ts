// What became of one details target, judged from the report the worker sent to catalog, and what
// the simulator had in store for its URL.
import type { ReportTargetBody } from '@crawl/contracts';
import { decideFault, type FaultConfig } from '@crawl/marketplace-simulator';

export type TargetOutcome =
  | { kind: 'success' }
  /** Reported a success, but its record is not the product asked for (or has no title). */
  | { kind: 'wrong success'; detail: string }
  | { kind: 'failed'; reason: string; message: string };

/** A success is the product asked for: a record with that ASIN and a title. */
export function outcomeOf(asin: string, report: ReportTargetBody): TargetOutcome {
  if (report.status === 'failed') return { kind: 'failed', reason: report.reason ?? '(no reason)', message: report.message ?? '(no message)' };
  const record = report.items[0];
  const recordAsin = typeof record?.asin === 'string' ? record.asin : undefined;
  const title = typeof record?.title === 'string' ? record.title : '';
  if (report.items.length === 1 && recordAsin === asin && title !== '') return { kind: 'success' };
  return {
    kind: 'wrong success',
    detail: `${report.items.length} record(s), asin ${recordAsin ?? 'none'}, title ${title === '' ? 'empty' : JSON.stringify(title.slice(0, 40))}`,
  };
}

/** Failure messages name the ASIN, URL and page size; without them, failures of one kind group together. */
export function failureKey(outcome: Exclude<TargetOutcome, { kind: 'success' }>): string {
  if (outcome.kind === 'wrong success') return `wrong success: ${outcome.detail.replace(/B0[0-9A-Z]{8}/g, '<asin>')}`;
  const message = outcome.message
    .replace(/https?:\/\/\S+?(?=[)\s]|$)/g, '<url>')
    .replace(/B0[0-9A-Z]{8}/g, '<asin>')
    .replace(/\d+ bytes/g, '<n> bytes');
  return `${outcome.reason}: ${message}`;
}

/**
 * The simulator's answer to each of a product URL's first `attempts` requests (`page` for none),
 * from the same deterministic draw it makes: `captcha>page` means the first try met a captcha.
 */
export function drawScript(asin: string, faults: FaultConfig, seed: number, attempts: number): string[] {
  return Array.from({ length: attempts }, (_, i) => decideFault({ pathKey: `/dp/${asin}`, attempt: i + 1, asin }, faults, seed).fault ?? 'page');
}
