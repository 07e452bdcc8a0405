import { createHash } from 'node:crypto';
import type { ObservedChange, ObservedSubject } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore, type Filter } from '@crawl/storage';
import { archiveIdOf, changesOf, dedupe, mergeValues, notBefore, type ChangePoint } from './change-points.ts';
import type { KeywordCheck, RankHead } from './keyword-check.ts';
import { KeywordObservations } from './keyword-observations.ts';
import type { ProductSubjectOf } from './observed-subjects.ts';
import type { CarriedValues } from './tracked-values.ts';

export const OBSERVATIONS_COLLECTION = 'observations';

/**
 * One change point of a subject: the full state (values carried forward) from the check that
 * opened it (`firstSeenAt`, `jobId`, `resultId`) until the last check that saw it unchanged
 * (`lastSeenAt`, `checks`). A product's latest row, its head, has the subject id as `_id`, so a
 * check that changes nothing is one keyed update; the rows before it are `<subjectId>:<seq>`. A
 * keyword's ASINs keep their heads together in the keyword's document (`KeywordHeadsDoc`), and
 * here only the change points they closed.
 */
export interface ObservationDoc extends Document, ChangePoint {
  organizationId: string;
  subjectId: string;
  subject: ObservedSubject;
  /** Rank subjects: their keyword's scope (every ASIN of the keyword on the storefront). */
  scopeId?: string;
  /** A product's open change point (`_id` the subject id); before keyword documents, a rank subject's too. */
  head: boolean;
  jobId: string;
  resultId: string;
  lastJobId: string;
  /** `<jobId>:<targetIndex>` of the last check (its result set): the same report delivered again is recognised. */
  lastReport: string;
  /**
   * A product head's digest of the values the last check carried. The head holds them all (that
   * check wrote or matched them, and nothing wrote after it), so a check carrying the same values
   * is unchanged: one comparison instead of one per value.
   */
  carried?: string;
}

/** A change point of a keyword's ASIN as the reads list it: a closed row, or (`head`) the open one. */
export type RankPointRow = ChangePoint & { head?: boolean };

/** One check of one product, as the recorder hands it over. */
export interface ObservationCheck {
  organizationId: string;
  subjectId: string;
  subject: ProductSubjectOf;
  values: CarriedValues;
  jobId: string;
  resultId: string;
  report: string;
  at: string;
}

/** Change points in seq order, from a seq on, overlapping an optional time window. */
export interface RowRange {
  from?: string;
  to?: string;
  afterSeq?: number;
  limit: number;
}

/** Attempts of a check against concurrent writers of the same subject before it gives up. */
const MAX_ATTEMPTS = 16;

/** Observations as change points: every query on them lives here. */
export class ObservationRepository {
  readonly #rows: Collection<ObservationDoc>;
  readonly #keywords: KeywordObservations;

  constructor(store: DocumentStore) {
    this.#rows = store.collection<ObservationDoc>(OBSERVATIONS_COLLECTION);
    this.#keywords = new KeywordObservations(store, this.#rows);
  }

