import type { ObservedChange } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';
import { archiveIdOf, changesOf } from './change-points.ts';
import { applyKeywordCheck, carriedDigest, type KeywordCheck, type KeywordOutcome, type RankHead } from './keyword-check.ts';
import { KeywordTallies, type KeywordTallyDoc } from './keyword-tallies.ts';
import { subjectIdOf, type RankSubjectOf } from './observed-subjects.ts';
import type { ObservationDoc } from './observation-repository.ts';

export const OBSERVATION_KEYWORDS_COLLECTION = 'observation_keywords';

/**
 * A head as the keyword's document stores it. One the heads' last write saw at its time (riding)
 * leaves out its last check, which is the document's (`lastAt`, `lastJobId`, `lastReport`), or
 * the tally's once the tally has counted unchanged checks since; those add to its `checks`.
 */
export type StoredRankHead = Omit<RankHead, 'lastSeenAt' | 'lastJobId' | 'lastReport'> & Partial<Pick<RankHead, 'lastSeenAt' | 'lastJobId' | 'lastReport'>>;

/**
 * A keyword's heads on one storefront for one organization: the open change point of every ASIN
 * observed in its results, first seen first. A check that changes something writes it once,
 * however many ASINs it carries, and keeps each head it closes as a row of `observations`
 * (`<subjectId>:<seq>`), where the ASIN's earlier change points are. A check that changes
 * nothing is counted by the keyword's tally alone (`KeywordTallyDoc`).
 */
export interface KeywordHeadsDoc extends Document {
  /** The keyword's scope (`keywordScopeOf`). */
  _id: string;
  organizationId: string;
  marketplace: string;
  keyword: string;
  /** One more per write: writers of one keyword meet in an update conditional on it. */
  version: number;
  /** The check of the last write: the last check of every riding head, unless the tally counted later ones. */
  lastAt: string;
  lastJobId: string;
  lastReport: string;
  /** The tally's `unchanged` when the heads were written: the riding heads' `checks` hold those. */
  absorbed: number;
  heads: StoredRankHead[];
  /** At most the earliest `lastSeenAt` of the heads: retention finds the keywords holding a head to forget. */
  oldestSeenAt: string;
}

/** Attempts of a check against concurrent writers of the same keyword before it gives up. */
const MAX_ATTEMPTS = 16;
/** Keywords retention rewrites per query. */
const PRUNE_BATCH = 200;

/** The keywords' heads and tallies, and the rows of `observations` their writes close or replace. */
export class KeywordObservations {
  readonly #keywords: Collection<KeywordHeadsDoc>;
  readonly #tallies: KeywordTallies;
  readonly #rows: Collection<ObservationDoc>;

  constructor(store: DocumentStore, rows: Collection<ObservationDoc>) {
    this.#keywords = store.collection<KeywordHeadsDoc>(OBSERVATION_KEYWORDS_COLLECTION);
    this.#tallies = new KeywordTallies(store);
    this.#rows = rows;
  }

  async init(): Promise<void> {
    // Heads and tallies are read and written by `_id`; this index is retention's only.
    await this.#keywords.ensureIndexes([{ keys: { oldestSeenAt: 1 }, name: 'oldest_seen' }]);
  }

