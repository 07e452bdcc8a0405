import { ManualClock } from '@crawl/modules';
import type { DocumentStore } from '@crawl/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerProblems } from '../../testing/billing-fixture.ts';
import { billingStores } from '../../testing/stores.ts';
import { CreditLedger, LedgerRefusal, type BalanceDoc, type LedgerEntryDoc } from './credit-ledger.ts';

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
      ledger = new CreditLedger(store, new ManualClock('2026-11-15T12:00:00Z'));
      await ledger.init();
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

    it('refuses an entry that would overdraw and writes nothing', async () => {
      await ledger.record({ organizationId: 'org_a', key: 'g', kind: 'admin_grant', amount: 10, reason: 'grant' });
      await expect(ledger.record({ organizationId: 'org_a', key: 'r', kind: 'reservation', amount: 11, reason: 'job', jobId: 'job_1' })).rejects.toBeInstanceOf(LedgerRefusal);
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
      const retried = await ledger.record({ organizationId: 'org_a', key: 'reserve:job_crash', kind: 'reservation', amount: 30, reason: 'job', jobId: 'job_crash' });
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
        Array.from({ length: stores.burst(20, 8) }, () => ledger.record({ organizationId: 'org_a', key: 'reserve:job_x', kind: 'reservation', amount: 10, reason: 'job', jobId: 'job_x' })),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entry._id)).size).toBe(1);
      expect(await ledger.balance('org_a')).toMatchObject({ available: 90, reserved: 10 });
      expect(await ledgerProblems(store)).toEqual([]);
    });
  });
}
