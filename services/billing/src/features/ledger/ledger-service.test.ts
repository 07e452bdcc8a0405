import { ManualClock } from '@crawl/clock';
import type { Collection, Document, DocumentStore, Filter } from '@crawl/storage';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerProblems, testResources } from '../../testing/billing-fixture.ts';
import { billingStores } from '../../testing/stores.ts';
import { deltaFor } from './balance.ts';
import { monthCharges } from './daily-credits.ts';
import { LedgerRefusal } from './balance.ts';
import { LedgerRepository } from './ledger-repository.ts';
import { CreditLedger, slotId, type BalanceDoc, type LedgerEntryDoc } from './ledger-service.ts';
import { toLedgerView } from './ledger-view.ts';

/** A ledger over `store`, its indexes declared. */
async function ledgerOver(store: DocumentStore, clock = new ManualClock('2026-11-15T12:00:00Z')): Promise<CreditLedger> {
  const repository = new LedgerRepository(store);
  await repository.init();
  return new CreditLedger(testResources(store, clock), { repository });
}

for (const stores of billingStores()) {
  describe(`CreditLedger (${stores.label})`, () => {
    let store: DocumentStore;
    let ledger: CreditLedger;

    afterEach(async () => {
      const droppable = store as DocumentStore & { dropDatabase?: () => Promise<void> };
      if (droppable.dropDatabase) await droppable.dropDatabase();
      await store.close();
    });

    beforeEach(async () => {
      store = stores.make();
      ledger = await ledgerOver(store);
    });

    it('records each key once: a repeated key changes nothing and returns the first entry', async () => {
      const first = await ledger.record({ organizationId: 'org_a', key: 'signup:org_a', kind: 'signup_bonus', amount: 1000, reason: 'Signup bonus' });
      const again = await ledger.record({ organizationId: 'org_a', key: 'signup:org_a', kind: 'signup_bonus', amount: 1000, reason: 'Signup bonus' });
      expect(first.created).toBe(true);
      expect(again.created).toBe(false);
      expect(again.entry._id).toBe(first.entry._id);
      expect(await ledger.balance('org_a')).toEqual({ available: 1000, reserved: 0, spent: 0, granted: 1000 });
      expect(await ledger.list('org_a', { limit: 10, offset: 0 })).toMatchObject({ total: 1 });
    });

    it("adds up credits spent and added per UTC day of a month, from that month's entries only", async () => {
      const clock = new ManualClock('2026-10-31T23:59:00Z');
      const daily = await ledgerOver(store, clock);
      await daily.record({ organizationId: 'org_d', key: 'g0', kind: 'admin_grant', amount: 500, reason: 'grant' });
      clock.set('2026-11-01T00:00:01Z');
      await daily.record({ organizationId: 'org_d', key: 'r1', kind: 'reservation', amount: 40, reason: 'job', jobId: 'job_1' });
      // A settlement's counts are on both its entries; they count once, with the capture.
      const settled = { chargedTargets: 5, unchargedTargets: 2 };
      await daily.record({ organizationId: 'org_d', key: 'c1', kind: 'capture', amount: 25, reason: 'settle', jobId: 'job_1', charges: settled });
      await daily.record({ organizationId: 'org_d', key: 'x1', kind: 'release', amount: 15, reason: 'settle', jobId: 'job_1', charges: settled });
      clock.set('2026-11-03T12:00:00Z');
      await daily.record({ organizationId: 'org_d', key: 'p1', kind: 'purchase', amount: 100, reason: 'package' });
      await daily.record({ organizationId: 'org_d', key: 'v1', kind: 'admin_revoke', amount: 30, reason: 'revoke' });
      await daily.record({ organizationId: 'org_x', key: 'gx', kind: 'admin_grant', amount: 7, reason: 'another organization' });
      // Nothing charged: no capture, the release carries the count.
      await daily.record({ organizationId: 'org_d', key: 'r2', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_2' });
      const nothingCharged = { chargedTargets: 0, unchargedTargets: 1 };
      await daily.record({ organizationId: 'org_d', key: 'x2', kind: 'release', amount: 10, reason: 'settle', jobId: 'job_2', charges: nothingCharged });
      // A release that is no settlement (a job never stored) counts no target.
      await daily.record({ organizationId: 'org_d', key: 'r3', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_3' });
      await daily.record({ organizationId: 'org_d', key: 'x3', kind: 'release', amount: 10, reason: 'undone', jobId: 'job_3' });
      // A settlement whose release falls in the next month counts in the month of its capture only.
      clock.set('2026-11-30T23:59:59Z');
      await daily.record({ organizationId: 'org_d', key: 'r4', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_4' });
      const straddling = { chargedTargets: 1, unchargedTargets: 1 };
      await daily.record({ organizationId: 'org_d', key: 'c4', kind: 'capture', amount: 5, reason: 'settle', jobId: 'job_4', charges: straddling });
      clock.set('2026-12-01T00:00:00Z');
      await daily.record({ organizationId: 'org_d', key: 'x4', kind: 'release', amount: 5, reason: 'settle', jobId: 'job_4', charges: straddling });

      const november = await daily.daysOf('org_d', '2026-11');
      expect(november.days).toHaveLength(30);
      expect(november.days[0]).toEqual({ date: '2026-11-01', spent: 25, added: 0, chargedTargets: 5, unchargedTargets: 2 });
      expect(november.days[2]).toEqual({ date: '2026-11-03', spent: 0, added: 70, chargedTargets: 0, unchargedTargets: 1 });
      expect(november.days[29]).toEqual({ date: '2026-11-30', spent: 5, added: 0, chargedTargets: 1, unchargedTargets: 1 });
      expect(november.days.filter((day) => day.spent !== 0 || day.added !== 0 || day.chargedTargets !== 0 || day.unchargedTargets !== 0)).toHaveLength(3);
      expect(monthCharges(november)).toEqual({ chargedTargets: 6, unchargedTargets: 4 });
      expect(monthCharges(await daily.daysOf('org_d', '2026-12'))).toEqual({ chargedTargets: 0, unchargedTargets: 0 });
      // Both entries show the settlement's counts to an admin; other entries none.
      expect(toLedgerView((await daily.findByKey('x1'))!).charges).toEqual(settled);
      expect(toLedgerView((await daily.findByKey('c1'))!).charges).toEqual(settled);
      expect(toLedgerView((await daily.findByKey('x3'))!)).not.toHaveProperty('charges');
      expect((await daily.daysOf('org_d', '2026-10')).days[30]).toEqual({ date: '2026-10-31', spent: 0, added: 500, chargedTargets: 0, unchargedTargets: 0 });
    });

    it('refuses an entry that would overdraw and writes nothing', async () => {
      await ledger.record({ organizationId: 'org_a', key: 'g', kind: 'admin_grant', amount: 10, reason: 'grant' });
      await expect(ledger.record({ organizationId: 'org_a', key: 'r', kind: 'reservation', amount: 11, reason: 'job', jobId: 'job_1' })).rejects.toBeInstanceOf(
        LedgerRefusal,
      );
      expect(await ledger.findByKey('r')).toBeNull();
      expect(await ledger.balance('org_a')).toEqual({ available: 10, reserved: 0, spent: 0, granted: 10 });
    });

    it('keeps a gapless sequence with the balance after each entry', async () => {
      await ledger.record({ organizationId: 'org_a', key: 'g', kind: 'admin_grant', amount: 100, reason: 'grant' });
      await ledger.record({ organizationId: 'org_a', key: 'r', kind: 'reservation', amount: 40, reason: 'job', jobId: 'job_1' });
      await ledger.record({ organizationId: 'org_a', key: 'c', kind: 'capture', amount: 25, reason: 'settle', jobId: 'job_1' });
      const { entries } = await ledger.list('org_a', { limit: 10, offset: 0 });
      expect(entries.map((e) => e.version)).toEqual([3, 2, 1]);
      expect(entries[0]?.balanceAfter).toEqual({ available: 60, reserved: 15, spent: 25, granted: 100 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('lists pages newest first, the total being the tip of the sequence (also with an entry not yet applied)', async () => {
      for (let i = 1; i <= 5; i += 1) await ledger.record({ organizationId: 'org_a', key: `g${i}`, kind: 'admin_grant', amount: i, reason: 'grant' });
      expect(await ledger.list('org_a', { limit: 2, offset: 0 })).toMatchObject({ total: 5, entries: [{ version: 5 }, { version: 4 }] });
      expect((await ledger.list('org_a', { limit: 2, offset: 3 })).entries.map((e) => e.version)).toEqual([2, 1]);
      expect((await ledger.list('org_a', { limit: 2, offset: 5 })).entries).toEqual([]);
      expect(await ledger.list('org_nobody', { limit: 2, offset: 0 })).toEqual({ entries: [], total: 0 });
      await store.collection<LedgerEntryDoc>('ledger').insertOne({
        _id: slotId('org_a', 6),
        organizationId: 'org_a',
        version: 6,
        key: 'g6',
        kind: 'admin_grant',
        amount: 6,
        delta: { available: 6, reserved: 0, spent: 0, granted: 6 },
        reason: 'grant',
        balanceAfter: { available: 21, reserved: 0, spent: 0, granted: 21 },
        applied: false,
        createdAt: '2026-11-15T12:00:00.000Z',
      });
      expect(await ledger.list('org_a', { limit: 1, offset: 0 })).toMatchObject({ total: 6, entries: [{ version: 6 }] });
      expect(await ledger.balance('org_a')).toMatchObject({ available: 21 });
    });

    it('applies an entry logged before a crash exactly once, on the next write or read', async () => {
      await ledger.record({ organizationId: 'org_a', key: 'g', kind: 'admin_grant', amount: 100, reason: 'grant' });
      // Simulate a crash after step 2 (entry logged) and before step 3 (balance updated).
      const orphan: LedgerEntryDoc = {
        _id: 'led_orphan',
        organizationId: 'org_a',
        version: 2,
        key: 'reserve:job_crash',
        kind: 'reservation',
        amount: 30,
        delta: { available: -30, reserved: 30, spent: 0, granted: 0 },
        reason: 'job',
        jobId: 'job_crash',
        balanceAfter: { available: 70, reserved: 30, spent: 0, granted: 100 },
        applied: false,
        createdAt: '2026-11-15T12:00:00.000Z',
      };
      await store.collection<LedgerEntryDoc>('ledger').insertOne(orphan);
      expect((await store.collection<BalanceDoc>('balances').findOne({ _id: 'org_a' }))?.available).toBe(100);

      // The retried request finds its key and makes sure it is applied; nothing is applied twice.
      const retried = await ledger.record({
        organizationId: 'org_a',
        key: 'reserve:job_crash',
        kind: 'reservation',
        amount: 30,
        reason: 'job',
        jobId: 'job_crash',
      });
      expect(retried.created).toBe(false);
      await ledger.record({ organizationId: 'org_a', key: 'g2', kind: 'admin_grant', amount: 5, reason: 'grant' });
      expect(await ledger.balance('org_a')).toEqual({ available: 75, reserved: 30, spent: 0, granted: 105 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('never overdraws when many entries race for the last credits', async () => {
      await ledger.record({ organizationId: 'org_a', key: 'g', kind: 'admin_grant', amount: 100, reason: 'grant' });
      const attempts = Array.from({ length: stores.burst(60, 20) }, (_, i) =>
        ledger.record({ organizationId: 'org_a', key: `reserve:job_${i}`, kind: 'reservation', amount: 7, reason: 'job', jobId: `job_${i}` }).then(
          () => 'ok' as const,
          (error: unknown) => (error instanceof LedgerRefusal ? ('refused' as const) : Promise.reject(error)),
        ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(14);
      expect(await ledger.balance('org_a')).toEqual({ available: 2, reserved: 98, spent: 0, granted: 100 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('records a racing duplicate key once', async () => {
      await ledger.record({ organizationId: 'org_a', key: 'g', kind: 'admin_grant', amount: 100, reason: 'grant' });
      const results = await Promise.all(
        Array.from({ length: stores.burst(20, 8) }, () =>
          ledger.record({ organizationId: 'org_a', key: 'reserve:job_x', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_x' }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entry._id)).size).toBe(1);
      expect(await ledger.balance('org_a')).toMatchObject({ available: 90, reserved: 10 });
      expect(await ledgerProblems(store)).toEqual([]);
    });
  });
}

/** What a store was asked: every filter (reads, updates, deletes), and every write that stored something. */
interface Traffic {
  filters: Array<{ collection: string; method: string; filter: Filter }>;
  writes: Array<{ collection: string; method: string }>;
}

/** Wraps a store to record its traffic (a write counts when it stored or changed something). */
function watched(store: DocumentStore): { store: DocumentStore; traffic: Traffic } {
  const traffic: Traffic = { filters: [], writes: [] };
  const filtered = new Set(['findOne', 'find', 'count', 'stream', 'streamBatches', 'streamJson', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany']);
  const writes = new Set(['insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany']);
  const wrap = <T extends Document>(collection: Collection<T>): Collection<T> =>
    new Proxy(collection, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          if (filtered.has(property)) traffic.filters.push({ collection: target.name, method: property, filter: args[0] as Filter });
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (writes.has(property)) {
            void (result as Promise<unknown>).then(
              (done) => {
                if (done !== null && done !== false && done !== 0) traffic.writes.push({ collection: target.name, method: property });
              },
              () => undefined,
            );
          }
          return result;
        };
      },
    });
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'collection') return <T extends Document>(name: string) => wrap(target.collection<T>(name));
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, traffic };
}

/** An entry as the ledger wrote it before slot ids: a random `_id`. */
function legacyEntry(organizationId: string, version: number, key: string, amount: number, balanceAfter: LedgerEntryDoc['balanceAfter']): LedgerEntryDoc {
  return {
    _id: `led_${Math.random().toString(36).slice(2, 12)}`,
    organizationId,
    version,
    key,
    kind: 'admin_grant',
    amount,
    delta: deltaFor('admin_grant', amount),
    reason: 'grant',
    balanceAfter,
    applied: false,
    createdAt: '2026-11-15T11:00:00.000Z',
  };
}

describeOnEachStore('CreditLedger slot ids', (open, backend) => {
  let store: DocumentStore;
  let traffic: Traffic;
  let ledger: CreditLedger;

  beforeEach(async () => {
    ({ store, traffic } = watched(await open()));
    ledger = await ledgerOver(store);
  });

  const grant = (organizationId: string, key: string, amount: number) => ledger.record({ organizationId, key, kind: 'admin_grant', amount, reason: 'grant' });
  /**
   * The filters since `from` that FerretDB v1 would evaluate on every document: on the ledger,
   * anything but `_id` alone; on balances (one per organization), anything without `_id`.
   */
  const scans = (from: number) =>
    traffic.filters.slice(from).filter(({ collection, filter }) => {
      if (collection === 'ledger') return Object.keys(filter).join() !== '_id' || typeof filter._id !== 'string';
      return collection === 'balances' && typeof filter._id !== 'string';
    });

  it('gives each entry the id of its slot and records with lookups by _id only', async () => {
    expect(slotId('org_a', 3)).toBe('led_org_a_3');
    await grant('org_a', 'g1', 10);
    const from = traffic.filters.length;
    const second = await grant('org_a', 'g2', 5);
    const third = await ledger.record({ organizationId: 'org_a', key: 'r', kind: 'reservation', amount: 12, reason: 'job', jobId: 'job_1' });
    expect(await ledger.balance('org_a')).toMatchObject({ available: 3 });
    expect(scans(from)).toEqual([]);
    expect(traffic.filters.slice(from).filter(({ collection }) => collection === 'ledger').length).toBeGreaterThan(0);
    expect([second.entry._id, third.entry._id]).toEqual(['led_org_a_2', 'led_org_a_3']);
    // Organizations whose ids differ only around an underscore never share a slot id.
    await grant('org_a_1', 'other', 1);
    const { entries } = await ledger.list('org_a', { limit: 10, offset: 0 });
    expect(entries.map((entry) => toLedgerView(entry).id)).toEqual(['led_org_a_3', 'led_org_a_2', 'led_org_a_1']);
    expect((await ledger.list('org_a_1', { limit: 10, offset: 0 })).entries.map((entry) => entry._id)).toEqual(['led_org_a_1_1']);
    expect(await ledger.balance('org_a')).toEqual({ available: 3, reserved: 12, spent: 0, granted: 15 });
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('answers a repeated key with the first entry without a second write', async () => {
    const first = await grant('org_a', 'g1', 10);
    await grant('org_a', 'g2', 5);
    const writes = traffic.writes.length;
    const again = await grant('org_a', 'g1', 10);
    expect(again).toMatchObject({ created: false, entry: { _id: first.entry._id, key: 'g1', version: 1 } });
    // A repeat may be of another amount or kind: the first entry is the answer, whatever it was.
    expect(await ledger.record({ organizationId: 'org_a', key: 'g2', kind: 'admin_revoke', amount: 1, reason: 'no' })).toMatchObject({
      created: false,
      entry: { key: 'g2', version: 2 },
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(traffic.writes.slice(writes)).toEqual([]);
    expect(await ledger.list('org_a', { limit: 10, offset: 0 })).toMatchObject({ total: 2 });
    await expect(grant('org_b', 'g1', 10)).rejects.toMatchObject({ statusCode: 409 });
    expect(await ledger.balance('org_a')).toEqual({ available: 15, reserved: 0, spent: 0, granted: 15 });
  });

  it('answers a refused repeat with the existing entry, and refuses a new key', async () => {
    await grant('org_a', 'g', 10);
    const held = await ledger.record({ organizationId: 'org_a', key: 'reserve:job_1', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_1' });
    const writes = traffic.writes.length;
    // Nothing is left to reserve: the repeat would be refused, but its key is there.
    const again = await ledger.record({ organizationId: 'org_a', key: 'reserve:job_1', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_1' });
    expect(again).toMatchObject({ created: false, entry: { _id: held.entry._id, version: 2 } });
    await expect(
      ledger.record({ organizationId: 'org_a', key: 'reserve:job_2', kind: 'reservation', amount: 1, reason: 'job', jobId: 'job_2' }),
    ).rejects.toBeInstanceOf(LedgerRefusal);
    await expect(
      ledger.record({ organizationId: 'org_b', key: 'reserve:job_1', kind: 'reservation', amount: 1, reason: 'job', jobId: 'job_1' }),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect(traffic.writes.slice(writes).filter((write) => write.collection === 'ledger')).toEqual([]);
    expect(await ledger.findByKey('reserve:job_2')).toBeNull();
    expect(await ledger.balance('org_a')).toEqual({ available: 0, reserved: 10, spent: 0, granted: 10 });
  });

  it('applies a crash leftover written before slot ids once, on the next write or by the reconciler', async () => {
    const ledgerEntries = store.collection<LedgerEntryDoc>('ledger');
    await grant('org_a', 'g1', 100);
    await ledgerEntries.insertOne(legacyEntry('org_a', 2, 'g_old', 30, { available: 130, reserved: 0, spent: 0, granted: 130 }));
    const next = await grant('org_a', 'g3', 5);
    expect(next).toMatchObject({ created: true, entry: { _id: 'led_org_a_3', version: 3, balanceAfter: { available: 135 } } });
    expect(await ledger.balance('org_a')).toEqual({ available: 135, reserved: 0, spent: 0, granted: 135 });
    expect(await ledgerEntries.count({ applied: false })).toBe(0);

    // A repeat of the leftover's own key applies it and answers it.
    await grant('org_b', 'g1_b', 100);
    const leftover = legacyEntry('org_b', 2, 'g_old_b', 20, { available: 120, reserved: 0, spent: 0, granted: 120 });
    await ledgerEntries.insertOne(leftover);
    expect(await grant('org_b', 'g_old_b', 20)).toMatchObject({ created: false, entry: { _id: leftover._id } });
    expect(await ledger.balance('org_b')).toMatchObject({ available: 120 });

    // The reconciler applies one that nothing else touched.
    await grant('org_c', 'g1_c', 100);
    await ledgerEntries.insertOne(legacyEntry('org_c', 2, 'g_old_c', 7, { available: 107, reserved: 0, spent: 0, granted: 107 }));
    expect(await ledger.organizationsWithUnapplied('2026-11-15T12:00:00.000Z')).toEqual(['org_c']);
    expect(await ledger.markApplied('org_c')).toBe(1);
    expect(await ledger.balance('org_c')).toMatchObject({ available: 107, granted: 107 });
    expect(await ledger.markApplied('org_c')).toBe(0);
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('keeps versions gapless and every key once when records race on one organization (also past a legacy leftover)', async () => {
    const keys = backend === 'embedded' ? 24 : 8;
    await grant('org_a', 'g', 1000);
    await store.collection<LedgerEntryDoc>('ledger').insertOne(legacyEntry('org_a', 2, 'g_old', 10, { available: 1010, reserved: 0, spent: 0, granted: 1010 }));
    // Each key is sent twice at once, as a client retrying a slow request would.
    const results = await Promise.all(
      Array.from({ length: keys * 2 }, (_, i) =>
        ledger.record({ organizationId: 'org_a', key: `reserve:job_${i % keys}`, kind: 'reservation', amount: 3, reason: 'job', jobId: `job_${i % keys}` }),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(keys);
    for (let k = 0; k < keys; k += 1) {
      const answers = results.filter((result) => result.entry.key === `reserve:job_${k}`);
      expect(new Set(answers.map((result) => result.entry._id)).size).toBe(1);
    }
    const { entries, total } = await ledger.list('org_a', { limit: 100, offset: 0 });
    expect(total).toBe(keys + 2);
    expect(entries.map((entry) => entry.version)).toEqual(Array.from({ length: keys + 2 }, (_, i) => keys + 2 - i));
    expect(new Set(entries.map((entry) => entry.key)).size).toBe(keys + 2);
    expect(entries.filter((entry) => entry.version !== 2).every((entry) => entry._id === slotId('org_a', entry.version))).toBe(true);
    expect(await ledger.balance('org_a')).toEqual({ available: 1010 - 3 * keys, reserved: 3 * keys, spent: 0, granted: 1010 });
    expect(await ledgerProblems(store)).toEqual([]);
  });
});
