import type { FullBalance, LedgerEntryKind, TargetCharges } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';
import { ZERO_BALANCE, type BalanceDelta } from './balance.ts';

/** The balance document: the ledger folded up to entry `version`. */
export interface BalanceDoc extends FullBalance {
  _id: string;
  version: number;
  /**
   * Figures kept with the balance for reads that would otherwise add up history (e.g. referral
   * rewards per code). Moved by the same conditional update as the four figures, so exactly once.
   */
  tallies?: Record<string, number>;
  updatedAt: string;
  [key: string]: unknown;
}

export interface LedgerEntryDoc {
  /** `slotId(organizationId, version)`; a random `led_…` on entries written before slot ids. */
  _id: string;
  organizationId: string;
  /** 1, 2, 3… per organization; unique with the organization, so each slot is taken once. */
  version: number;
  /** Idempotency key (`reserve:<jobId>`, `purchase:<orderId>`…), unique across the ledger. */
  key: string;
  kind: LedgerEntryKind;
  amount: number;
  delta: BalanceDelta;
  /** Added to the balance's `tallies` when the entry is applied. */
  tallies?: Record<string, number>;
  reason: string;
  jobId?: string;
  orderId?: string;
  actorUserId?: string;
  /** The reservation attempt that wrote a `reserve:` entry (absent on entries written before attempts existed). */
  attempt?: string;
  /** On a settlement's capture and release entries: the job's targets charged and delivered without charge. */
  charges?: TargetCharges;
  balanceAfter: FullBalance;
  /** Only a hint for the reconciler's scan; the balance `version` is what says "applied". */
  applied: boolean;
  createdAt: string;
  [key: string]: unknown;
}

/**
 * The `_id` of the entry in slot `version` of the organization. Inserting it is the slot claim
 * (`_id` is unique, atomically, on every server), and reading it is a filter on `_id` alone, the
 * only one FerretDB v1 does not evaluate in Go on every document. Entries written before slot ids
 * have random `_id`s (`led_…`). Unambiguous: the version is the digits after the last `_`.
 */
export function slotId(organizationId: string, version: number): string {
  return `led_${organizationId}_${version}`;
}

/**
 * What `appendEntry` did: logged the entry, or which unique index refused it. `taken` means the
 * server did not say (FerretDB v1 names no index in its duplicate key error).
 */
export type AppendOutcome = 'appended' | 'id_taken' | 'slot_taken' | 'key_taken' | 'taken';

function takenBy(error: DuplicateKeyError): Exclude<AppendOutcome, 'appended'> {
  switch (error.index) {
    case '_id':
    case '_id_':
      return 'id_taken';
    case 'organization_version':
      return 'slot_taken';
    case 'idempotency_key':
      return 'key_taken';
    default:
      return 'taken';
  }
}

/** Tally names become field names: letters, digits and `_` only (no `.`/`$`, never all digits). */
const TALLY_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Storage of the credit ledger: the `balances` snapshot per organization and the append-only
 * `ledger` entries. Nothing here folds history. The write path filters ledger entries by `_id`
 * alone (entry by slot id, its `applied` flag); lookups by idempotency key or by
 * `(organizationId, version)` use their unique indexes on MongoDB but decode the whole collection
 * on FerretDB v1, so the ledger keeps them off the hot path (repeats, refusals, entries written
 * before slot ids, the reconciler, admin pages).
 */
export class LedgerRepository {
  readonly #balances: Collection<BalanceDoc>;
  readonly #entries: Collection<LedgerEntryDoc>;

  constructor(store: DocumentStore) {
    this.#balances = store.collection<BalanceDoc>('balances');
    this.#entries = store.collection<LedgerEntryDoc>('ledger');
  }

