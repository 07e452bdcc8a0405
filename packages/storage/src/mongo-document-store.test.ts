import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { StorageUnavailableError } from './document-store.ts';
import { MongoDocumentStore } from './mongo-document-store.ts';
import { describeDocumentStoreContract } from './testing/document-store-contract.ts';
import { mongoTestServer } from './testing/mongo-test-server.ts';

const found = await mongoTestServer();

if ('server' in found) {
  const { server } = found;
  const databases: MongoDocumentStore[] = [];
  afterAll(async () => {
    for (const store of databases) {
      const cleanup = new MongoDocumentStore({ url: server.url, database: (store as unknown as { dbName?: string }).dbName ?? '' });
      await cleanup.close();
    }
    await server.stop();
  });

  describeDocumentStoreContract('mongodb', async () => {
    const store = new MongoDocumentStore({ url: server.url, database: `crawl_contract_${randomUUID().slice(0, 8)}` });
    databases.push(store);
    return store;
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
