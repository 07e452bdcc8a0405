import type { ObservedSubject, TrackedValue } from '@crawl/contracts';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';
import { beforeEach, expect, it } from 'vitest';
import { keywordScopeOf, subjectIdOf } from './observed-subjects.ts';
import { ObservationRepository, type ObservationCheck } from './observation-repository.ts';

const ORG = 'org_a';
const product: ObservedSubject = { kind: 'product', marketplace: 'amazon.de', asin: 'B000000001', zip: null };
const at = (hour: number): string => new Date(Date.UTC(2026, 2, 2, hour)).toISOString();

/** Check number `n` of `subject` (job `job_<n>`, target 0) with `values`, at hour `n`. */
function check(n: number, values: Record<string, TrackedValue>, subject: ObservedSubject = product, organizationId = ORG): ObservationCheck {
  return {
    organizationId,
    subjectId: subjectIdOf(organizationId, subject),
    subject,
    ...(subject.kind === 'rank' ? { scopeId: keywordScopeOf(organizationId, subject.marketplace, subject.keyword) } : {}),
    values: new Map(Object.entries(values)),
    jobId: `job_${n}`,
    resultId: `job_${n}:0:0`,
    report: `job_${n}:0`,
    at: at(n),
  };
}

describeOnEachStore('ObservationRepository', (open, backend) => {
  let repo: ObservationRepository;
  const subjectId = subjectIdOf(ORG, product);
  const rows = () => repo.subjectRows(ORG, subjectId, { limit: 100 });

  beforeEach(async () => {
    repo = new ObservationRepository(await open());
    await repo.init();
  });

  it('keeps a subject that never changes in one row however often it is checked', async () => {
    expect(await repo.observe(check(0, { price: 10, inStock: true, hasCoupon: false, listPrice: null }))).toEqual([]);
    for (let n = 1; n <= 5; n += 1) expect(await repo.observe(check(n, { price: 10, inStock: true, hasCoupon: false, listPrice: null }))).toEqual([]);
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      seq: 0,
      firstSeenAt: at(0),
      lastSeenAt: at(5),
      checks: 6,
      jobId: 'job_0',
      resultId: 'job_0:0:0',
      lastJobId: 'job_5',
      lastReport: 'job_5:0',
    });
    expect((await repo.footprint(ORG)).rows).toBe(1);
  });

  it('opens a row per change, carrying forward what the check did not carry, and returns the changes', async () => {
    await repo.observe(check(0, { price: 10, inStock: true }));
    await repo.observe(check(1, { price: 10, inStock: true }));
    // Check 2 does not carry inStock (missing on the page): price changes, inStock stands.
    const changes = await repo.observe(check(2, { price: 12 }));
    expect(changes).toEqual([
      { subject: product, field: 'price', previous: 10, current: 12, previousObservedAt: at(1), observedAt: at(2), jobId: 'job_2', resultId: 'job_2:0:0' },
    ]);
    // A field seen for the first time is no change, and no new row.
    expect(await repo.observe(check(3, { price: 12, rating: 4.5 }))).toEqual([]);
    const points = await rows();
    expect(points.map((r) => [r.seq, r.firstSeenAt, r.lastSeenAt, r.checks, r.values])).toEqual([
      [0, at(0), at(1), 2, { price: 10, inStock: true }],
      [1, at(2), at(3), 2, { price: 12, inStock: true, rating: 4.5 }],
    ]);
    expect((await repo.head(ORG, subjectId))?.values).toEqual({ price: 12, inStock: true, rating: 4.5 });
  });

  it('counts a report delivered twice once and returns the same changes again', async () => {
    await repo.observe(check(0, { price: 10 }));
    const first = await repo.observe(check(1, { price: 11 }));
    expect(first).toHaveLength(1);
    expect(await repo.observe({ ...check(1, { price: 11 }), at: at(9) })).toEqual(first);
    expect(await repo.observe(check(2, { price: 11 }))).toEqual([]);
    expect(await repo.observe({ ...check(2, { price: 11 }), at: at(9) })).toEqual([]);
    expect((await rows()).map((r) => [r.seq, r.checks, r.lastSeenAt])).toEqual([
      [0, 1, at(0)],
      [1, 2, at(2)],
    ]);
  });

  it('compares nulls, booleans, numbers and strings by type, and category names with path characters', async () => {
    const values = { listPrice: null, inStock: false, offerCount: 0, availability: '0', 'bestSellersRank:Home.Kitchen $ "x"': 3 };
    await repo.observe(check(0, values));
    expect(await repo.observe(check(1, values))).toEqual([]);
    expect(await rows()).toHaveLength(1);
    const changes = await repo.observe(check(2, { ...values, listPrice: 0, inStock: true, 'bestSellersRank:Home.Kitchen $ "x"': 4 }));
    expect(changes.map((c) => [c.field, c.previous, c.current])).toEqual([
      ['listPrice', null, 0],
      ['inStock', false, true],
      ['bestSellersRank:Home.Kitchen $ "x"', 3, 4],
    ]);
  });

  it('lets concurrent checks of one subject each count once, in one row while nothing changes', async () => {
    await repo.observe(check(0, { price: 10 }));
    await Promise.all(Array.from({ length: 8 }, (_, i) => repo.observe(check(i + 1, { price: 10 }))));
    expect((await rows()).map((r) => r.checks)).toEqual([9]);
    // Concurrent changes: every check is counted in exactly one row, and rows never share a seq.
    await Promise.all(Array.from({ length: 8 }, (_, i) => repo.observe(check(i + 10, { price: 10 + (i % 2) }))));
    const after = await rows();
    expect(after.reduce((sum, r) => sum + r.checks, 0)).toBe(17);
    expect(new Set(after.map((r) => r.seq)).size).toBe(after.length);
  });

  it("scopes every read to the organization and lists a keyword's heads and rows by ASIN", async () => {
    const rank = (asin: string): ObservedSubject => ({ kind: 'rank', marketplace: 'amazon.com', keyword: 'usb c cable', asin });
    await repo.observe(check(0, { organicRank: 1, page: 1 }, rank('B00000000A')));
    await repo.observe(check(0, { organicRank: 2, page: 1 }, rank('B00000000B')));
    await repo.observe(check(1, { organicRank: 3, page: 1 }, rank('B00000000A')));
    await repo.observe(check(0, { organicRank: 9, page: 1 }, rank('B00000000A'), 'org_b'));
    const scope = keywordScopeOf(ORG, 'amazon.com', 'usb c cable');
    expect((await repo.keywordHeads(ORG, scope)).map((h) => [h.asin, h.values.organicRank]).sort()).toEqual([
      ['B00000000A', 3],
      ['B00000000B', 2],
    ]);
    const page1 = await repo.keywordRows(ORG, scope, { limit: 2 });
    expect(page1.map((r) => [r.asin, r.seq])).toEqual([
      ['B00000000A', 0],
      ['B00000000A', 1],
    ]);
    const page2 = await repo.keywordRows(ORG, scope, { limit: 2, after: { asin: 'B00000000A', seq: 1 } });
    expect(page2.map((r) => [r.asin, r.seq])).toEqual([['B00000000B', 0]]);
    expect(await repo.head('org_b', subjectId)).toBeNull();
    expect(await repo.keywordRows('org_b', scope, { limit: 10 })).toEqual([]);
  });

  it("extends a keyword's unchanged heads in one write and observes the rest one by one", async () => {
    const rank = (asin: string): ObservedSubject => ({ kind: 'rank', marketplace: 'amazon.com', keyword: 'kw', asin });
    const scope = keywordScopeOf(ORG, 'amazon.com', 'kw');
    await repo.observe(check(0, { organicRank: 1, page: 1 }, rank('B00000000A')));
    await repo.observe(check(0, { organicRank: 2, page: 1 }, rank('B00000000B')));
    const known = async (n: number, ranks: Record<string, number>) => {
      const heads = new Map((await repo.keywordHeads(ORG, scope)).map((h) => [h.asin, h]));
      return Object.entries(ranks).map(([asin, organicRank]) => ({ check: check(n, { organicRank, page: 1 }, rank(asin)), head: heads.get(asin) ?? null }));
    };
    // A unchanged, B changed, C new.
    const items = await known(1, { B00000000A: 1, B00000000B: 3, B00000000C: 4 });
    const changes = await repo.observeKnown(items);
    expect(changes.map((c) => [c.subject.asin, c.previous, c.current])).toEqual([['B00000000B', 2, 3]]);
    // The same report again counts nothing, and says again what it changed.
    expect(await repo.observeKnown(items)).toEqual(changes);
    // A head that moved after the read: the batch misses it, the check reads it again.
    const stale = await known(2, { B00000000A: 1, B00000000B: 3 });
    await repo.observe(check(3, { organicRank: 1, page: 1 }, rank('B00000000A')));
    expect(await repo.observeKnown(stale)).toEqual([]);
    const heads = new Map((await repo.keywordHeads(ORG, scope)).map((h) => [h.asin, h]));
    expect([heads.get('B00000000A')?.checks, heads.get('B00000000B')?.checks, heads.get('B00000000C')?.checks]).toEqual([4, 2, 1]);
    expect((await repo.keywordRows(ORG, scope, { limit: 10 })).map((r) => [r.asin, r.seq, r.checks])).toEqual([
      ['B00000000A', 0, 4],
      ['B00000000B', 0, 1],
      ['B00000000B', 1, 2],
      ['B00000000C', 0, 1],
    ]);
  });

  it('reads a time window and pages by seq', async () => {
    for (let n = 0; n < 6; n += 1) await repo.observe(check(n, { price: n }));
    expect((await repo.subjectRows(ORG, subjectId, { from: at(2), to: at(4), limit: 10 })).map((r) => r.seq)).toEqual([2, 3, 4]);
    expect((await repo.subjectRows(ORG, subjectId, { afterSeq: 3, limit: 1 })).map((r) => r.seq)).toEqual([4]);
  });

  if (backend === 'embedded')
    it('serves every operation from an index or the primary key, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new ObservationRepository(store);
      await plans.init();
      const rank = (asin: string): ObservedSubject => ({ kind: 'rank', marketplace: 'amazon.com', keyword: 'kw', asin });
      const scope = keywordScopeOf(ORG, 'amazon.com', 'kw');
      for (let n = 0; n < 3; n += 1) await plans.observe(check(n, { price: n === 2 ? 2 : 1 }));
      await plans.observe(check(0, { organicRank: 1 }, rank('B00000000A')));
      const heads = await plans.keywordHeads(ORG, scope);
      await plans.observeKnown(heads.map((head) => ({ check: check(1, { organicRank: 1 }, rank(head.asin)), head })));
      await plans.subjectRows(ORG, subjectId, { from: at(0), to: at(5), afterSeq: 0, limit: 10 });
      await plans.keywordRows(ORG, scope, { limit: 10, after: { asin: 'B00000000A', seq: 0 } });
      await plans.head(ORG, subjectId);
      await plans.prune(at(0));
      expect(unservedQueries(queries)).toEqual([]);
      // Checks go by the head's id (the keyword's batched extension too), lists by their indexes.
      expect(indexesUsed(queries)).toEqual([
        ...Array.from({ length: 9 }, () => '_id'),
        'org_scope_head',
        '_id',
        'org_subject_seq',
        'org_scope_asin_seq',
        '_id',
        'last_seen',
      ]);
    });

  it('prunes change points last seen before the retention cut-off', async () => {
    for (let n = 0; n < 4; n += 1) await repo.observe(check(n, { price: n }));
    expect(await repo.prune(at(2))).toBe(2);
    expect((await rows()).map((r) => r.seq)).toEqual([2, 3]);
  });
});