  async init(): Promise<void> {
    await this.#entries.ensureIndexes([
      { keys: { key: 1 }, unique: true, name: 'idempotency_key' },
      { keys: { organizationId: 1, version: 1 }, unique: true, name: 'organization_version' },
      { keys: { applied: 1, createdAt: 1 }, name: 'unapplied' },
      { keys: { organizationId: 1, createdAt: 1 }, name: 'organization_created' },
    ]);
  }

  /** Creates the empty balance (version 0) if missing and returns the stored one; safe to race. */
  async openBalance(organizationId: string, now: string): Promise<BalanceDoc> {
    try {
      const doc = await this.#balances.updateOne({ _id: organizationId }, { $setOnInsert: { version: 0, ...ZERO_BALANCE, updatedAt: now } }, { upsert: true });
      if (doc) return doc;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const existing = await this.findBalance(organizationId);
    if (!existing) throw new Error(`balance of ${organizationId} vanished`);
    return existing;
  }

  findBalance(organizationId: string): Promise<BalanceDoc | null> {
    return this.#balances.findOne({ _id: organizationId });
  }

  /**
   * One entry by `_id` alone (for a slot: `slotId(organizationId, version)`). An index lookup on
   * MongoDB; on FerretDB v1 with SQLite a scan inside SQLite (its `_id` index is not used), still
   * about ten times cheaper than any other filter there.
   */
  findEntry(id: string): Promise<LedgerEntryDoc | null> {
    return this.#entries.findOne({ _id: id });
  }

  /**
   * The entry in slot `version` of the organization, whatever its `_id` (also one written before
   * slot ids). The unique index on MongoDB; a collection scan on FerretDB v1: not for the hot path.
   */
  findEntryAt(organizationId: string, version: number): Promise<LedgerEntryDoc | null> {
    return this.#entries.findOne({ organizationId, version });
  }

  /** The entry holding an idempotency key. The unique index on MongoDB; a scan on FerretDB v1. */
  findEntryByKey(key: string): Promise<LedgerEntryDoc | null> {
    return this.#entries.findOne({ key });
  }

  /**
   * Logs an entry in its slot (nothing is written unless it returns `appended`). Otherwise the
   * slot's `_id`, the slot (an entry with another `_id`), or the key is taken, as far as the server
   * says: which index a duplicate names is a hint, and `taken` names none.
   */
  async appendEntry(entry: LedgerEntryDoc): Promise<AppendOutcome> {
    for (const name of Object.keys(entry.tallies ?? {})) {
      if (!TALLY_NAME.test(name)) throw new RangeError(`Invalid tally name ${JSON.stringify(name)}`);
    }
    try {
      await this.#entries.insertOne(entry);
      return 'appended';
    } catch (error) {
      if (error instanceof DuplicateKeyError) return takenBy(error);
      throw error;
    }
  }

  /**
   * Moves the balance from `version − 1` to `version` by the entry's delta (and tallies); a no-op
   * when the balance is elsewhere, so applying an entry twice changes nothing.
   * @returns whether this call moved the balance.
   */
  async applyEntry(entry: LedgerEntryDoc, now: string): Promise<boolean> {
    const $inc: Record<string, number> = { ...entry.delta };
    for (const [name, value] of Object.entries(entry.tallies ?? {})) $inc[`tallies.${name}`] = value;
    const moved = await this.#balances.updateOne(
      { _id: entry.organizationId, version: entry.version - 1 },
      { $inc, $set: { version: entry.version, updatedAt: now } },
    );
    return moved !== null;
  }

  /** Clears the reconciler's hint on one entry (its balance already holds it). */
  async flagApplied(entryId: string): Promise<void> {
    // By `_id` alone: FerretDB v1 pushes a filter down only when `_id` is its one field.
    await this.#entries.updateOne({ _id: entryId }, { $set: { applied: true } });
  }

  /** Clears the hint on every entry of the organization up to `version`. */
  async flagAppliedUpTo(organizationId: string, version: number): Promise<number> {
    return this.#entries.updateMany({ organizationId, applied: false, version: { $lte: version } }, { $set: { applied: true } });
  }

  countUnflagged(organizationId: string): Promise<number> {
    return this.#entries.count({ organizationId, applied: false });
  }

  /** Entries still flagged unapplied since before `cutoff`: crash leftovers, for the reconciler. */
  staleUnapplied(cutoff: string, limit: number): Promise<LedgerEntryDoc[]> {
    return this.#entries.find({ applied: false, createdAt: { $lt: cutoff } }, { limit });
  }

  /**
   * Up to `limit` entries at or below version `fromVersion`, newest first. Versions are gapless, so
   * a page is one range of the `(organizationId, version)` index, whatever its offset.
   */
  entriesDownFrom(organizationId: string, fromVersion: number, limit: number): Promise<LedgerEntryDoc[]> {
    if (fromVersion < 1 || limit < 1) return Promise.resolve([]);
    return this.#entries.find({ organizationId, version: { $lte: fromVersion } }, { sort: { version: -1 }, limit });
  }

  /** The organization's entries created in `[from, to)`: one range of the `(organizationId, createdAt)` index. */
  entriesCreatedBetween(organizationId: string, from: string, to: string): Promise<LedgerEntryDoc[]> {
    return this.#entries.find({ organizationId, createdAt: { $gte: from, $lt: to } }, { sort: { createdAt: 1 } });
  }
}
