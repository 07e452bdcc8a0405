import type { FullBalance, LedgerEntryKind, LedgerEntryView } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import { DuplicateKeyError, newId, type Collection, type DocumentStore } from '@crawl/storage';
import { applyDelta, deltaFor, refusal, ZERO_BALANCE, type BalanceDelta } from './balance.ts';

/** The balance document: the ledger folded up to entry `version`. */
export interface BalanceDoc extends FullBalance {
  _id: string;
  version: number;
  updatedAt: string;
  [key: string]: unknown;
}

export interface LedgerEntryDoc {
  _id: string;
  organizationId: string;
  /** 1, 2, 3… per organization; unique with the organization, so each slot is taken once. */
  version: number;
  /** Idempotency key (`reserve:<jobId>`, `purchase:<orderId>`…), unique across the ledger. */
  key: string;
  kind: LedgerEntryKind;
  amount: number;
  delta: BalanceDelta;
  reason: string;
  jobId?: string;
  orderId?: string;
  actorUserId?: string;
  balanceAfter: FullBalance;
  /** Only a hint for the reconciler's scan; the balance `version` is what says "applied". */
  applied: boolean;
  createdAt: string;
  [key: string]: unknown;
}

export interface RecordInput {
  organizationId: string;
  key: string;
  kind: LedgerEntryKind;
  amount: number;
  reason: string;
  jobId?: string;
  orderId?: string;
  actorUserId?: string;
}

/** The entry would take a figure below zero; nothing was written. */
export class LedgerRefusal extends Error {
  readonly why: 'insufficient_available' | 'insufficient_reserved';
  readonly balance: FullBalance;
  readonly amount: number;
  constructor(why: LedgerRefusal['why'], balance: FullBalance, amount: number) {
    super(`Ledger refused ${amount} credits: ${why}`);
    this.name = 'LedgerRefusal';
    this.why = why;
    this.balance = balance;
    this.amount = amount;
  }
}

/** Each attempt that loses a race means another writer made progress; this only bounds pathological contention. */
const MAX_ATTEMPTS = 2_000;
/** How many short pauses a reader grants an entry's writer before applying the entry itself. */
const HELP_AFTER_WAITS = 3;