  /**
   * Records a search target's checks of its keyword and returns the changes they brought, in the
   * order of the checks (the ASINs shown, then those gone). A check carrying what the heads' last
   * write did is counted by the tally alone, one small update. Any other stops the tally, reads
   * the heads, keeps a row for each head a change closes and writes the heads in one update
   * conditional on their `version` (starting over when another writer wrote them meanwhile), then
   * lets the tally count again. The same report again counts nothing for an ASIN whose head has
   * seen it, and tells again the changes it brought.
   */
  async observe(check: KeywordCheck): Promise<ObservedChange[]> {
    const carried = carriedDigest(check);
    if (await this.#tallies.countUnchanged(check, carried)) return [];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const tally = await this.#tallies.freeze(check);
      const state = await this.#keywords.findOne({ _id: check.scopeId, organizationId: check.organizationId });
      const legacy = state ? [] : await this.#legacyHeads(check);
      const outcome = applyKeywordCheck(state ? headsOf(state, tally) : legacy.map(headOfRow), check);
      if (!outcome.writes) {
        // Every head had seen this report: nothing written. The next check reads the heads again.
        await this.#tallies.release(tally, null);
        return this.#changes(check, outcome);
      }
      await Promise.all(outcome.closed.map((head) => this.#close(check, head)));
      if (!(await this.#write(check, state, tally, outcome))) continue;
      // The heads of the layout before keyword documents are in this one now.
      if (legacy.length > 0) await this.#rows.deleteMany({ _id: { $in: legacy.map((row) => row._id) }, head: true });
      await this.#tallies.release(tally, ridesOn(check, outcome) ? carried : null, check);
      return this.#changes(check, outcome);
    }
    throw new Error(`observation of keyword ${check.scopeId} kept meeting concurrent writers`);
  }

  /**
   * The keyword's heads as they stand, with the checks its tally counted since they were written:
   * the tally read before and after them, again while a writer moved it between (a bounded number
   * of times).
   */
  async heads(organizationId: string, scopeId: string): Promise<RankHead[]> {
    let tally = await this.#tallies.read(organizationId, scopeId);
    for (let attempt = 0; ; attempt += 1) {
      const state = await this.#keywords.findOne({ _id: scopeId, organizationId });
      if (!state) return [];
      const after = await this.#tallies.read(organizationId, scopeId);
      if (after?.version === tally?.version || attempt === MAX_ATTEMPTS) return headsOf(state, after);
      tally = after;
    }
  }

  /** Forgets the heads last seen before `before`, and a keyword whose heads all were. @returns heads removed. */
  async prune(before: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.#keywords.find({ oldestSeenAt: { $lt: before } }, { sort: { oldestSeenAt: 1 }, limit: PRUNE_BATCH });
      let progressed = false;
      for (const doc of batch) {
        const forgotten = await this.#forget(doc, before);
        removed += forgotten ?? 0;
        progressed ||= forgotten !== null;
      }
      // A keyword that kept meeting writers is left for the next tick.
      if (batch.length < PRUNE_BATCH || !progressed) return removed;
    }
  }

  /** Heads and tallies, and the bytes of their JSON, for an organization (benchmarks and tests). */
  async footprint(organizationId: string): Promise<{ rows: number; bytes: number }> {
    let rows = 0;
    let bytes = 0;
    for await (const batch of this.#keywords.streamBatches({ organizationId })) {
      rows += batch.length;
      for (const doc of batch) bytes += Buffer.byteLength(JSON.stringify(doc));
    }
    const tallies = await this.#tallies.footprint(organizationId);
    return { rows: rows + tallies.rows, bytes: bytes + tallies.bytes };
  }

  /**
   * The heads as the outcome leaves them: inserted for a new keyword, else updated if no one wrote
   * them since they were read. The heads this check wrote at its time ride on it; the tally's
   * count as frozen is taken in.
   */
  async #write(check: KeywordCheck, state: KeywordHeadsDoc | null, tally: KeywordTallyDoc, outcome: KeywordOutcome): Promise<boolean> {
    const fields = {
      lastAt: check.at,
      lastJobId: check.jobId,
      lastReport: check.report,
      absorbed: tally.unchanged,
      heads: outcome.heads.map((head) => (outcome.touched.has(head.asin) && head.lastSeenAt === check.at ? ridingHead(head) : head)),
      oldestSeenAt: oldestSeenOf(outcome.heads),
    };
    if (state) return (await this.#keywords.updateOne({ _id: state._id, version: state.version }, { $set: fields, $inc: { version: 1 } })) !== null;
    try {
      const { organizationId, scopeId, marketplace, keyword } = check;
      await this.#keywords.insertOne({ _id: scopeId, organizationId, marketplace, keyword, version: 0, ...fields });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /**
   * Keeps a head the check closes as the row of its seq. A put (idempotent), with the count and
   * the last time only ever raised: a writer that read the head before a concurrent extension
   * cannot lower them.
   */
  async #close(check: KeywordCheck, head: RankHead): Promise<void> {
    const subject = this.#subjectOf(check, head.asin);
    const subjectId = subjectIdOf(check.organizationId, subject);
    const { checks, lastSeenAt, ...fields } = head;
    await this.#rows.updateOne(
      { _id: archiveIdOf(subjectId, head.seq) },
      { $set: { ...fields, organizationId: check.organizationId, subjectId, subject, scopeId: check.scopeId, head: false }, $max: { checks, lastSeenAt } },
      { upsert: true },
    );
  }

  /** The changes of each ASIN in order; for a report seen before, those of the head it opened (if it opened one), told again. */
  async #changes(check: KeywordCheck, outcome: KeywordOutcome): Promise<ObservedChange[]> {
    const changes: ObservedChange[] = [];
    for (const one of outcome.outcomes) {
      if ('changes' in one) {
        changes.push(...one.changes);
        continue;
      }
      const { replayOf, head } = one;
      if (head.jobId !== replayOf.jobId || head.resultId !== replayOf.resultId || head.seq === 0) continue;
      const subjectId = subjectIdOf(check.organizationId, replayOf.subject);
      const previous = await this.#rows.findOne({ _id: archiveIdOf(subjectId, head.seq - 1), organizationId: check.organizationId });
      if (previous) changes.push(...changesOf(replayOf, previous, head.firstSeenAt));
    }
    return changes;
  }

  /**
   * A keyword observed before keyword documents kept each ASIN's head as a row of its own
   * (`head: true`, `_id` the subject's id). Its first check now takes them in.
   */
  #legacyHeads(check: KeywordCheck): Promise<ObservationDoc[]> {
    return this.#rows.find({ organizationId: check.organizationId, scopeId: check.scopeId, head: true });
  }

  /**
   * Removes the heads last seen before `before` from one keyword, as a writer of its heads does
   * (the tally stopped meanwhile); when none was (riding heads were seen later than the document
   * says), sets its `oldestSeenAt` right. @returns heads removed, or null when it kept meeting writers.
   */
  async #forget(found: KeywordHeadsDoc, before: string): Promise<number | null> {
    const at = { organizationId: found.organizationId, scopeId: found._id, jobId: found.lastJobId, report: found.lastReport, at: found.lastAt };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      // Frozen as read, so that the digest it held can be given back.
      const read = await this.#tallies.read(found.organizationId, found._id);
      const tally = read ? await this.#tallies.freezeAsRead(read) : await this.#tallies.freeze(at);
      if (!tally) continue;
      const state = await this.#keywords.findOne({ _id: found._id, organizationId: found.organizationId });
      if (!state) {
        await this.#tallies.remove(tally);
        return 0;
      }
      const heads = headsOf(state, tally);
      const kept = heads.filter((head) => head.lastSeenAt >= before);
      const current = { _id: state._id, version: state.version };
      if (kept.length === 0) {
        if (!(await this.#keywords.deleteOne(current))) continue;
        await this.#tallies.remove(tally);
        return heads.length;
      }
      const riding = new Set(state.heads.filter((head) => head.lastSeenAt === undefined).map((head) => head.asin));
      const fields = {
        absorbed: tally.unchanged,
        heads: kept.map((head) => (riding.has(head.asin) ? ridingHead(head) : head)),
        oldestSeenAt: oldestSeenOf(kept),
        // The riding heads' last check as it stands (the tally's once it counted some).
        ...lastCheckOf(state, tally),
      };
      if (!(await this.#keywords.updateOne(current, { $set: fields, $inc: { version: 1 } }))) continue;
      // Were a riding head forgotten, a check carrying the same as the last would not be unchanged.
      const ridingKept = kept.filter((head) => riding.has(head.asin)).length;
      await this.#tallies.release(tally, ridingKept === riding.size ? (read?.carried ?? null) : null);
      return heads.length - kept.length;
    }
    return null;
  }

  #subjectOf(check: KeywordCheck, asin: string): RankSubjectOf {
    return { kind: 'rank', marketplace: check.marketplace, keyword: check.keyword, asin };
  }
}

/**
 * Whether the heads a check wrote are the riding ones and their next check carrying the same is
 * unchanged: every head it wrote was seen at its time (none later, by a replica's clock), and no
 * head of it had seen the report before (such a head was left out of the write).
 */
function ridesOn(check: KeywordCheck, outcome: KeywordOutcome): boolean {
  return !outcome.replayed && outcome.heads.every((head) => !outcome.touched.has(head.asin) || head.lastSeenAt === check.at);
}

/** The riding heads' last check: the tally's when it counted checks since the heads were written, else the heads' last write's. */
function lastCheckOf(state: KeywordHeadsDoc, tally: KeywordTallyDoc | null): { lastAt: string; lastJobId: string; lastReport: string } {
  const counted = tally !== null && tally.unchanged > state.absorbed;
  const source = counted ? tally : state;
  return { lastAt: source.lastAt, lastJobId: source.lastJobId, lastReport: source.lastReport };
}

/** The heads of a keyword as they stand: the riding ones with their last check and the tally's count since the heads were written. */
export function headsOf(state: KeywordHeadsDoc, tally: KeywordTallyDoc | null): RankHead[] {
  const since = tally ? Math.max(0, tally.unchanged - state.absorbed) : 0;
  const last = lastCheckOf(state, tally);
  return state.heads.map((head) =>
    head.lastSeenAt !== undefined && head.lastJobId !== undefined && head.lastReport !== undefined
      ? (head as RankHead)
      : { ...head, checks: head.checks + since, lastSeenAt: last.lastAt, lastJobId: last.lastJobId, lastReport: last.lastReport },
  );
}

/** A head as it rides on the heads' last write (see `StoredRankHead`). */
function ridingHead(head: RankHead): StoredRankHead {
  const { lastSeenAt: _at, lastJobId: _job, lastReport: _report, ...rest } = head;
  return rest;
}

/** The earliest `lastSeenAt` of some heads (a write always leaves at least one). */
function oldestSeenOf(heads: readonly RankHead[]): string {
  let oldest = heads[0]?.lastSeenAt ?? '';
  for (const head of heads) if (head.lastSeenAt < oldest) oldest = head.lastSeenAt;
  return oldest;
}

/** A head row of the layout before keyword documents, as a keyword document's head. */
function headOfRow(row: ObservationDoc): RankHead {
  const { asin, seq, values, firstSeenAt, lastSeenAt, checks, jobId, resultId, lastJobId, lastReport } = row;
  return { asin, seq, values, firstSeenAt, lastSeenAt, checks, jobId, resultId, lastJobId, lastReport };
}