  async init(): Promise<void> {
    await this.#rows.ensureIndexes([
      // A subject's change points in order (reads, paging); a product's head is found by `_id`.
      { keys: { organizationId: 1, subjectId: 1, seq: 1 }, name: 'org_subject_seq' },
      // A keyword's ASINs: their closed change points (rank history), by ASIN or all.
      { keys: { organizationId: 1, scopeId: 1, asin: 1, seq: 1 }, name: 'org_scope_asin_seq' },
      // Retention.
      { keys: { lastSeenAt: 1 }, name: 'last_seen' },
    ]);
    await this.#keywords.init();
  }

  /**
   * Records one check of a product and returns the changes it brought (none for a subject's first
   * check, nor for a field seen for the first time). An unchanged check extends the head in one
   * keyed update (matched on the values it carries); a change closes the head into a row of its
   * own and opens a new head. Writers of the same subject meet in conditional updates on the
   * head's `seq` and `checks`, and try again on a miss. The same report again (`lastReport`)
   * counts nothing and returns the changes it brought the first time.
   */
  async observe(check: ObservationCheck): Promise<ObservedChange[]> {
    if (check.values.size === 0) return [];
    if (await this.#extendUnchanged(check)) return [];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const head = await this.#rows.findOne({ _id: check.subjectId, organizationId: check.organizationId });
      if (!head) {
        if (await this.#insertFirst(check)) return [];
        continue;
      }
      if (head.lastReport === check.report) return this.#replayedChanges(check, head);
      const at = notBefore(check.at, head.lastSeenAt);
      const changes = changesOf(check, head, at);
      const values = mergeValues(head.values, check.values);
      const last = { lastJobId: check.jobId, lastReport: check.report, carried: carriedDigest(check.values) };
      const current = { _id: head._id, seq: head.seq, checks: head.checks };
      if (changes.length === 0) {
        if (await this.#rows.updateOne(current, { $set: { values, lastSeenAt: at, ...last }, $inc: { checks: 1 } })) return [];
        continue;
      }
      await this.#archive(head);
      const opened = await this.#rows.updateOne(current, {
        $set: { seq: head.seq + 1, values, firstSeenAt: at, lastSeenAt: at, checks: 1, jobId: check.jobId, resultId: check.resultId, ...last },
      });
      if (opened) return changes;
    }
    throw new Error(`observation of subject ${check.subjectId} kept meeting concurrent writers`);
  }

  /**
   * Records a search target's checks of one keyword (every ASIN shown, and those that left the
   * pages) in one write of the keyword's document, plus a row per change: see `KeywordObservations`.
   */
  observeKeyword(check: KeywordCheck): Promise<ObservedChange[]> {
    return this.#keywords.observe(check);
  }

  /** The unchanged check in one write: the head if the last check carried the same values and it has not seen this report. */
  async #extendUnchanged(check: ObservationCheck): Promise<boolean> {
    const filter: Filter = {
      _id: check.subjectId,
      organizationId: check.organizationId,
      carried: carriedDigest(check.values),
      lastReport: { $ne: check.report },
    };
    const extended = await this.#rows.updateOne(filter, {
      $set: { lastJobId: check.jobId, lastReport: check.report },
      $max: { lastSeenAt: check.at },
      $inc: { checks: 1 },
    });
    return extended !== null;
  }

  async #insertFirst(check: ObservationCheck): Promise<boolean> {
    const values = mergeValues({}, check.values);
    try {
      await this.#rows.insertOne({
        _id: check.subjectId,
        organizationId: check.organizationId,
        subjectId: check.subjectId,
        subject: check.subject,
        asin: check.subject.asin,
        seq: 0,
        head: true,
        values,
        firstSeenAt: check.at,
        lastSeenAt: check.at,
        checks: 1,
        jobId: check.jobId,
        resultId: check.resultId,
        lastJobId: check.jobId,
        lastReport: check.report,
        carried: carriedDigest(check.values),
      });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /**
   * Keeps the head's state as the row of its seq before the head moves on. A put (idempotent),
   * with the count and the last time only ever raised: a writer that read the head before a
   * concurrent extension cannot lower them.
   */
  async #archive(head: ObservationDoc): Promise<void> {
    const { _id, checks, lastSeenAt, ...fields } = head;
    await this.#rows.updateOne(
      { _id: archiveIdOf(head.subjectId, head.seq) },
      { $set: { ...fields, head: false }, $max: { checks, lastSeenAt } },
      { upsert: true },
    );
  }

  /** The changes a report already recorded brought: those of the head it opened, if it opened one. */
  async #replayedChanges(check: ObservationCheck, head: ObservationDoc): Promise<ObservedChange[]> {
    if (head.jobId !== check.jobId || head.resultId !== check.resultId || head.seq === 0) return [];
    const previous = await this.#rows.findOne({ _id: archiveIdOf(head.subjectId, head.seq - 1), organizationId: check.organizationId });
    return previous ? changesOf(check, previous, head.firstSeenAt) : [];
  }

  /** The head of a subject: its latest values. */
  head(organizationId: string, subjectId: string): Promise<ObservationDoc | null> {
    return this.#rows.findOne({ _id: subjectId, organizationId });
  }

  /** The head of every ASIN observed in a keyword's results on a storefront, first seen first. */
  keywordHeads(organizationId: string, scopeId: string): Promise<RankHead[]> {
    return this.#keywords.heads(organizationId, scopeId);
  }

  /** A subject's change points in seq (time) order, overlapping `from`…`to`, after `afterSeq`. */
  async subjectRows(organizationId: string, subjectId: string, range: RowRange): Promise<ObservationDoc[]> {
    const filter: Filter = { organizationId, subjectId, ...windowOf(range) };
    if (range.afterSeq !== undefined) filter.seq = { $gt: range.afterSeq };
    const rows = await this.#rows.find(filter, { sort: { seq: 1 }, limit: range.limit + 1 });
    return dedupe(rows, () => true).slice(0, range.limit);
  }

  /**
   * A keyword's change points (of one `asin`, or of all by ASIN) in (ASIN, seq) order, after
   * `after`, overlapping `from`…`to`: the closed ones from their rows, the open ones from the
   * keyword's document. Rows are read in pages until `limit` are listed or they end, and the
   * heads merged in up to the last row read (beyond it a row could still come before a head).
   */
  async keywordRows(
    organizationId: string,
    scopeId: string,
    range: Omit<RowRange, 'afterSeq'> & { asin?: string; after?: { asin: string; seq: number } },
  ): Promise<RankPointRow[]> {
    const current = await this.#keywords.heads(organizationId, scopeId);
    const heads: RankPointRow[] = current
      .filter((head) => (range.asin === undefined || head.asin === range.asin) && inWindow(head, range) && (!range.after || pointOrder(head, range.after) > 0))
      .map(({ asin, seq, values, firstSeenAt, lastSeenAt, checks }) => ({ asin, seq, values, firstSeenAt, lastSeenAt, checks, head: true }));
    const rows: RankPointRow[] = [];
    let after = range.after;
    let end: RankPointRow | undefined;
    for (;;) {
      const filter: Filter = { organizationId, scopeId, ...windowOf(range) };
      if (range.asin !== undefined) Object.assign(filter, { asin: range.asin }, after ? { seq: { $gt: after.seq } } : {});
      else if (after) filter.$or = [{ asin: { $gt: after.asin } }, { asin: after.asin, seq: { $gt: after.seq } }];
      // One ASIN's by seq alone: its ASIN is fixed, and a sort naming it would not be served by the index.
      const page = await this.#rows.find(filter, { sort: range.asin !== undefined ? { seq: 1 } : { asin: 1, seq: 1 }, limit: range.limit });
      // With a keyword document, head rows are leftovers of the layout before it: the document has their state.
      rows.push(...(current.length > 0 ? page.filter((row) => !row.head) : page));
      end = page[page.length - 1];
      if (page.length < range.limit) end = undefined;
      if (!end || rows.length >= range.limit) break;
      after = end;
    }
    const points = [...rows, ...heads.filter((head) => !end || pointOrder(head, end) <= 0)].sort(pointOrder);
    return dedupe(points, (a, b) => a.asin === b.asin).slice(0, range.limit);
  }

  /** Removes the change points last seen before `before` (retention): rows, and heads in keywords' documents. @returns change points removed. */
  async prune(before: string): Promise<number> {
    return (await this.#rows.deleteMany({ lastSeenAt: { $lt: before } })) + (await this.#keywords.prune(before));
  }

  /** Rows and keyword documents, and the bytes of their JSON, for an organization (benchmarks and tests). */
  async footprint(organizationId: string): Promise<{ rows: number; bytes: number }> {
    let rows = 0;
    let bytes = 0;
    for await (const batch of this.#rows.streamBatches({ organizationId })) {
      rows += batch.length;
      for (const row of batch) bytes += Buffer.byteLength(JSON.stringify(row));
    }
    const keywords = await this.#keywords.footprint(organizationId);
    return { rows: rows + keywords.rows, bytes: bytes + keywords.bytes };
  }
}

/** The carried values' digest, independent of their order. */
function carriedDigest(values: CarriedValues): string {
  const entries = [...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 22);
}

function windowOf(range: { from?: string; to?: string }): Filter {
  return {
    ...(range.from !== undefined ? { lastSeenAt: { $gte: range.from } } : {}),
    ...(range.to !== undefined ? { firstSeenAt: { $lte: range.to } } : {}),
  };
}

/** Whether a change point is in force at some time between `from` and `to`. */
function inWindow(point: ChangePoint, range: { from?: string; to?: string }): boolean {
  return (range.from === undefined || point.lastSeenAt >= range.from) && (range.to === undefined || point.firstSeenAt <= range.to);
}

/** (ASIN, seq) order, as a keyword's change points are listed. */
function pointOrder(a: Pick<ChangePoint, 'asin' | 'seq'>, b: Pick<ChangePoint, 'asin' | 'seq'>): number {
  return a.asin < b.asin ? -1 : a.asin > b.asin ? 1 : a.seq - b.seq;
}
