import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '../document-store.ts';
import { newId } from '../ids.ts';

interface Item extends Document {
  org: string;
  n: number;
  tag?: string;
  nested?: { amount: number; currency: string };
  list?: Array<{ status: string }>;
  createdAt: string;
}

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
      for (let n = 1; n <= 1200; n += 1) await items.insertOne(item('bulk', n));
      let expected = 1;
      for await (const doc of items.stream({ org: 'bulk' }, { sort: { n: 1 } })) {
        expect(doc.n).toBe(expected);
        expected += 1;
      }
      expect(expected).toBe(1201);
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

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
