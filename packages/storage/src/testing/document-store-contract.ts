// The contract every DocumentStore adapter passes, run by each adapter's own tests. One file over
// 300 lines on purpose: it is one suite, and an adapter runs all of it or it does not hold the port.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore, type Filter } from '../document-store.ts';
import { newId } from '../ids.ts';

interface Item extends Document {
  org: string;
  n: number;
  tag?: string;
  nested?: { amount: number; currency: string };
  list?: Array<{ status: string }>;
  createdAt: string;
}

/** For documents whose fields vary in type on purpose. */
type Loose = Document & Record<string, unknown>;

/**
 * The behaviour every DocumentStore adapter must show. Each test uses a fresh collection name so
 * suites can share one server.
 */
export function describeDocumentStoreContract(adapter: string, open: () => Promise<DocumentStore>): void {
  describe(`DocumentStore contract: ${adapter}`, () => {
    let store: DocumentStore;
    let items: Collection<Item>;

    beforeEach(async () => {
      store ??= await open();
      items = store.collection<Item>(`contract_${newId()}`);
      await items.ensureIndexes([{ keys: { org: 1, createdAt: -1 } }]);
    });

    afterAll(async () => {
      await store?.close();
    });

    const item = (org: string, n: number, extra: Partial<Item> = {}): Item => ({
      _id: newId(),
      org,
      n,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
      ...extra,
    });

    it('inserts and finds by id and by fields', async () => {
      const a = await items.insertOne(item('o1', 1, { nested: { amount: 12.5, currency: 'EUR' } }));
      expect(await items.findOne({ _id: a._id })).toEqual(a);
      expect(await items.findOne({ org: 'o1', 'nested.currency': 'EUR' })).toMatchObject({ n: 1 });
      expect(await items.findOne({ org: 'o2' })).toBeNull();
    });

    it('rejects a duplicate _id and a duplicate unique key', async () => {
      await items.ensureIndexes([{ keys: { org: 1, tag: 1 }, unique: true, name: 'org_tag' }]);
      const a = await items.insertOne(item('o1', 1, { tag: 'x' }));
      await expect(items.insertOne({ ...item('o1', 2, { tag: 'y' }), _id: a._id })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(items.insertOne(item('o1', 3, { tag: 'x' }))).rejects.toBeInstanceOf(DuplicateKeyError);
      await items.insertOne(item('o2', 4, { tag: 'x' }));
      await items.insertOne(item('o1', 5, { tag: 'z' }));
      expect(await items.count({ org: 'o1' })).toBe(2);
    });

    it('filters with comparison, set and existence operators and $or', async () => {
      for (let n = 1; n <= 6; n += 1) await items.insertOne(item(n % 2 ? 'odd' : 'even', n, n > 4 ? { tag: `t${n}` } : {}));
      const ns = async (filter: Record<string, unknown>) => (await items.find(filter, { sort: { n: 1 } })).map((d) => d.n);
      expect(await ns({ n: { $gte: 2, $lt: 5 } })).toEqual([2, 3, 4]);
      expect(await ns({ n: { $in: [1, 6, 9] } })).toEqual([1, 6]);
      expect(await ns({ n: { $nin: [1, 2, 3] } })).toEqual([4, 5, 6]);
      expect(await ns({ org: { $ne: 'odd' } })).toEqual([2, 4, 6]);
      expect(await ns({ tag: { $exists: true } })).toEqual([5, 6]);
      expect(await ns({ $or: [{ n: 1 }, { org: 'even', n: { $gt: 4 } }] })).toEqual([1, 6]);
    });

    it('sorts, skips and limits, and counts without paging', async () => {
      for (let n = 1; n <= 7; n += 1) await items.insertOne(item('o', n));
      const page = await items.find({ org: 'o' }, { sort: { createdAt: -1 }, skip: 2, limit: 3 });
      expect(page.map((d) => d.n)).toEqual([5, 4, 3]);
      expect(await items.count({ org: 'o' })).toBe(7);
      expect(await items.count({ org: 'o', n: { $gt: 5 } })).toBe(2);
    });

    it('streams every match in order', async () => {
      await items.insertMany(Array.from({ length: 1200 }, (_, i) => item('bulk', i + 1)));
      let expected = 1;
      for await (const doc of items.stream({ org: 'bulk' }, { sort: { n: 1 } })) {
        expect(doc.n).toBe(expected);
        expected += 1;
      }
      expect(expected).toBe(1201);
    });

    it('streams every match in order a batch at a time, bounded, with skip and limit', async () => {
      await items.insertMany(Array.from({ length: 1200 }, (_, i) => item('batches', i + 1)));
      const sizes: number[] = [];
      const seen: number[] = [];
      for await (const batch of items.streamBatches({ org: 'batches' }, { sort: { n: 1 } })) {
        sizes.push(batch.length);
        seen.push(...batch.map((doc) => doc.n));
      }
      expect(seen).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
      expect(sizes.length).toBeGreaterThan(1);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
      expect(Math.min(...sizes)).toBeGreaterThan(0);
      const paged: number[] = [];
      for await (const batch of items.streamBatches({ org: 'batches' }, { sort: { n: -1 }, skip: 10, limit: 5 })) paged.push(...batch.map((doc) => doc.n));
      expect(paged).toEqual([1190, 1189, 1188, 1187, 1186]);
    });

    it('updates conditionally and returns the document after the update', async () => {
      const a = await items.insertOne(item('o', 10, { list: [{ status: 'pending' }, { status: 'pending' }] }));
      const updated = await items.updateOne({ _id: a._id, n: { $gte: 5 } }, { $inc: { n: -5 }, $set: { 'list.1.status': 'done', tag: 'y' } });
      expect(updated).toMatchObject({ n: 5, tag: 'y', list: [{ status: 'pending' }, { status: 'done' }] });
      expect(await items.updateOne({ _id: a._id, n: { $gte: 6 } }, { $inc: { n: -6 } })).toBeNull();
      expect((await items.findOne({ _id: a._id }))?.n).toBe(5);
      const unset = await items.updateOne({ _id: a._id }, { $unset: { tag: true }, $max: { n: 8 }, $push: { list: { status: 'new' } } });
      expect(unset?.tag).toBeUndefined();
      expect(unset?.n).toBe(8);
      expect(unset?.list).toHaveLength(3);
    });

    it('serialises racing conditional decrements so the floor is never crossed', async () => {
      const a = await items.insertOne(item('o', 10));
      const results = await Promise.all(Array.from({ length: 25 }, () => items.updateOne({ _id: a._id, n: { $gte: 3 } }, { $inc: { n: -3 } })));
      expect(results.filter(Boolean)).toHaveLength(3);
      expect((await items.findOne({ _id: a._id }))?.n).toBe(1);
    });

    it('upserts once from the filter and $setOnInsert', async () => {
      const first = await items.updateOne({ org: 'u', tag: 'k' }, { $setOnInsert: { n: 1, createdAt: 'x' }, $inc: { hits: 1 } as never }, { upsert: true });
      const second = await items.updateOne({ org: 'u', tag: 'k' }, { $setOnInsert: { n: 99, createdAt: 'y' }, $inc: { hits: 1 } as never }, { upsert: true });
      expect(first?._id).toBeTruthy();
      expect(second?._id).toBe(first?._id);
      expect(second).toMatchObject({ org: 'u', tag: 'k', n: 1, hits: 2 });
      expect(await items.count({ org: 'u' })).toBe(1);
    });

    it('updates many and deletes', async () => {
      for (let n = 1; n <= 4; n += 1) await items.insertOne(item('m', n));
      expect(await items.updateMany({ org: 'm', n: { $lte: 2 } }, { $set: { tag: undefined as never, nested: { amount: 1, currency: 'USD' } } })).toBe(2);
      expect(await items.count({ 'nested.currency': 'USD' })).toBe(2);
      expect(await items.deleteOne({ org: 'm', n: 1 })).toBe(true);
      expect(await items.deleteOne({ org: 'm', n: 1 })).toBe(false);
      expect(await items.deleteMany({ org: 'm' })).toBe(3);
      expect(await items.count({ org: 'm' })).toBe(0);
    });

    it('inserts many in order in one call, and rejects a taken key', async () => {
      await items.insertMany([]);
      const batch = [item('im', 3, { tag: 'c' }), item('im', 1, { tag: 'a' }), item('im', 2, { tag: 'b' })];
      await items.insertMany(batch);
      expect(await items.find({ org: 'im' }, { sort: { n: 1 } })).toEqual([batch[1], batch[2], batch[0]]);
      expect(await items.findOne({ _id: batch[0]?._id as string })).toEqual(batch[0]);
      await expect(items.insertMany([item('im', 4), { ...item('im', 5), _id: batch[1]?._id as string }])).rejects.toBeInstanceOf(DuplicateKeyError);
      await items.ensureIndexes([{ keys: { org: 1, tag: 1 }, unique: true, name: 'org_tag' }]);
      await expect(items.insertMany([item('im', 6, { tag: 'a' })])).rejects.toBeInstanceOf(DuplicateKeyError);
      await items.insertMany([item('im', 7, { tag: 'z' })]);
      expect(await items.count({ org: 'im', n: { $in: [3, 1, 2, 7] } })).toBe(4);
      expect(await items.count({ org: 'im', n: 6 })).toBe(0);
    });

    it('streams the raw JSON text of one field, skipping matches without it, in order and paged', async () => {
      const nested = { amount: 12.5, currency: 'EUR' };
      await items.insertMany([
        item('sj', 1, { nested, tag: 'quote " and \\ and é' }),
        item('sj', 2, { nested: { amount: 3, currency: 'USD' } }),
        item('sj', 3, { tag: 'three' }),
        item('sj', 4, { list: [{ status: 'a' }, { status: 'b' }] }),
        item('other', 5, { tag: 'elsewhere' }),
        item('sj', 6, { tag: null as never }),
      ]);
      const texts = async (field: string, options: { sort?: Record<string, 1 | -1>; skip?: number; limit?: number }) => {
        const out: string[] = [];
        for await (const batch of items.streamJson({ org: 'sj' }, field, options)) {
          expect(batch.length).toBeGreaterThan(0);
          out.push(...batch);
        }
        return out;
      };
      const nestedTexts = await texts('nested', { sort: { n: 1 } });
      expect(nestedTexts).toEqual([JSON.stringify(nested), JSON.stringify({ amount: 3, currency: 'USD' })]);
      expect(nestedTexts.map((text) => JSON.parse(text))).toEqual([nested, { amount: 3, currency: 'USD' }]);
      // A JSON null is a value (only a missing field is skipped).
      expect(await texts('tag', { sort: { n: -1 } })).toEqual(['null', JSON.stringify('three'), JSON.stringify('quote " and \\ and é')]);
      expect(await texts('list', {})).toEqual([JSON.stringify([{ status: 'a' }, { status: 'b' }])]);
      expect(await texts('n', { sort: { n: -1 }, skip: 2, limit: 2 })).toEqual(['3', '2']);
      expect(await texts('missing', {})).toEqual([]);
    });

    it('streams a declared streamed field as written, after updates too, and reads documents unchanged', async () => {
      const name = `contract_${newId()}`;
      const plain = store.collection<Item>(name);
      await plain.insertOne(item('sf', 1, { nested: { amount: 1, currency: 'EUR' } }));
      // Declared after documents exist (a data directory from before the declaration).
      const streamed = store.collection<Item>(name, { streamedFields: ['nested'] });
      await streamed.ensureIndexes([{ keys: { org: 1, n: 1 } }]);
      const second = item('sf', 2, { nested: { amount: 2, currency: 'USD' } });
      await streamed.insertMany([second, item('sf', 3)]);
      await streamed.updateOne({ _id: second._id }, { $set: { 'nested.amount': 20 } });
      const texts: string[] = [];
      for await (const batch of streamed.streamJson({ org: 'sf' }, 'nested', { sort: { n: 1 } })) texts.push(...batch);
      expect(texts.map((text) => JSON.parse(text))).toEqual([
        { amount: 1, currency: 'EUR' },
        { amount: 20, currency: 'USD' },
      ]);
      expect(await streamed.findOne({ _id: second._id })).toEqual({ ...second, nested: { amount: 20, currency: 'USD' } });
      expect((await streamed.find({ org: 'sf' }, { sort: { n: 1 } })).map((doc) => Object.keys(doc).sort())).toEqual([
        ['_id', 'createdAt', 'n', 'nested', 'org'],
        ['_id', 'createdAt', 'n', 'nested', 'org'],
        ['_id', 'createdAt', 'n', 'org'],
      ]);
      expect(await streamed.count({ org: 'sf', n: { $gte: 2 } })).toBe(2);
    });

    it('treats null and missing alike for equality, $ne, $nin, $in and $exists', async () => {
      const docs = store.collection<Loose>(`contract_${newId()}`);
      for (const [_id, tag] of [
        ['null', null],
        ['missing', undefined],
        ['x', 'x'],
        ['y', 'y'],
      ] as const)
        await docs.insertOne(tag === undefined ? { _id } : { _id, tag });
      const ids = async (filter: Filter) => (await docs.find(filter, { sort: { _id: 1 } })).map((d) => d._id);
      expect(await ids({ tag: null })).toEqual(['missing', 'null']);
      expect(await ids({ tag: { $eq: null } })).toEqual(['missing', 'null']);
      expect(await ids({ tag: { $ne: null } })).toEqual(['x', 'y']);
      expect(await ids({ tag: { $ne: 'x' } })).toEqual(['missing', 'null', 'y']);
      expect(await ids({ tag: { $nin: ['x', 'y'] } })).toEqual(['missing', 'null']);
      expect(await ids({ tag: { $nin: ['x', null] } })).toEqual(['y']);
      expect(await ids({ tag: { $in: [null, 'y'] } })).toEqual(['missing', 'null', 'y']);
      expect(await ids({ tag: { $exists: false } })).toEqual(['missing']);
      expect(await ids({ tag: { $exists: true } })).toEqual(['null', 'x', 'y']);
      expect(await ids({ tag: { $gte: null } as never, _id: { $ne: 'x' } })).not.toContain('y');
    });

    it('matches booleans only as booleans', async () => {
      const docs = store.collection<Loose>(`contract_${newId()}`);
      const flags = [
        ['true', true],
        ['false', false],
        ['one', 1],
        ['zero', 0],
        ['text', 'true'],
        ['missing', undefined],
      ] as const;
      await docs.insertMany(flags.map(([_id, flag]) => (flag === undefined ? { _id } : { _id, flag })));
      const ids = async (filter: Filter) => (await docs.find(filter, { sort: { _id: 1 } })).map((d) => d._id);
      expect(await ids({ flag: true })).toEqual(['true']);
      expect(await ids({ flag: false })).toEqual(['false']);
      expect(await ids({ flag: 1 })).toEqual(['one']);
      expect(await ids({ flag: 0 })).toEqual(['zero']);
      expect(await ids({ flag: { $ne: true } })).toEqual(['false', 'missing', 'one', 'text', 'zero']);
      expect(await ids({ flag: { $in: [true, 0] } })).toEqual(['true', 'zero']);
      expect(await ids({ flag: { $nin: [false, 1] } })).toEqual(['missing', 'text', 'true', 'zero']);
      expect(await docs.count({ flag: { $gte: 0, $lte: 1 } })).toBe(2);
    });

    it('compares numbers with numbers and strings with strings only', async () => {
      const docs = store.collection<Loose>(`contract_${newId()}`);
      const values: Array<[string, unknown]> = [
        ['n5', 5],
        ['n10', 10],
        ['s5', '5'],
        ['sabc', 'abc'],
        ['s2026', '2026-01-02'],
        ['bool', true],
        ['null', null],
        ['obj', { a: 1 }],
        ['n0', 0],
      ];
      await docs.insertMany([...values.map(([_id, v]) => ({ _id, v })), { _id: 'missing' }]);
      const ids = async (filter: Filter) => (await docs.find(filter, { sort: { _id: 1 } })).map((d) => d._id);
      expect(await ids({ v: { $gt: 1 } })).toEqual(['n10', 'n5']);
      expect(await ids({ v: { $gte: 0, $lt: 6 } })).toEqual(['n0', 'n5']);
      expect(await ids({ v: { $lt: 'b' } })).toEqual(['s2026', 's5', 'sabc']);
      expect(await ids({ v: { $gt: 'a' } })).toEqual(['sabc']);
      expect(await ids({ v: { $lte: '2026-12' } })).toEqual(['s2026']);
      expect(await ids({ v: 5 })).toEqual(['n5']);
      expect(await ids({ v: '5' })).toEqual(['s5']);
      expect(await ids({ v: { $in: [5, 'abc'] } })).toEqual(['n5', 'sabc']);
      expect(await ids({ v: { a: 1 } })).toEqual(['obj']);
      expect(await ids({ v: '{"a":1}' })).toEqual([]);
    });

    it('sorts on a compound index with skip and limit, in either direction', async () => {
      const docs: Item[] = [];
      for (let n = 1; n <= 30; n += 1) docs.push(item(['a', 'b', 'c'][n % 3] as string, n));
      await items.insertMany(docs);
      const ns = async (filter: Filter, options: { sort: Record<string, 1 | -1>; skip?: number; limit?: number }) =>
        (await items.find(filter, options)).map((d) => d.n);
      // org 'b': n = 1, 4, …, 28
      expect(await ns({ org: 'b' }, { sort: { createdAt: -1 }, skip: 3, limit: 4 })).toEqual([19, 16, 13, 10]);
      expect(await ns({ org: 'b' }, { sort: { createdAt: 1 }, skip: 8, limit: 5 })).toEqual([25, 28]);
      expect(await ns({ org: { $in: ['a', 'c'] } }, { sort: { org: -1, createdAt: -1 }, skip: 8, limit: 4 })).toEqual([5, 2, 30, 27]);
      expect(await ns({}, { sort: { org: 1, n: 1 }, limit: 3 })).toEqual([3, 6, 9]);
      expect(await ns({ org: 'b', createdAt: { $lt: docs[12]?.createdAt as string } }, { sort: { createdAt: -1 }, limit: 2 })).toEqual([10, 7]);
      expect((await items.findOne({ org: 'c' }, { sort: { createdAt: -1 } }))?.n).toBe(29);
    });

    it('reads and writes nested and array-index paths', async () => {
      const a = await items.insertOne(
        item('p', 1, { nested: { amount: 10, currency: 'EUR' }, list: [{ status: 'pending' }, { status: 'pending' }, { status: 'done' }] }),
      );
      expect(await items.count({ 'list.2.status': 'done' })).toBe(1);
      expect(await items.count({ 'list.1.status': 'done' })).toBe(0);
      expect(await items.count({ _id: a._id, 'list.5.status': { $exists: false } })).toBe(1);
      expect(await items.count({ 'nested.amount': { $gt: 9.5 }, 'nested.currency': { $in: ['EUR', 'USD'] } })).toBe(1);
      const updated = await items.updateOne(
        { _id: a._id, 'list.1.status': { $in: ['pending', 'running'] } },
        { $set: { 'list.1.status': 'running', 'nested.currency': 'USD', 'marks.job-1:x': 3 } as never, $inc: { 'nested.amount': 2.5 } },
      );
      expect(updated).toMatchObject({
        nested: { amount: 12.5, currency: 'USD' },
        list: [{ status: 'pending' }, { status: 'running' }, { status: 'done' }],
        marks: { 'job-1:x': 3 },
      });
      expect(await items.findOne({ 'list.1.status': 'running', 'nested.amount': 12.5 })).toMatchObject({ _id: a._id });
      expect(await items.count({ 'marks.job-1:x': { $exists: true } })).toBe(1);
      expect(await items.updateOne({ _id: a._id, 'list.1.status': 'pending' }, { $set: { 'list.1.status': 'x' } })).toBeNull();
      expect(await items.updateMany({ 'list.0.status': 'pending' }, { $set: { 'list.0.status': 'done' }, $unset: { 'marks.job-1:x': true } as never })).toBe(1);
      expect(await items.findOne({ _id: a._id })).toMatchObject({ list: [{ status: 'done' }, { status: 'running' }, { status: 'done' }], marks: {} });
    });

    it('lets a consumer abandon a stream early, after which everything still works', async () => {
      // More than one stream batch (500), so the consumer stops in the middle of the second.
      await items.insertMany(Array.from({ length: 700 }, (_, i) => item('early', i + 1)));
      let seen = 0;
      for await (const doc of items.stream({ org: 'early' }, { sort: { n: 1 } })) {
        seen += 1;
        expect(doc.n).toBe(seen);
        if (seen === 600) break;
      }
      expect(seen).toBe(600);
      await expect(
        (async () => {
          for await (const doc of items.stream({ org: 'early' })) if (doc.n > 0) throw new Error('consumer failed');
        })(),
      ).rejects.toThrow('consumer failed');
      const iterator = items.stream({ org: 'early' }, { sort: { n: -1 } })[Symbol.asyncIterator]();
      expect((await iterator.next()).value?.n).toBe(700);
      // A write while that stream is still open, then the stream is dropped.
      expect(await items.updateOne({ org: 'early', n: 1 }, { $set: { tag: 'written' } })).toMatchObject({ tag: 'written' });
      await iterator.return?.();
      expect(await items.count({ org: 'early' })).toBe(700);
      expect(await items.deleteMany({ org: 'early', n: { $gt: 3 } })).toBe(697);
      const rest: number[] = [];
      for await (const doc of items.stream({ org: 'early' }, { sort: { n: 1 } })) rest.push(doc.n);
      expect(rest).toEqual([1, 2, 3]);
    }, 60_000);

    it('updates the first match by sort, and upserts with a sort when nothing matches', async () => {
      for (const n of [2, 3, 1]) await items.insertOne(item('us', n));
      expect(await items.updateOne({ org: 'us' }, { $set: { tag: 'last' } }, { upsert: true, sort: { n: -1 } })).toMatchObject({ n: 3, tag: 'last' });
      expect(await items.updateOne({ org: 'us', tag: { $exists: false } }, { $set: { tag: 'first' } }, { sort: { n: 1 } })).toMatchObject({
        n: 1,
        tag: 'first',
      });
      const created = await items.updateOne(
        { org: 'us-new', tag: 'k' },
        { $setOnInsert: { n: 7, createdAt: 'c' }, $set: { nested: { amount: 1, currency: 'EUR' } } },
        { upsert: true, sort: { n: 1 } },
      );
      expect(created).toMatchObject({ org: 'us-new', tag: 'k', n: 7, createdAt: 'c', nested: { amount: 1, currency: 'EUR' } });
      expect(typeof created?._id).toBe('string');
      expect(await items.count({ org: 'us' })).toBe(3);
      expect(await items.count({ org: 'us-new' })).toBe(1);
      expect((await items.find({ org: 'us' }, { sort: { n: 1 } })).map((d) => d.tag ?? null)).toEqual(['first', null, 'last']);
    });

    it('accepts a TTL index, declared again too, and keeps the documents not yet expired', async () => {
      const expiring = store.collection<Loose>(`contract_${newId()}`);
      const ttl = { keys: { expiresAt: 1 as const }, name: 'expires_at', expireAfterSeconds: 0 };
      const later = new Date(Date.now() + 3_600_000);
      await expiring.insertOne({ _id: 'kept-1', org: 'ttl', expiresAt: later });
      await expiring.ensureIndexes([ttl]);
      await expiring.ensureIndexes([ttl]);
      await expiring.insertOne({ _id: 'kept-2', org: 'ttl', expiresAt: later });
      expect((await expiring.find({ org: 'ttl' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['kept-1', 'kept-2']);
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
