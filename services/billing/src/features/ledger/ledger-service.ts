import type { DailyCredits, FullBalance, LedgerEntryKind, TargetCharges } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { CreditMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/clock';
import { applyDelta, deltaFor, LedgerRefusal, refusal } from './balance.ts';
import { creditDays, monthRange } from './daily-credits.ts';
import { slotId, type AppendOutcome, type BalanceDoc, type LedgerEntryDoc, type LedgerRepository } from './ledger-repository.ts';
import { backOff, type BillingResources } from '../shared/index.ts';
import { toBalance } from './ledger-view.ts';

export { slotId, type BalanceDoc, type LedgerEntryDoc } from './ledger-repository.ts';

export interface RecordInput {
  organizationId: string;
  key: string;
  kind: LedgerEntryKind;
  amount: number;
  reason: string;
  jobId?: string;
  orderId?: string;
  actorUserId?: string;
  /** The reservation attempt a `reserve:` entry belongs to. */
  attempt?: string;
  /** Figures added to the balance's tallies with this entry (exactly once, like the balance). */
  tallies?: Record<string, number>;
  /** A settlement's entries: the job's targets charged and delivered without charge. */
  charges?: TargetCharges;
}

export interface Recorded {
  entry: LedgerEntryDoc;
  /** False when the key was recorded before: `entry` is that first entry, nothing was written. */
  created: boolean;
}

/** Each attempt that loses a race means another writer made progress; this only bounds pathological contention. */
const MAX_ATTEMPTS = 2_000;
/** How many short pauses a reader grants an entry's writer before applying the entry itself. */
const HELP_AFTER_WAITS = 3;

/**
 * The credit ledger: an append-only log per organization plus a balance document that is the log
 * folded up to a version. Writing is "log first, then apply":
 *
 * 1. read the balance at version v (after applying any entry already logged at v+1);
 * 2. check the entry against that exact state and insert it at version v+1 with `_id`
 *    `slotId(org, v+1)` (the slot claim) and its idempotency key (unique); a duplicate means the
 *    slot was taken (look again) or the key was (a repeat: answer the first entry);
 * 3. apply it: `balance.version == v` → `$inc` the figures and set version v+1.
 *
 * Only one entry can ever hold slot v+1, and the balance can only move from v to v+1 by applying
 * it, so an entry is applied exactly once and always to the state it was checked against. A
 * crash between 2 and 3 leaves the entry logged but unapplied; the next writer or reader of that
 * organization (or the reconciler) applies it first. No multi-document transaction is needed.
 *
 * The write path filters by `_id` only (the balance, the entry in slot v+1), because FerretDB v1
 * decodes the whole collection for any other filter. The key is looked up only when the insert or
 * the balance check says it may be a repeat. Entries written before slot ids have random `_id`s:
 * a crash leftover among them is found by `(organizationId, version)` when an insert collides
 * with it, when a repeat needs it applied, or by the reconciler.
 */
export class CreditLedger {
  readonly #repository: LedgerRepository;
  readonly #clock: Clock;
  /** Pauses a writer grants a racing writer before helping it (see `rollForward`). */
  readonly #helpAfterWaits: number;
  readonly #metrics: CreditMetrics;

  /**
   * On the embedded store every write is one synchronous statement, so the writer of a logged
   * entry applies it within the same few microseconds: pausing for it only adds latency, and a
   * helper's apply costs no more than a read. Pausing pays off where writes are round trips that
   * contend (MongoDB, and FerretDB's locks).
   */
  constructor(resources: BillingResources, options: { repository: LedgerRepository }) {
    this.#metrics = resources.metrics;
    this.#helpAfterWaits = resources.store.kind === 'embedded' ? 0 : HELP_AFTER_WAITS;
    this.#repository = options.repository;
    this.#clock = resources.clock;
  }

  /** Creates the empty balance (version 0) if missing; safe to race. */
  async open(organizationId: string): Promise<BalanceDoc> {
    return this.#repository.openBalance(organizationId, this.#now());
  }

  async exists(organizationId: string): Promise<boolean> {
    return (await this.#repository.findBalance(organizationId)) !== null;
  }

  /** The balance with every logged entry applied; zeros for an organization never seen. */
  async balance(organizationId: string): Promise<FullBalance> {
    return toBalance(await this.rollForward(organizationId));
  }

  /**
   * Applies logged-but-unapplied entries in order; returns the balance at the log's tip. Each
   * round is two lookups by `_id` (the balance, the entry in the next slot): no history is read.
   * An unapplied entry written before slot ids is not seen here (see `#rollForwardPastLegacy`).
   */
  async rollForward(organizationId: string): Promise<BalanceDoc | null> {
    let pending = 0;
    let waits = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const balance = await this.#repository.findBalance(organizationId);
      if (!balance) return null;
      const next = await this.#repository.findEntry(slotId(organizationId, balance.version + 1));
      if (!next) return balance;
      // Usually its writer is applying it right now: give it a few short pauses before helping,
      // so concurrent writers do not all contend for the balance document. After a crash, the
      // entry is applied here after those pauses.
      if (next.version !== pending) {
        pending = next.version;
        waits = 0;
      }
      if (waits < this.#helpAfterWaits) {
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
  async record(input: RecordInput): Promise<Recorded> {
    const recorded = await this.#record(input);
    // Counted once per entry: a repeated key changes nothing and counts nothing.
    if (recorded.created) this.#count(input.kind, input.amount);
    return recorded;
  }

  #count(kind: LedgerEntryKind, amount: number): void {
    if (kind === 'reservation') this.#metrics.creditsReserved(amount);
    else if (kind === 'capture') this.#metrics.creditsCaptured(amount);
    else if (kind === 'release') this.#metrics.creditsRefunded(amount);
  }

  async #record(input: RecordInput): Promise<Recorded> {
    const delta = deltaFor(input.kind, input.amount);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const balance = (await this.rollForward(input.organizationId)) ?? (await this.open(input.organizationId));
      const current = toBalance(balance);
      const why = refusal(current, delta);
      if (why) {
        // A repeat of an entry already applied may be what emptied the balance: answer with it
        // rather than refuse (a lookup by key, so only on refusals).
        const existing = await this.#repository.findEntryByKey(input.key);
        if (existing) return this.#repeat(existing, input);
        throw new LedgerRefusal(why, current, input.amount);
      }
      const version = balance.version + 1;
      const entry: LedgerEntryDoc = {
        _id: slotId(input.organizationId, version),
        organizationId: input.organizationId,
        version,
        key: input.key,
        kind: input.kind,
        amount: input.amount,
        delta,
        ...(input.tallies ? { tallies: input.tallies } : {}),
        reason: input.reason,
        ...(input.jobId ? { jobId: input.jobId } : {}),
        ...(input.orderId ? { orderId: input.orderId } : {}),
        ...(input.actorUserId ? { actorUserId: input.actorUserId } : {}),
        ...(input.attempt ? { attempt: input.attempt } : {}),
        ...(input.charges ? { charges: input.charges } : {}),
        balanceAfter: applyDelta(current, delta),
        applied: false,
        createdAt: this.#now(),
      };
      const outcome = await this.#repository.appendEntry(entry);
      if (outcome === 'appended') {
        await this.#apply(entry);
        return { entry, created: true };
      }
      const settled = await this.#afterCollision(entry, outcome, input);
      if (settled === 'look_again') continue;
      if (settled) return settled;
      // Someone took slot v+1 first. Give the winner a moment to apply its entry before looking
      // again, so losers do not all pile onto the balance document at once.
      if (this.#helpAfterWaits > 0) await backOff(attempt);
    }
    throw errors.unavailable('The credit ledger is too busy, try again');
  }

  /**
   * The insert of `entry` collided: with the entry holding its slot id (another writer won the
   * slot, or the same key raced itself), with its key (a repeat), or with an entry written before
   * slot ids holding the slot (a crash leftover: apply it). The slot is read by `_id` first; the
   * key and the `(organizationId, version)` lookups, scans on FerretDB, only run when that finds
   * nothing, narrowed by the index the server named (FerretDB v1 names none).
   * @returns the answer to a repeat, `look_again` to retry at once, or null to back off and retry.
   */
  async #afterCollision(entry: LedgerEntryDoc, outcome: Exclude<AppendOutcome, 'appended'>, input: RecordInput): Promise<Recorded | 'look_again' | null> {
    const holder = await this.#repository.findEntry(entry._id);
    if (holder) return holder.key === entry.key ? this.#repeat(holder, input) : null;
    // Entries are never removed, so whatever holds the slot's id would be found: it was not that.
    if (outcome === 'id_taken') return null;
    if (outcome !== 'slot_taken') {
      const existing = await this.#repository.findEntryByKey(entry.key);
      if (existing) return this.#repeat(existing, input);
    }
    if (outcome !== 'key_taken') {
      const legacy = await this.#repository.findEntryAt(entry.organizationId, entry.version);
      if (legacy) {
        if (legacy.key === entry.key) return this.#repeat(legacy, input);
        await this.#apply(legacy);
        return 'look_again';
      }
    }
    return null;
  }

  /** Answers a repeated key with its first entry, once that entry is applied. */
  async #repeat(existing: LedgerEntryDoc, input: RecordInput): Promise<Recorded> {
    if (existing.organizationId !== input.organizationId) throw errors.conflict(`Ledger key ${input.key} belongs to another organization`);
    await this.#rollForwardPastLegacy(input.organizationId, existing);
    return { entry: existing, created: false };
  }

  /**
   * `rollForward`, then also applies entries written before slot ids (random `_id`s, found by
   * `(organizationId, version)`: a scan on FerretDB), which `rollForward` cannot see. Only a crash
   * leftover of the old code (or of an old instance during a rollout) can be one, at the tip.
   * With `until`, stops once that entry is applied (no scan when `rollForward` got there);
   * without, once no entry follows the balance. For repeats and the reconciler, not the hot path.
   */
  async #rollForwardPastLegacy(organizationId: string, until?: LedgerEntryDoc): Promise<BalanceDoc | null> {
    for (let round = 0; round < MAX_ATTEMPTS; round += 1) {
      const balance = await this.rollForward(organizationId);
      if (!balance || (until && balance.version >= until.version)) return balance;
      const version = balance.version + 1;
      const next = until?.version === version ? until : await this.#repository.findEntryAt(organizationId, version);
      if (!next) return balance;
      await this.#apply(next);
    }
    throw errors.unavailable('The credit ledger is too busy, try again');
  }

  async findByKey(key: string): Promise<LedgerEntryDoc | null> {
    return this.#repository.findEntryByKey(key);
  }

  /**
   * One page of the organization's entries, newest first. The total is the tip's version (the
   * sequence is gapless from 1), and the page is one index range: no count, no skip.
   */
  /** Credits spent and added per UTC day of `month` (`YYYY-MM`), counting applied entries only. */
  async daysOf(organizationId: string, month: string): Promise<DailyCredits> {
    const applied = (await this.rollForward(organizationId))?.version ?? 0;
    const { from, to } = monthRange(month);
    const entries = await this.#repository.entriesCreatedBetween(organizationId, from, to);
    return creditDays(
      month,
      entries.filter((entry) => entry.version <= applied),
    );
  }

  async list(organizationId: string, page: { limit: number; offset: number }): Promise<{ entries: LedgerEntryDoc[]; total: number }> {
    const total = (await this.rollForward(organizationId))?.version ?? 0;
    const entries = await this.#repository.entriesDownFrom(organizationId, total - page.offset, page.limit);
    return { entries, total };
  }

  /** Organizations with an entry still flagged unapplied since before `cutoff` (crash leftovers). */
  async organizationsWithUnapplied(cutoff: string): Promise<string[]> {
    const stale = await this.#repository.staleUnapplied(cutoff, 1000);
    return [...new Set(stale.map((entry) => entry.organizationId))];
  }

  /** Moves the balance from version-1 to version; a no-op when another writer already did. */
  async #apply(entry: LedgerEntryDoc): Promise<void> {
    await this.#repository.applyEntry(entry, this.#now());
    await this.#repository.flagApplied(entry._id);
  }

  /**
   * Applies whatever is logged but unapplied and clears the lagging flags (a crash between the
   * two writes). @returns how many entries were flagged unapplied.
   */
  async markApplied(organizationId: string): Promise<number> {
    const flagged = await this.#repository.countUnflagged(organizationId);
    const balance = await this.#rollForwardPastLegacy(organizationId);
    if (!balance) return 0;
    await this.#repository.flagAppliedUpTo(organizationId, balance.version);
    return flagged;
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}
