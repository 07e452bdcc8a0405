import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MongoDocumentStore } from './mongo-document-store.ts';
import { mongoTestServer } from './testing/mongo-test-server.ts';

const found = await mongoTestServer();

describe('locked conditional updates under heavy contention', () => {
  it('lets exactly the affordable updates through when 120 race on one document, without timeouts', async (context) => {
    if (!('server' in found)) {
      console.warn(`[locked updates test skipped] ${found.skipReason}`);
      context.skip(found.skipReason);
      return;
    }
    const store = new MongoDocumentStore({ url: found.server.url, database: `locks_${randomUUID().slice(0, 8)}`, lockedUpdates: 'always' });
    try {
      const balances = store.collection<{ _id: string; n: number }>('balances');
      await balances.insertOne({ _id: 'org', n: 100 });
      const results = await Promise.all(Array.from({ length: 120 }, () => balances.updateOne({ _id: 'org', n: { $gte: 1 } }, { $inc: { n: -1 } })));
      expect(results.filter(Boolean)).toHaveLength(100);
      expect((await balances.findOne({ _id: 'org' }))?.n).toBe(0);
    } finally {
      await store.close();
    }
  }, 60_000);
});
