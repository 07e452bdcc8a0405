import { DuplicateKeyError, type Collection, type Document, type DocumentStore, type Update } from '@crawl/storage';
import type { KeywordCheck } from './keyword-check.ts';

export const OBSERVATION_KEYWORD_TALLIES_COLLECTION = 'observation_keyword_tallies';

/**
 * A keyword's unchanged checks, kept apart from its heads (`KeywordHeadsDoc`) so that counting one
 * rewrites a few fields and not every head. While `carried` holds the digest of what the heads'
 * last write carried, a check carrying the same changes nothing (see `carriedDigest`) and is one
 * conditional update here: `unchanged` and the last check move. The heads take in the count
 * (`absorbed`) when they are next written; until then `unchanged - absorbed` checks are the riding
 * heads' too.
 */
export interface KeywordTallyDoc extends Document {
  /** The keyword's scope (`keywordScopeOf`). */
  _id: string;
  organizationId: string;
  /** One more per write: a writer of the heads holds it still (see `freeze`). */
  version: number;
  /** Null while a writer of the heads works (and after one that left no digest): no check is counted here then. */
  carried: string | null;
  /** Unchanged checks counted here, ever. */
  unchanged: number;
  /** The last check counted here, or the heads' last write (whichever is later). */
  lastAt: string;
  lastJobId: string;
  lastReport: string;
}

/**
 * The tally's writes. A writer of the heads `freeze`s it (no unchanged check is counted from then
 * on, so the count it reads is the one the heads take in), writes the heads, and `release`s it
 * with the digest of what it wrote, unless another writer froze it since.
 */
export class KeywordTallies {
  readonly #tallies: Collection<KeywordTallyDoc>;

  constructor(store: DocumentStore) {
    this.#tallies = store.collection<KeywordTallyDoc>(OBSERVATION_KEYWORD_TALLIES_COLLECTION);
  }

  /** Counts a check that carries what the heads' last write did, unless that report was counted already. @returns whether it was counted. */
  async countUnchanged(check: KeywordCheck, carried: string): Promise<boolean> {
    const counted = await this.#tallies.updateOne(
      { _id: check.scopeId, organizationId: check.organizationId, carried, lastReport: { $ne: check.report } },
      { $set: { lastJobId: check.jobId, lastReport: check.report }, $max: { lastAt: check.at }, $inc: { unchanged: 1, version: 1 } },
    );
    return counted !== null;
  }

  read(organizationId: string, scopeId: string): Promise<KeywordTallyDoc | null> {
    return this.#tallies.findOne({ _id: scopeId, organizationId });
  }

  /**
   * Stops the counting of the keyword's tally, whatever it was (a new keyword's is made stopped).
   * @returns the tally as it now stands: its count is the one the heads take in.
   */
  async freeze(check: Pick<KeywordCheck, 'organizationId' | 'scopeId' | 'jobId' | 'report' | 'at'>): Promise<KeywordTallyDoc> {
    const update = {
      $set: { carried: null },
      $setOnInsert: { unchanged: 0, lastAt: check.at, lastJobId: check.jobId, lastReport: check.report },
      $inc: { version: 1 },
    };
    try {
      return await this.#freezeOrMake(check.organizationId, check.scopeId, update);
    } catch (error) {
      // Two writers made the tally at once: the other's is there now.
      if (!(error instanceof DuplicateKeyError)) throw error;
      return this.#freezeOrMake(check.organizationId, check.scopeId, update);
    }
  }

  async #freezeOrMake(organizationId: string, scopeId: string, update: Update): Promise<KeywordTallyDoc> {
    const frozen = await this.#tallies.updateOne({ _id: scopeId, organizationId }, update, { upsert: true });
    if (!frozen) throw new Error(`the tally of keyword ${scopeId} was neither updated nor made`);
    return frozen;
  }

  /** Stops the counting of the tally as read. @returns the tally as it now stands, or null when it moved since it was read. */
  freezeAsRead(read: KeywordTallyDoc): Promise<KeywordTallyDoc | null> {
    return this.#tallies.updateOne({ _id: read._id, version: read.version }, { $set: { carried: null }, $inc: { version: 1 } });
  }

  /**
   * Lets the tally count again from the heads a writer just wrote (`last`: its check) or left as
   * they were, with `carried` (null: the next check reads the heads). A tally that moved since it
   * was frozen belongs to a later writer and is left to it.
   */
  async release(frozen: KeywordTallyDoc, carried: string | null, last?: Pick<KeywordCheck, 'at' | 'jobId' | 'report'>): Promise<void> {
    const lastCheck = last ? { lastAt: last.at, lastJobId: last.jobId, lastReport: last.report } : {};
    await this.#tallies.updateOne({ _id: frozen._id, version: frozen.version }, { $set: { carried, ...lastCheck }, $inc: { version: 1 } });
  }

  /** Removes a frozen tally with its keyword's heads (retention). */
  async remove(frozen: KeywordTallyDoc): Promise<void> {
    await this.#tallies.deleteOne({ _id: frozen._id, version: frozen.version });
  }

  /** Tallies and the bytes of their JSON, for an organization (benchmarks and tests). */
  async footprint(organizationId: string): Promise<{ rows: number; bytes: number }> {
    let rows = 0;
    let bytes = 0;
    for await (const batch of this.#tallies.streamBatches({ organizationId })) {
      rows += batch.length;
      for (const doc of batch) bytes += Buffer.byteLength(JSON.stringify(doc));
    }
    return { rows, bytes };
  }
}
