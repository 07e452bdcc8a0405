import { createHash } from 'node:crypto';
import type { ObservedChange, ObservedSubject, TrackedValue } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore, type Filter } from '@crawl/storage';
import { storedKeyOf } from './observed-subjects.ts';
import type { CarriedValues } from './tracked-values.ts';

export const OBSERVATIONS_COLLECTION = 'observations';

/** Tracked values as a row stores them: by stored key (see `storedKeyOf`). */
export type StoredValues = { [storedKey: string]: TrackedValue };

/**
 * One change point of a subject: the full state (values carried forward) from the check that
 * opened it (`firstSeenAt`, `jobId`, `resultId`) until the last check that saw it unchanged
 * (`lastSeenAt`, `checks`). A subject's latest row, its head, has the subject id as `_id`, so a
 * check that changes nothing is one keyed update; the rows before it are `<subjectId>:<seq>`.
 */
export interface ObservationDoc extends Document {
  organizationId: string;
  subjectId: string;
  subject: ObservedSubject;
  asin: string;
  /** Rank subjects: their keyword's scope (every ASIN of the keyword on the storefront). */
  scopeId?: string;
  /** 0 for a subject's first row, then one more per change. */
  seq: number;
  head: boolean;
  values: StoredValues;
  firstSeenAt: string;
  lastSeenAt: string;
  checks: number;
  jobId: string;
  resultId: string;
  lastJobId: string;
  /** `<jobId>:<targetIndex>` of the last check (its result set): the same report delivered again is recognised. */
  lastReport: string;
  /**
   * A digest of the values the last check carried. The head holds them all (that check wrote or
   * matched them, and nothing wrote after it), so a check carrying the same values is unchanged:
   * one comparison instead of one per value.
   */
  carried: string;
}

/** One check of one subject, as the recorder hands it over. */
export interface ObservationCheck {
  organizationId: string;
  subjectId: string;
  subject: ObservedSubject;
  scopeId?: string;
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

const archiveIdOf = (subjectId: string, seq: number): string => `${subjectId}:${String(seq).padStart(10, '0')}`;

/** Two rows with one seq exist only for a moment (a change being written): keep the head's. */
function dedupe(rows: readonly ObservationDoc[]): ObservationDoc[] {
  const out: ObservationDoc[] = [];
  for (const row of rows) {
    const last = out[out.length - 1];
    if (last && last.subjectId === row.subjectId && last.seq === row.seq) {
      if (row.head) out[out.length - 1] = row;
      continue;
    }
    out.push(row);
  }
  return out;
}

/** Observations as change points: every query on them lives here. */
export class ObservationRepository {
  readonly #rows: Collection<ObservationDoc>;

  constructor(store: DocumentStore) {
    this.#rows = store.collection<ObservationDoc>(OBSERVATIONS_COLLECTION);
  }

