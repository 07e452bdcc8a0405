import type { TrackedValue } from '@crawl/contracts';
import type { Collection, Document, DocumentStore } from '@crawl/storage';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';
import { beforeEach, expect, it } from 'vitest';
import type { KeywordCheck } from './keyword-check.ts';
import { OBSERVATION_KEYWORDS_COLLECTION } from './keyword-observations.ts';
import { OBSERVATION_KEYWORD_TALLIES_COLLECTION } from './keyword-tallies.ts';
import { keywordScopeOf, subjectIdOf, type ProductSubjectOf } from './observed-subjects.ts';
import { OBSERVATIONS_COLLECTION, ObservationRepository, type ObservationCheck, type ObservationDoc } from './observation-repository.ts';

const ORG = 'org_a';
const product: ProductSubjectOf = { kind: 'product', marketplace: 'amazon.de', asin: 'B000000001', zip: null };
const at = (hour: number): string => new Date(Date.UTC(2026, 2, 2, hour)).toISOString();

/** Check number `n` of `subject` (job `job_<n>`, target 0) with `values`, at hour `n`. */
function check(n: number, values: Record<string, TrackedValue>, subject: ProductSubjectOf = product, organizationId = ORG): ObservationCheck {
  return {
    organizationId,
    subjectId: subjectIdOf(organizationId, subject),
    subject,
    values: new Map(Object.entries(values)),
    jobId: `job_${n}`,
    resultId: `job_${n}:0:0`,
    report: `job_${n}:0`,
    at: at(n),
  };
}

const KEYWORD = 'usb c cable';
const rank = (asin: string) => ({ kind: 'rank' as const, marketplace: 'amazon.com', keyword: KEYWORD, asin });
const scopeOf = (organizationId = ORG) => keywordScopeOf(organizationId, 'amazon.com', KEYWORD);

/**
 * Search check number `n` (job `job_<n>`, target `target`, at hour `n`) of the keyword showing
 * `shown` (ASIN → organic rank, on page 1); `deepestPage` gives it a coverage (the ASINs not shown
 * that were last seen up to that page have left).
 */
function search(n: number, shown: Record<string, number>, options: { deepestPage?: number; organizationId?: string; target?: number } = {}): KeywordCheck {
  const { organizationId = ORG, target = 0 } = options;
  return {
    organizationId,
    scopeId: scopeOf(organizationId),
    marketplace: 'amazon.com',
    keyword: KEYWORD,
    checks: Object.entries(shown).map(([asin, organicRank], i) => ({
      subject: rank(asin),
      values: new Map<string, TrackedValue>([
        ['organicRank', organicRank],
        ['page', 1],
      ]),
      resultId: `job_${n}:${target}:${i}`,
    })),
    coverage:
      options.deepestPage === undefined
        ? undefined
        : { marketplace: 'amazon.com', keyword: KEYWORD, deepestPage: options.deepestPage, present: new Set(Object.keys(shown)) },
    jobId: `job_${n}`,
    report: `job_${n}:${target}`,
    at: at(n),
  };
}

const ranksOf = (count: number, from = 0): Record<string, number> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`B${String(from + i).padStart(9, '0')}`, i + 1]));

