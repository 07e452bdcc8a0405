import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { deltaFor } from './balance.ts';
import { LedgerRepository, slotId, type LedgerEntryDoc } from './ledger-repository.ts';

const NOW = '2026-11-15T12:00:00.000Z';

function entry(version: number, key: string, extra: Partial<LedgerEntryDoc> = {}): LedgerEntryDoc {
  return {
    _id: `led_${key}`,
    organizationId: 'org_a',
    version,
    key,
    kind: 'admin_grant',
    amount: 10,
    delta: deltaFor('admin_grant', 10),
    reason: 'grant',
    balanceAfter: { available: 10 * version, reserved: 0, spent: 0, granted: 10 * version },
    applied: false,
    createdAt: NOW,
    ...extra,
  };
}

describeOnEachStore('LedgerRepository', (open, backend) => {
  let repo: LedgerRepository;

  beforeEach(async () => {
    repo = new LedgerRepository(await open());
    await repo.init();
  });

  it('opens a balance once at version 0, also when opens race', async () => {
    const opened = await Promise.all(Array.from({ length: 5 }, () => repo.openBalance('org_a', NOW)));
    expect(opened.every((b) => b.version === 0 && b.available === 0)).toBe(true);
    expect(await repo.findBalance('org_a')).toMatchObject({ version: 0, available: 0, reserved: 0, spent: 0, granted: 0 });
    expect(await repo.findBalance('org_b')).toBeNull();
  });

  it('appends an entry once per slot and once per key', async () => {
    expect(await repo.appendEntry(entry(1, 'g1'))).toBe('appended');
    expect(await repo.appendEntry(entry(1, 'g2'))).not.toBe('appended');
    expect(await repo.appendEntry({ ...entry(2, 'g1'), _id: 'led_other' })).not.toBe('appended');
    const racing = await Promise.all(['x', 'y', 'z'].map((key) => repo.appendEntry(entry(2, key))));
    expect(racing.filter((outcome) => outcome === 'appended')).toHaveLength(1);
    expect(await repo.findEntryAt('org_a', 1)).toMatchObject({ key: 'g1' });
    expect(await repo.findEntryByKey('g2')).toBeNull();
  });

  it('claims a slot by its id and says which index refused an insert, where the server names it', async () => {
    const slotted = (version: number, key: string): LedgerEntryDoc => ({ ...entry(version, key), _id: slotId('org_a', version) });
    expect(await repo.appendEntry(slotted(1, 'g1'))).toBe('appended');
    expect(await repo.findEntry('led_org_a_1')).toMatchObject({ version: 1, key: 'g1' });
    expect(await repo.findEntry('led_org_a_2')).toBeNull();
    const refused = [
      await repo.appendEntry(slotted(1, 'g2')), // the slot's id (and the slot)
      await repo.appendEntry(slotted(2, 'g1')), // the key only
      await repo.appendEntry({ ...entry(1, 'g3'), _id: 'led_random' }), // the slot only (an id from before slot ids)
    ];
    // FerretDB v1 names no index in a duplicate key error; MongoDB and the embedded store do.
    if (backend === 'embedded') expect(refused.slice(1)).toEqual(['key_taken', 'slot_taken']);
    for (const outcome of refused) expect(['id_taken', 'slot_taken', 'key_taken', 'taken']).toContain(outcome);
    expect(await repo.findEntry('led_random')).toBeNull();
  });

  it('applies an entry only to the version before it, so applying twice changes nothing', async () => {
    await repo.openBalance('org_a', NOW);
    const first = entry(1, 'g1', { tallies: { referralRewards_ABCD2345: 1, referralCredits_ABCD2345: 10 } });
    await repo.appendEntry(first);
    expect(await repo.applyEntry(entry(2, 'early'), NOW)).toBe(false);
    const applied = await Promise.all([repo.applyEntry(first, NOW), repo.applyEntry(first, NOW)]);
    expect(applied.filter(Boolean)).toHaveLength(1);
    expect(await repo.findBalance('org_a')).toMatchObject({
      version: 1,
      available: 10,
      granted: 10,
      tallies: { referralRewards_ABCD2345: 1, referralCredits_ABCD2345: 10 },
    });
  });

  it('refuses tally names that are not plain field names', async () => {
    await expect(repo.appendEntry(entry(1, 'bad', { tallies: { 'a.b': 1 } }))).rejects.toThrow(/tally/);
    await expect(repo.appendEntry(entry(1, 'bad', { tallies: { '1234': 1 } }))).rejects.toThrow(/tally/);
  });

  it('pages newest first by version range, whatever the offset', async () => {
    for (let v = 1; v <= 7; v += 1) await repo.appendEntry(entry(v, `g${v}`));
    await repo.appendEntry({ ...entry(1, 'other_org'), organizationId: 'org_b' });
    expect((await repo.entriesDownFrom('org_a', 7, 3)).map((e) => e.version)).toEqual([7, 6, 5]);
    expect((await repo.entriesDownFrom('org_a', 2, 3)).map((e) => e.version)).toEqual([2, 1]);
    expect(await repo.entriesDownFrom('org_a', 0, 3)).toEqual([]);
    expect(await repo.entriesDownFrom('org_a', 5, 0)).toEqual([]);
  });

  it('tracks which entries are still flagged unapplied, for the reconciler', async () => {
    await repo.appendEntry(entry(1, 'g1', { createdAt: '2026-11-15T11:00:00.000Z' }));
    await repo.appendEntry(entry(2, 'g2'));
    await repo.appendEntry(entry(3, 'g3'));
    expect((await repo.staleUnapplied('2026-11-15T11:30:00.000Z', 10)).map((e) => e.key)).toEqual(['g1']);
    await repo.flagApplied('led_g1');
    expect(await repo.countUnflagged('org_a')).toBe(2);
    expect(await repo.flagAppliedUpTo('org_a', 2)).toBe(1);
    expect(await repo.countUnflagged('org_a')).toBe(1);
    expect(await repo.staleUnapplied('2026-11-15T11:30:00.000Z', 10)).toEqual([]);
  });
});
