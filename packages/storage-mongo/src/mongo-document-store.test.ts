import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '@crawl/storage';
import { MongoDocumentStore } from './mongo-document-store.ts';
import { describeDocumentStoreContract } from '@crawl/storage/testing';
import { mongoTestServer } from './testing/mongo-test-server.ts';

const found = await mongoTestServer();

if ('server' in found) {
  const { server } = found;
  const databases: MongoDocumentStore[] = [];
  afterAll(async () => {
    for (const store of databases) {
      await store.dropDatabase().catch(() => undefined);
      await store.close().catch(() => undefined);
    }
    await server.stop();
  });

  describeDocumentStoreContract('mongodb', async () => {
    const store = new MongoDocumentStore({ url: server.url, database: `crawl_contract_${randomUUID().slice(0, 8)}` });
    databases.push(store);
    return store;
  });

  describe('MongoDocumentStore time limits', () => {
    const open = (options: Partial<ConstructorParameters<typeof MongoDocumentStore>[0]> = {}) => {
      const store = new MongoDocumentStore({ url: server.url, database: `crawl_limits_${randomUUID().slice(0, 8)}`, ...options });
      // Dropped and closed by the suite's afterAll.
      databases.push(store);
      return store;
    };

    it('sends maxTimeMS with every operation, the stream budget with stream cursors', async () => {
      const sent: Array<{ name: string; body: Readonly<Record<string, unknown>> }> = [];
      const store = open({ operationTimeoutMs: 4_321, streamTimeoutMs: 98_765, onCommand: (command) => sent.push(command) });
      const items = store.collection<{ _id: string; n: number; tag?: string }>('items');
      try {
        await items.insertOne({ _id: 'a', n: 1 });
        await items.insertMany([
          { _id: 'b', n: 2, tag: 't' },
          { _id: 'c', n: 3 },
        ]);
        await items.findOne({ _id: 'a' });
        await items.find({ n: { $gte: 1 } }, { sort: { n: 1 }, limit: 2 });
        await items.count({ n: { $gte: 1 } });
        await items.updateOne({ _id: 'a', n: { $gte: 1 } }, { $inc: { n: 1 } });
        await items.updateOne({ n: { $gte: 3 } }, { $set: { tag: 'x' } }, { sort: { n: 1 } });
        await items.updateMany({ n: { $gte: 1 } }, { $set: { tag: 'y' } });
        await items.deleteOne({ _id: 'c' });
        await items.deleteMany({ n: 99 });
        for await (const _doc of items.stream({})) void _doc;
        for await (const _text of items.streamJson({}, 'tag')) void _text;
      } finally {
        await store.dropDatabase();
      }
      const operations = sent.filter((command) => ['insert', 'find', 'aggregate', 'findAndModify', 'update', 'delete', 'count'].includes(command.name));
      const names = new Set(operations.map((command) => command.name));
      expect([...names].sort()).toEqual(expect.arrayContaining(['aggregate', 'delete', 'find', 'findAndModify', 'insert', 'update']));
      for (const command of operations) {
        const limit = command.body.maxTimeMS;
        expect(limit, `${command.name} ${JSON.stringify(command.body)}`).toEqual(expect.any(Number));
        const isStream = command.name === 'find' && command.body.batchSize === 500;
        const onLocks = command.body[command.name] === '_document_locks';
        if (isStream) expect(limit).toBe(98_765);
        else if (onLocks) expect(limit as number).toBeGreaterThan(0);
        else {
          expect(limit as number).toBeGreaterThan(0);
          expect(limit as number).toBeLessThanOrEqual(4_321);
        }
      }
      expect(operations.filter((command) => command.name === 'find' && command.body.maxTimeMS === 98_765)).toHaveLength(2);
    });

    it('turns a server-side time limit into StorageUnavailableError (503)', async () => {
      const database = `crawl_limits_${randomUUID().slice(0, 8)}`;
      const store = open({ database });
      const items = store.collection<{ _id: string; n: number; org: string; nested: { v: number } }>('slow');
      try {
        // Enough documents that counting them takes the server well over the 1 ms limit: FerretDB
        // is slow at 4,000; a fast MongoDB gets more, up to 64,000, until one count takes 20 ms.
        const slowFilter = { $or: [{ 'nested.v': { $gt: 95 } }, { n: { $lt: 0 } }] };
        let stored = 0;
        for (let round = 0; round < 16; round += 1) {
          await items.insertMany(
            Array.from({ length: 4_000 }, (_, i) => ({ _id: `d${stored + i}`, n: stored + i, org: 'o', nested: { v: (stored + i) % 97 } })),
          );
          stored += 4_000;
          const started = Date.now();
          expect(await items.count(slowFilter)).toBe(Array.from({ length: stored }, (_, i) => i % 97).filter((v) => v > 95).length);
          if (Date.now() - started >= 20) break;
        }
        const limited = new MongoDocumentStore({ url: server.url, database, operationTimeoutMs: 1 });
        try {
          const slow = limited.collection<{ _id: string; n: number }>('slow');
          const timedOut = (promise: Promise<unknown>) =>
            expect(promise).rejects.toSatisfy(
              (error: unknown) => error instanceof StorageUnavailableError && error.statusCode === 503 && /time limit/.test(error.message),
            );
          await timedOut(slow.count(slowFilter));
          await timedOut(slow.find(slowFilter));
          await timedOut(slow.findOne({ ...slowFilter, n: { $gt: stored - 10 } }));
          // FerretDB v1 answers findAndModify past its limit with InternalError "context deadline exceeded".
          await timedOut(slow.updateOne({ 'nested.v': 96, n: { $gt: stored - 10 } }, { $inc: { n: 1 } }));
        } finally {
          await limited.close();
        }
      } finally {
        await store.dropDatabase();
      }
    }, 60_000);
  });

  describe('MongoDocumentStore when the server is gone', () => {
    it('fails fast with StorageUnavailableError instead of hanging', async () => {
      const store = new MongoDocumentStore({ url: 'mongodb://127.0.0.1:9/', database: 'nowhere', serverSelectionTimeoutMs: 300 });
      await expect(store.ping()).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.collection('x').findOne({ _id: 'a' })).rejects.toBeInstanceOf(StorageUnavailableError);
      await store.close();
    });
  });
} else {
  describe('MongoDocumentStore', () => {
    it('needs a MongoDB server', (context) => {
      console.warn(`[mongodb adapter tests skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_MONGO_URL');
      context.skip(found.skipReason);
    });
  });
}
