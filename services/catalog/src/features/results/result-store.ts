import type { ResultRecord } from '@crawl/contracts';
import { columnsOfItems, unionColumns } from './item-columns.ts';
import { decodeCursor, encodeCursor, planFrom, planPage, positionOf, splitPosition, type PagePlan, type ResultLayoutSource } from './result-layout.ts';
import type { ResultRepository } from './result-repository.ts';

/** A job as the result set sees it: its id, maintained total and per-target counts. */
export interface ResultJob extends ResultLayoutSource {
  _id: string;
}

export interface ResultPage {
  items: ResultRecord[];
  page: number;
  pageSize: number;
  /** The job's maintained `resultCount`: rows of every target reported so far. */
  total: number;
  /** Opaque cursor of the row after this page; null when the page reaches the end. */
  nextCursor: string | null;
}

/**
 * A job's result set: rows keyed by position (target, then item order), pages located from the
 * job's per-target counts and read as one index range, exports streamed in position order.
 */
export class ResultStore {
  readonly #rows: ResultRepository;

  constructor(parts: { rows: ResultRepository }) {
    this.#rows = parts.rows;
  }

  /** Writes a target's items (a re-run replaces them) and its CSV column record. */
  async replaceTarget(jobId: string, targetIndex: number, items: readonly ResultRecord[]): Promise<void> {
    await this.#rows.writeTarget(jobId, targetIndex, items);
    // After the rows: a record exists only for rows that were written in full.
    if (items.length > 0) await this.#rows.writeColumns(jobId, targetIndex, columnsOfItems(items));
    else await this.#rows.clearColumns(jobId, targetIndex);
  }

  async clearTarget(jobId: string, targetIndex: number): Promise<void> {
    await this.#rows.clearColumns(jobId, targetIndex);
    await this.#rows.clearTarget(jobId, targetIndex);
  }

  /** Page `page` of `pageSize` rows of the job document the caller read (its counts locate the page). */
  async page(job: ResultJob, page: number, pageSize: number): Promise<ResultPage> {
    return this.#read(job, planPage(job, page, pageSize), pageSize);
  }

  /** The `pageSize` rows from a cursor on. @throws VALIDATION_ERROR for a malformed cursor. */
  async pageFrom(job: ResultJob, cursor: string, pageSize: number): Promise<ResultPage> {
    return this.#read(job, planFrom(job, decodeCursor(cursor), pageSize), pageSize);
  }

  async #read(job: ResultJob, plan: PagePlan, pageSize: number): Promise<ResultPage> {
    const first = plan.segments[0];
    const last = plan.segments[plan.segments.length - 1];
    let items: ResultRecord[] = [];
    if (first && last) {
      const rows = await this.#rows.readRange(job._id, positionOf(first.targetIndex, first.fromSeq), positionOf(last.targetIndex, last.toSeq));
      // Normally exactly the planned rows. Rows of a target whose report is still being written
      // (not counted yet) or beyond a target's recorded count are not part of the set: skip them.
      const counts = job.targets.map((target) => target.resultCount ?? 0);
      items = rows.flatMap((row) => {
        const { targetIndex, seq } = splitPosition(row.position);
        return seq < (counts[targetIndex] ?? 0) ? [row.item] : [];
      });
    }
    return {
      items,
      page: Math.floor(plan.offset / pageSize) + 1,
      pageSize,
      total: job.resultCount,
      nextCursor: plan.next === null ? null : encodeCursor(plan.next),
    };
  }

  /**
   * Every item of a job in results order, parsed, a batch at a time (CSV). Parsed from the items'
   * JSON text, which the embedded store keeps ready: cheaper than reading and parsing the rows.
   */
  async *items(jobId: string): AsyncIterable<ResultRecord[]> {
    for await (const texts of this.#rows.streamItemJson(jobId)) yield texts.map((text) => JSON.parse(text) as ResultRecord);
  }

  /** Every item of a job in results order as its stored JSON text, a batch at a time (JSON export). */
  itemJson(jobId: string): AsyncIterable<string[]> {
    return this.#rows.streamItemJson(jobId);
  }

  /**
   * The CSV column names of a job's items in first-seen order, from the per-target records, or
   * null when a target with results has no record (rows written before records existed): then
   * the export collects the names from the rows.
   */
  async csvColumns(job: ResultJob): Promise<string[] | null> {
    const records = await this.#rows.columnRecords(job._id);
    const recorded = new Set(records.map((record) => record.targetIndex));
    if (job.targets.some((target, index) => (target.resultCount ?? 0) > 0 && !recorded.has(index))) return null;
    return unionColumns(records.map((record) => record.columns));
  }
}