/** The store with every write counted, by collection and operation. */
function countingWrites(store: DocumentStore): { store: DocumentStore; writes: string[] } {
  const writes: string[] = [];
  const WRITES = new Set(['insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany']);
  const wrapped: DocumentStore = {
    kind: store.kind,
    ping: () => store.ping(),
    close: () => store.close(),
    collection<T extends Document>(name: string): Collection<T> {
      const inner = store.collection<T>(name);
      return new Proxy(inner, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (typeof property === 'string' && WRITES.has(property)) writes.push(`${name}.${property}`);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    },
  };
  return { store: wrapped, writes };
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

  it("scopes every read to the organization and lists a keyword's change points by ASIN, closed and open", async () => {
    await repo.observeKeyword(search(0, { B00000000A: 1, B00000000B: 2 }));
    await repo.observeKeyword(search(1, { B00000000A: 3, B00000000B: 2 }));
    await repo.observeKeyword(search(0, { B00000000A: 9 }, { organizationId: 'org_b' }));
    const scope = scopeOf();
    expect((await repo.keywordHeads(ORG, scope)).map((h) => [h.asin, h.values.organicRank, h.checks])).toEqual([
      ['B00000000A', 3, 1],
      ['B00000000B', 2, 2],
    ]);
    const page1 = await repo.keywordRows(ORG, scope, { limit: 2 });
    expect(page1.map((r) => [r.asin, r.seq, r.checks, r.values.organicRank])).toEqual([
      ['B00000000A', 0, 1, 1],
      ['B00000000A', 1, 1, 3],
    ]);
    const page2 = await repo.keywordRows(ORG, scope, { limit: 2, after: { asin: 'B00000000A', seq: 1 } });
    expect(page2.map((r) => [r.asin, r.seq, r.checks])).toEqual([['B00000000B', 0, 2]]);
    expect((await repo.keywordRows(ORG, scope, { limit: 10, asin: 'B00000000A', after: { asin: 'B00000000A', seq: 0 } })).map((r) => r.seq)).toEqual([1]);
    // A window: the change points in force in it, the open one by its last check.
    expect((await repo.keywordRows(ORG, scope, { limit: 10, from: at(1) })).map((r) => [r.asin, r.seq])).toEqual([
      ['B00000000A', 1],
      ['B00000000B', 0],
    ]);
    expect((await repo.keywordRows(ORG, scope, { limit: 10, to: at(0) })).map((r) => [r.asin, r.seq])).toEqual([
      ['B00000000A', 0],
      ['B00000000B', 0],
    ]);
    expect(await repo.keywordHeads('org_b', scope)).toEqual([]);
    expect(await repo.keywordRows('org_b', scope, { limit: 10 })).toEqual([]);
    expect(await repo.head('org_b', subjectId)).toBeNull();
  });

  it("writes a keyword's unchanged check once, and a change once more per ASIN changed", async () => {
    const counted = countingWrites(await open());
    const keywords = new ObservationRepository(counted.store);
    await keywords.init();
    await keywords.observeKeyword(search(0, ranksOf(48)));
    counted.writes.length = 0;
    expect(await keywords.observeKeyword(search(1, ranksOf(48)))).toEqual([]);
    expect(counted.writes).toEqual([`${OBSERVATION_KEYWORD_TALLIES_COLLECTION}.updateOne`]);
    counted.writes.length = 0;
    const moved = { ...ranksOf(48), B000000003: 40, B000000007: 41 };
    const changes = await keywords.observeKeyword(search(2, moved));
    expect(changes.map((c) => [c.subject.asin, c.field, c.previous, c.current])).toEqual([
      ['B000000003', 'organicRank', 4, 40],
      ['B000000007', 'organicRank', 8, 41],
    ]);
    // The tally missed (the check is not the last one's) and stopped, a row per head closed, the heads written, the tally let go.
    expect(counted.writes).toEqual([
      `${OBSERVATION_KEYWORD_TALLIES_COLLECTION}.updateOne`,
      `${OBSERVATION_KEYWORD_TALLIES_COLLECTION}.updateOne`,
      `${OBSERVATIONS_COLLECTION}.updateOne`,
      `${OBSERVATIONS_COLLECTION}.updateOne`,
      `${OBSERVATION_KEYWORDS_COLLECTION}.updateOne`,
      `${OBSERVATION_KEYWORD_TALLIES_COLLECTION}.updateOne`,
    ]);
    const points = await keywords.keywordRows(ORG, scopeOf(), { limit: 100 });
    expect(points).toHaveLength(50);
    expect(points.filter((p) => p.asin === 'B000000003').map((p) => [p.seq, p.checks, p.values.organicRank, p.firstSeenAt, p.lastSeenAt])).toEqual([
      [0, 2, 4, at(0), at(1)],
      [1, 1, 40, at(2), at(2)],
    ]);
  });

  it('counts unchanged checks of a keyword on its tally, reads them there, and takes them into the heads at the next write', async () => {
    await repo.observeKeyword(search(0, { B00000000A: 1, B00000000B: 2 }, { deepestPage: 1 }));
    await repo.observeKeyword(search(1, { B00000000A: 1, B00000000B: 2 }, { deepestPage: 1 }));
    await repo.observeKeyword(search(2, { B00000000A: 1, B00000000B: 2 }, { deepestPage: 1 }));
    // The last counted report again: nothing counted.
    expect(await repo.observeKeyword({ ...search(2, { B00000000A: 1, B00000000B: 2 }, { deepestPage: 1 }), at: at(9) })).toEqual([]);
    const seen = async () => (await repo.keywordHeads(ORG, scopeOf())).map((h) => [h.asin, h.seq, h.checks, h.lastSeenAt, h.lastReport]);
    expect(await seen()).toEqual([
      ['B00000000A', 0, 3, at(2), 'job_2:0'],
      ['B00000000B', 0, 3, at(2), 'job_2:0'],
    ]);
    await repo.observeKeyword(search(3, { B00000000A: 1, B00000000B: 2 }, { deepestPage: 1 }));
    // B leaves: the heads take in the four checks, A's extended once more, B moves on.
    const changes = await repo.observeKeyword(search(4, { B00000000A: 1 }, { deepestPage: 1 }));
    expect(changes.map((c) => [c.subject.asin, c.field, c.previous, c.current, c.previousObservedAt])).toEqual([
      ['B00000000B', 'organicRank', 2, null, at(3)],
      ['B00000000B', 'page', 1, null, at(3)],
    ]);
    expect(await seen()).toEqual([
      ['B00000000A', 0, 5, at(4), 'job_4:0'],
      ['B00000000B', 1, 1, at(4), 'job_4:0'],
    ]);
    // B's absence confirmed by the next same check, counted on the tally again.
    await repo.observeKeyword(search(5, { B00000000A: 1 }, { deepestPage: 1 }));
    expect(await seen()).toEqual([
      ['B00000000A', 0, 6, at(5), 'job_5:0'],
      ['B00000000B', 1, 2, at(5), 'job_5:0'],
    ]);
    expect((await repo.keywordRows(ORG, scopeOf(), { limit: 10 })).map((p) => [p.asin, p.seq, p.checks, p.firstSeenAt, p.lastSeenAt])).toEqual([
      ['B00000000A', 0, 6, at(0), at(5)],
      ['B00000000B', 0, 4, at(0), at(3)],
      ['B00000000B', 1, 2, at(4), at(5)],
    ]);
  });

  it("never dates a keyword's check before its heads' last one (clocks of replicas differ), counted on the tally or not", async () => {
    await repo.observeKeyword(search(5, { B00000000A: 1 }));
    await repo.observeKeyword(search(3, { B00000000A: 1 }));
    await repo.observeKeyword(search(4, { B00000000A: 1, B00000000B: 2 }));
    await repo.observeKeyword(search(2, { B00000000A: 1, B00000000B: 2 }));
    expect((await repo.keywordHeads(ORG, scopeOf())).map((h) => [h.asin, h.checks, h.firstSeenAt, h.lastSeenAt])).toEqual([
      ['B00000000A', 4, at(5), at(5)],
      ['B00000000B', 2, at(4), at(4)],
    ]);
  });

  it('counts a keyword report delivered twice once per ASIN and says again what it changed', async () => {
    await repo.observeKeyword(search(0, { B00000000A: 1, B00000000B: 2, B00000000C: 3 }));
    const report = search(1, { B00000000A: 1, B00000000B: 5 }, { deepestPage: 1 });
    const changes = await repo.observeKeyword(report);
    expect(changes.map((c) => [c.subject.asin, c.field, c.previous, c.current, c.resultId])).toEqual([
      ['B00000000B', 'organicRank', 2, 5, 'job_1:0:1'],
      ['B00000000C', 'organicRank', 3, null, 'job_1:0'],
      ['B00000000C', 'page', 1, null, 'job_1:0'],
    ]);
    expect(await repo.observeKeyword({ ...report, at: at(9) })).toEqual(changes);
    // Another report of another target in between: the ASINs it checked count the replay again, as
    // a subject's own re-sent check would; the others still know the report.
    await repo.observeKeyword(search(2, { B00000000A: 1 }, { target: 1 }));
    expect(await repo.observeKeyword({ ...report, at: at(9) })).toEqual(changes.filter((c) => c.subject.asin !== 'B00000000A'));
    const heads = await repo.keywordHeads(ORG, scopeOf());
    expect(heads.map((h) => [h.asin, h.seq, h.checks])).toEqual([
      ['B00000000A', 0, 4],
      ['B00000000B', 1, 1],
      ['B00000000C', 1, 1],
    ]);
  });

  it('lets concurrent checks of one keyword each count once, in time order', async () => {
    await repo.observeKeyword(search(0, ranksOf(10)));
    await Promise.all(Array.from({ length: 8 }, (_, i) => repo.observeKeyword(search(i + 1, ranksOf(10)))));
    let heads = await repo.keywordHeads(ORG, scopeOf());
    expect(heads.map((h) => h.checks)).toEqual(Array.from({ length: 10 }, () => 9));
    expect(heads.every((h) => h.lastSeenAt === at(8))).toBe(true);
    // Concurrent changes: every check of every ASIN is counted in exactly one change point, seqs never repeat.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => repo.observeKeyword(search(i + 10, { ...ranksOf(10), B000000004: 20 + (i % 2), B000000009: 30 + (i % 3) }))),
    );
    heads = await repo.keywordHeads(ORG, scopeOf());
    for (const asin of ['B000000000', 'B000000004', 'B000000009']) {
      const points = await repo.keywordRows(ORG, scopeOf(), { limit: 100, asin });
      expect(points.reduce((sum, p) => sum + p.checks, 0)).toBe(17);
      expect(points.map((p) => p.seq)).toEqual(points.map((_, seq) => seq));
      expect(points.every((p, i) => i === 0 || (points[i - 1] as { lastSeenAt: string }).lastSeenAt <= p.firstSeenAt)).toBe(true);
      expect(heads.find((h) => h.asin === asin)?.seq).toBe(points.length - 1);
    }
  });

  it('takes in the heads a keyword kept as rows of their own before keyword documents', async () => {
    const store = await open();
    const legacy = new ObservationRepository(store);
    await legacy.init();
    const rows = store.collection<ObservationDoc>(OBSERVATIONS_COLLECTION);
    const scopeId = scopeOf();
    const row = (asin: string, seq: number, organicRank: number, hours: [number, number], isHead: boolean): ObservationDoc => {
      const id = subjectIdOf(ORG, rank(asin));
      return {
        _id: isHead ? id : `${id}:${String(seq).padStart(10, '0')}`,
        organizationId: ORG,
        subjectId: id,
        subject: rank(asin),
        asin,
        scopeId,
        seq,
        head: isHead,
        values: { organicRank, page: 1 },
        firstSeenAt: at(hours[0]),
        lastSeenAt: at(hours[1]),
        checks: hours[1] - hours[0] + 1,
        jobId: `job_${hours[0]}`,
        resultId: `job_${hours[0]}:0:0`,
        lastJobId: `job_${hours[1]}`,
        lastReport: `job_${hours[1]}:0`,
        carried: 'digest',
      };
    };
    await rows.insertMany([row('B00000000A', 0, 1, [0, 1], false), row('B00000000A', 1, 2, [2, 3], true), row('B00000000B', 0, 3, [0, 3], true)]);
    const before = await legacy.keywordRows(ORG, scopeId, { limit: 10 });
    expect(before.map((p) => [p.asin, p.seq, p.checks])).toEqual([
      ['B00000000A', 0, 2],
      ['B00000000A', 1, 2],
      ['B00000000B', 0, 4],
    ]);
    // The same report as the legacy heads' last says again what it changed, and counts nothing.
    expect(await legacy.observeKeyword(search(3, { B00000000A: 2, B00000000B: 3 }))).toEqual([]);
    expect(await legacy.keywordHeads(ORG, scopeId)).toEqual([]);
    const changes = await legacy.observeKeyword(search(4, { B00000000A: 2, B00000000B: 5 }));
    expect(changes.map((c) => [c.subject.asin, c.previous, c.current, c.previousObservedAt])).toEqual([['B00000000B', 3, 5, at(3)]]);
    expect(await rows.count({ organizationId: ORG, head: true })).toBe(0);
    expect((await legacy.keywordHeads(ORG, scopeId)).map((h) => [h.asin, h.seq, h.checks])).toEqual([
      ['B00000000A', 1, 3],
      ['B00000000B', 1, 1],
    ]);
    expect((await legacy.keywordRows(ORG, scopeId, { limit: 10 })).map((p) => [p.asin, p.seq, p.checks, p.lastSeenAt])).toEqual([
      ['B00000000A', 0, 2, at(1)],
      ['B00000000A', 1, 3, at(4)],
      ['B00000000B', 0, 4, at(3)],
      ['B00000000B', 1, 1, at(4)],
    ]);
    // A head row left behind (a writer stopped before removing it) is not listed twice, and pages stay full.
    await rows.insertOne(row('B00000000A', 1, 2, [2, 3], true));
    const first = await legacy.keywordRows(ORG, scopeId, { limit: 2 });
    expect(first.map((p) => [p.asin, p.seq, p.checks])).toEqual([
      ['B00000000A', 0, 2],
      ['B00000000A', 1, 3],
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
      const scope = scopeOf();
      for (let n = 0; n < 3; n += 1) await plans.observe(check(n, { price: n === 2 ? 2 : 1 }));
      await plans.observeKeyword(search(0, { B00000000A: 1, B00000000B: 2 }));
      await plans.observeKeyword(search(1, { B00000000A: 1, B00000000B: 3 }));
      await plans.observeKeyword({ ...search(1, { B00000000A: 1, B00000000B: 3 }), at: at(2) });
      await plans.subjectRows(ORG, subjectId, { from: at(0), to: at(5), afterSeq: 0, limit: 10 });
      await plans.keywordRows(ORG, scope, { limit: 10, after: { asin: 'B00000000A', seq: 0 } });
      await plans.keywordRows(ORG, scope, { limit: 10, asin: 'B00000000B', after: { asin: 'B00000000B', seq: 0 }, from: at(0) });
      await plans.head(ORG, subjectId);
      await plans.prune(at(2));
      expect(unservedQueries(queries)).toEqual([]);
      // Checks go by the head's id (a keyword's by its tally's and heads' ids), lists by their indexes.
      expect(indexesUsed(queries)).toEqual([
        // The product: first check (an extension that finds no head, the read), an unchanged one, a change.
        ...Array.from({ length: 7 }, () => '_id'),
        // A keyword's first check: no tally to count it, one made stopped, no heads, no head rows from before them; the tally let go.
        '_id',
        '_id',
        '_id',
        'org_scope_asin_seq',
        '_id',
        // Its next (a change): the tally missed and stopped, the heads read, B's closed head kept, the heads written, the tally let go.
        ...Array.from({ length: 6 }, () => '_id'),
        // The same report again: the tally missed and stopped, the heads read, the tally let go; the row B's head closed (its changes told again).
        ...Array.from({ length: 5 }, () => '_id'),
        // Lists: a product's; a keyword's (its tally, heads and tally, then its rows); one ASIN's; a product's latest values.
        'org_subject_seq',
        '_id',
        '_id',
        '_id',
        'org_scope_asin_seq',
        '_id',
        '_id',
        '_id',
        'org_scope_asin_seq',
        '_id',
        // Retention: rows; then the keyword whose heads all went (its tally stopped, its heads read and removed, its tally removed).
        'last_seen',
        'oldest_seen',
        ...Array.from({ length: 5 }, () => '_id'),
      ]);
    });

  it('prunes change points last seen before the retention cut-off', async () => {
    for (let n = 0; n < 4; n += 1) await repo.observe(check(n, { price: n }));
    expect(await repo.prune(at(2))).toBe(2);
    expect((await rows()).map((r) => r.seq)).toEqual([2, 3]);
  });

  it("prunes a keyword's change points and the heads of ASINs not seen since the cut-off, and a keyword not checked since", async () => {
    await repo.observeKeyword(search(0, { B00000000A: 1, B00000000B: 2, B00000000C: 3 }));
    await repo.observeKeyword(search(1, { B00000000A: 4, B00000000B: 2 }));
    await repo.observeKeyword(search(3, { B00000000A: 4 }));
    await repo.observeKeyword(search(0, { B00000000A: 1 }, { organizationId: 'org_b' }));
    // Gone: A's first change point (last seen at 0), C's head (0), org_b's keyword (0); B's head was seen at 1.
    expect(await repo.prune(at(1))).toBe(3);
    expect((await repo.keywordHeads(ORG, scopeOf())).map((h) => h.asin)).toEqual(['B00000000A', 'B00000000B']);
    expect((await repo.keywordRows(ORG, scopeOf(), { limit: 10 })).map((p) => [p.asin, p.seq])).toEqual([
      ['B00000000A', 1],
      ['B00000000B', 0],
    ]);
    expect(await repo.keywordHeads('org_b', scopeOf('org_b'))).toEqual([]);
    expect(await repo.prune(at(1))).toBe(0);
    // B forgotten: its next check starts a new history.
    expect(await repo.prune(at(2))).toBe(1);
    expect(await repo.observeKeyword(search(4, { B00000000A: 4, B00000000B: 9 }))).toEqual([]);
    expect((await repo.keywordRows(ORG, scopeOf(), { limit: 10, asin: 'B00000000B' })).map((p) => [p.seq, p.firstSeenAt])).toEqual([[0, at(4)]]);
  });
});