/** Jittered, growing pause after a lost race: 0.5–1.5 ms at first, at most ~30 ms. */
function backOff(attempt: number): Promise<void> {
  const ms = Math.min(20, 1 + attempt) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function toBalance(doc: Pick<BalanceDoc, keyof FullBalance> | null): FullBalance {
  return doc ? { available: doc.available, reserved: doc.reserved, spent: doc.spent, granted: doc.granted } : { ...ZERO_BALANCE };
}

export function toLedgerView(entry: LedgerEntryDoc): LedgerEntryView {
  return {
    id: entry._id,
    organizationId: entry.organizationId,
    sequence: entry.version,
    kind: entry.kind,
    amount: entry.amount,
    reason: entry.reason,
    ...(entry.jobId ? { jobId: entry.jobId } : {}),
    ...(entry.orderId ? { orderId: entry.orderId } : {}),
    ...(entry.actorUserId ? { actorUserId: entry.actorUserId } : {}),
    balanceAfter: entry.balanceAfter,
    createdAt: entry.createdAt,
  };
}

/**
 * The credit ledger: an append-only log per organization plus a balance document that is the log
 * folded up to a version. Writing is "log first, then apply":
 *
 * 1. read the balance at version v (after applying any entry already logged at v+1);
 * 2. check the entry against that exact state and insert it at version v+1 (unique per
 *    organization) with its idempotency key (unique);
 * 3. apply it: `balance.version == v` → `$inc` the figures and set version v+1.
 *
 * Only one entry can ever hold slot v+1, and the balance can only move from v to v+1 by applying
 * it, so an entry is applied exactly once and always to the state it was checked against. A
 * crash between 2 and 3 leaves the entry logged but unapplied; the next writer or reader of that
 * organization (or the reconciler) applies it first. No multi-document transaction is needed.
 */
export class CreditLedger {
  readonly #balances: Collection<BalanceDoc>;
  readonly #entries: Collection<LedgerEntryDoc>;
  readonly #clock: Clock;

  constructor(store: DocumentStore, clock: Clock) {
    this.#balances = store.collection<BalanceDoc>('balances');
    this.#entries = store.collection<LedgerEntryDoc>('ledger');
    this.#clock = clock;
  }

  async init(): Promise<void> {
    await this.#entries.ensureIndexes([
      { keys: { organizationId: 1, createdAt: -1 }, name: 'organization_recent' },
      { keys: { key: 1 }, unique: true, name: 'idempotency_key' },
      { keys: { organizationId: 1, version: 1 }, unique: true, name: 'organization_version' },
      { keys: { applied: 1, createdAt: 1 }, name: 'unapplied' },
    ]);
  }

  /** Creates the empty balance (version 0) if missing; safe to race. */
  async open(organizationId: string): Promise<BalanceDoc> {
    try {
      const doc = await this.#balances.updateOne(
        { _id: organizationId },
        { $setOnInsert: { version: 0, ...ZERO_BALANCE, updatedAt: this.#clock.now().toISOString() } },
        { upsert: true },
      );
      if (doc) return doc;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const existing = await this.#balances.findOne({ _id: organizationId });
    if (!existing) throw new Error(`balance of ${organizationId} vanished`);
    return existing;
  }

  async exists(organizationId: string): Promise<boolean> {
    return (await this.#balances.findOne({ _id: organizationId })) !== null;
  }

  /** The balance with every logged entry applied; zeros for an organization never seen. */
  async balance(organizationId: string): Promise<FullBalance> {
    return toBalance(await this.rollForward(organizationId));
  }

  /** Applies logged-but-unapplied entries in order; returns the balance at the log's tip. */
  async rollForward(organizationId: string): Promise<BalanceDoc | null> {
    let pending = 0;
    let waits = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const balance = await this.#balances.findOne({ _id: organizationId });
      if (!balance) return null;
      const next = await this.#entries.findOne({ organizationId, version: balance.version + 1 });
      if (!next) return balance;
      // Usually its writer is applying it right now: give it a few short pauses before helping,
      // so concurrent writers do not all contend for the balance document. After a crash, the
      // entry is applied here after those pauses.
      if (next.version !== pending) {
        pending = next.version;
        waits = 0;
      }
      if (waits < HELP_AFTER_WAITS) {
        await backOff(waits);
        waits += 1;
        continue;
      }
      await this.#apply(next);
    }
    throw errors.unavailable('The credit ledger is too busy, try again');
  }

  /**
   * Logs and applies one entry, idempotently on `key`: a repeated key returns the first entry
   * (`created: false`) and changes nothing.
   * @throws LedgerRefusal when a figure would go below zero (nothing written).
   */
  async record(input: RecordInput): Promise<{ entry: LedgerEntryDoc; created: boolean }> {
    const delta = deltaFor(input.kind, input.amount);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const existing = await this.#entries.findOne({ key: input.key });
      if (existing) {
        if (existing.organizationId !== input.organizationId) throw errors.conflict(`Ledger key ${input.key} belongs to another organization`);
        await this.rollForward(input.organizationId);
        return { entry: existing, created: false };
      }
      const balance = (await this.rollForward(input.organizationId)) ?? (await this.open(input.organizationId));
      const current = toBalance(balance);
      const why = refusal(current, delta);
      if (why) {
        // The same key may have been logged and applied between our key lookup and the balance
        // read (that is what emptied the balance): answer with it rather than refuse.
        if (await this.#entries.findOne({ key: input.key })) continue;
        throw new LedgerRefusal(why, current, input.amount);
      }
      const entry: LedgerEntryDoc = {
        _id: newId('led_'),
        organizationId: input.organizationId,
        version: balance.version + 1,
        key: input.key,
        kind: input.kind,
        amount: input.amount,
        delta,
        reason: input.reason,
        ...(input.jobId ? { jobId: input.jobId } : {}),
        ...(input.orderId ? { orderId: input.orderId } : {}),
        ...(input.actorUserId ? { actorUserId: input.actorUserId } : {}),
        balanceAfter: applyDelta(current, delta),
        applied: false,
        createdAt: this.#clock.now().toISOString(),
      };
      try {
        await this.#entries.insertOne(entry);
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        // Someone took slot v+1 or this key first. Give the winner a moment to apply its entry
        // before looking again, so losers do not all pile onto the balance document at once.
        await backOff(attempt);
        continue;
      }
      await this.#apply(entry);
      return { entry, created: true };
    }
    throw errors.unavailable('The credit ledger is too busy, try again');
  }

  async findByKey(key: string): Promise<LedgerEntryDoc | null> {
    return this.#entries.findOne({ key });
  }

  async list(organizationId: string, page: { limit: number; offset: number }): Promise<{ entries: LedgerEntryDoc[]; total: number }> {
    const [entries, total] = await Promise.all([
      this.#entries.find({ organizationId }, { sort: { version: -1 }, skip: page.offset, limit: page.limit }),
      this.#entries.count({ organizationId }),
    ]);
    return { entries, total };
  }

  async sumByKind(organizationId: string, kind: LedgerEntryKind): Promise<{ count: number; amount: number }> {
    let count = 0;
    let amount = 0;
    for await (const entry of this.#entries.stream({ organizationId, kind })) {
      count += 1;
      amount += entry.amount;
    }
    return { count, amount };
  }

  /** Organizations with an entry still flagged unapplied since before `cutoff` (crash leftovers). */
  async organizationsWithUnapplied(cutoff: string): Promise<string[]> {
    const stale = await this.#entries.find({ applied: false, createdAt: { $lt: cutoff } }, { limit: 1000 });
    return [...new Set(stale.map((entry) => entry.organizationId))];
  }

  /** Moves the balance from version-1 to version; a no-op when another writer already did. */
  async #apply(entry: LedgerEntryDoc): Promise<void> {
    await this.#balances.updateOne(
      { _id: entry.organizationId, version: entry.version - 1 },
      { $inc: { ...entry.delta }, $set: { version: entry.version, updatedAt: this.#clock.now().toISOString() } },
    );
    await this.#entries.updateOne({ _id: entry._id, applied: false }, { $set: { applied: true } });
  }

  /**
   * Applies whatever is logged but unapplied and clears the lagging flags (a crash between the
   * two writes). @returns how many entries were flagged unapplied.
   */
  async markApplied(organizationId: string): Promise<number> {
    const flagged = await this.#entries.count({ organizationId, applied: false });
    const balance = await this.rollForward(organizationId);
    if (!balance) return 0;
    await this.#entries.updateMany({ organizationId, applied: false, version: { $lte: balance.version } }, { $set: { applied: true } });
    return flagged;
  }
}