  async init(): Promise<void> {
    await this.#rows.ensureIndexes([
      // A subject's change points in order (reads, paging); the head is found by `_id`.
      { keys: { organizationId: 1, subjectId: 1, seq: 1 }, name: 'org_subject_seq' },
      // A keyword's ASINs: their change points (rank history) and their heads (who left the pages).
      { keys: { organizationId: 1, scopeId: 1, asin: 1, seq: 1 }, name: 'org_scope_asin_seq' },
      { keys: { organizationId: 1, scopeId: 1, head: 1 }, name: 'org_scope_head' },
      // Retention.
      { keys: { lastSeenAt: 1 }, name: 'last_seen' },
    ]);
  }

  /**
   * Records one check and returns the changes it brought (none for a subject's first check, nor
   * for a field seen for the first time). An unchanged check extends the head in one keyed update
   * (matched on the values it carries); a change closes the head into a row of its own and opens
   * a new head. Writers of the same subject meet in conditional updates on the head's `seq` and
   * `checks`, and try again on a miss. The same report again (`lastReport`) counts nothing and
   * returns the changes it brought the first time. `knownHead`: the head as just read (a
   * keyword's heads are read together), which saves the extension attempt and the read.
   */
  async observe(check: ObservationCheck, knownHead?: ObservationDoc | null): Promise<ObservedChange[]> {
    if (check.values.size === 0) return [];
    if (knownHead === undefined && (await this.#extendUnchanged(check))) return [];
    let head = knownHead;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (head === undefined || attempt > 0) head = await this.#rows.findOne({ _id: check.subjectId, organizationId: check.organizationId });
      if (!head) {
        if (await this.#insertFirst(check)) return [];
        continue;
      }
      if (head.lastReport === check.report) return this.#replayedChanges(check, head);
      // Never before the head's last check (clocks of replicas differ): a subject's rows stay in time order.
      const at = [check.at, head.lastSeenAt].sort()[1] as string;
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
   * Checks of one report whose heads were just read together (a keyword's ASINs): those that
   * carry what their head's last check carried are extended in one write, guarded per head by its
   * `seq` and `checks`; any other, and any whose head moved meanwhile, go through `observe`
   * (which recognises the extended ones as this report's).
   */
  async observeKnown(items: readonly { check: ObservationCheck; head: ObservationDoc | null }[]): Promise<ObservedChange[]> {
    const unchanged = items.filter(
      ({ check, head }) => head !== null && check.values.size > 0 && head.lastReport !== check.report && head.carried === carriedDigest(check.values),
    );
    const first = unchanged[0]?.check;
    let rest = items;
    let raced = false;
    if (first && unchanged.every(({ check }) => check.at === first.at && check.jobId === first.jobId && check.report === first.report)) {
      const guards: Filter[] = unchanged.map(({ head }) => ({
        _id: (head as ObservationDoc)._id,
        seq: (head as ObservationDoc).seq,
        checks: (head as ObservationDoc).checks,
      }));
      const extended = await this.#rows.updateMany(
        // By the heads' ids alone (they name the organization's subjects), so both stores go by the
        // primary key rather than an index on the organization; then each head's guard.
        { _id: { $in: unchanged.map(({ head }) => (head as ObservationDoc)._id) }, $or: guards },
        { $set: { lastJobId: first.jobId, lastReport: first.report }, $max: { lastSeenAt: first.at }, $inc: { checks: 1 } },
      );
      if (extended === unchanged.length) rest = items.filter((item) => !unchanged.includes(item));
      else raced = true;
    }
    const changes: ObservedChange[] = [];
    // After a race the heads read before are stale: each check reads its head again.
    for (const { check, head } of rest) changes.push(...(await this.observe(check, raced ? undefined : head)));
    return changes;
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
    const values: StoredValues = {};
    for (const [field, value] of check.values) values[storedKeyOf(field)] = value;
    try {
      await this.#rows.insertOne({
        _id: check.subjectId,
        organizationId: check.organizationId,
        subjectId: check.subjectId,
        subject: check.subject,
        asin: check.subject.asin,
        ...(check.scopeId !== undefined ? { scopeId: check.scopeId } : {}),
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

  /** The heads of every ASIN observed for a keyword on a storefront. */
  keywordHeads(organizationId: string, scopeId: string): Promise<ObservationDoc[]> {
    return this.#rows.find({ organizationId, scopeId, head: true });
  }

  /** A subject's change points in seq (time) order, overlapping `from`…`to`, after `afterSeq`. */
  async subjectRows(organizationId: string, subjectId: string, range: RowRange): Promise<ObservationDoc[]> {
    const filter: Filter = { organizationId, subjectId, ...windowOf(range) };
    if (range.afterSeq !== undefined) filter.seq = { $gt: range.afterSeq };
    return dedupe(await this.#rows.find(filter, { sort: { seq: 1 }, limit: range.limit + 1 })).slice(0, range.limit);
  }

  /** A keyword's change points by ASIN then seq, after (`asin`, `seq`), overlapping `from`…`to`. */
  async keywordRows(
    organizationId: string,
    scopeId: string,
    range: Omit<RowRange, 'afterSeq'> & { after?: { asin: string; seq: number } },
  ): Promise<ObservationDoc[]> {
    const filter: Filter = { organizationId, scopeId, ...windowOf(range) };
    if (range.after) filter.$or = [{ asin: { $gt: range.after.asin } }, { asin: range.after.asin, seq: { $gt: range.after.seq } }];
    return dedupe(await this.#rows.find(filter, { sort: { asin: 1, seq: 1 }, limit: range.limit + 1 })).slice(0, range.limit);
  }

  /** Removes the change points last seen before `before` (retention). @returns rows removed. */
  prune(before: string): Promise<number> {
    return this.#rows.deleteMany({ lastSeenAt: { $lt: before } });
  }

  /** Rows and the bytes of their JSON, for an organization (benchmarks and tests). */
  async footprint(organizationId: string): Promise<{ rows: number; bytes: number }> {
    let rows = 0;
    let bytes = 0;
    for await (const batch of this.#rows.streamBatches({ organizationId })) {
      rows += batch.length;
      for (const row of batch) bytes += Buffer.byteLength(JSON.stringify(row));
    }
    return { rows, bytes };
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

function mergeValues(stored: StoredValues, carried: CarriedValues): StoredValues {
  const values: StoredValues = { ...stored };
  for (const [field, value] of carried) values[storedKeyOf(field)] = value;
  return values;
}

/** The carried values that differ from what `before` holds; a field `before` never had is no change. */
function changesOf(check: ObservationCheck, before: ObservationDoc, observedAt: string): ObservedChange[] {
  const changes: ObservedChange[] = [];
  for (const [field, current] of check.values) {
    const key = storedKeyOf(field);
    if (!Object.hasOwn(before.values, key)) continue;
    const previous = before.values[key] as TrackedValue;
    if (previous === current) continue;
    changes.push({
      subject: check.subject,
      field,
      previous,
      current,
      previousObservedAt: before.lastSeenAt,
      observedAt,
      jobId: check.jobId,
      resultId: check.resultId,
    });
  }
  return changes;
}
