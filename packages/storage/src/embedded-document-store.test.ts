import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedDocumentStore } from './embedded-document-store.ts';
import { describeDocumentStoreContract } from './testing/document-store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'crawl-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeDocumentStoreContract('embedded (memory)', async () => EmbeddedDocumentStore.inMemory());
describeDocumentStoreContract('embedded (file)', async () => new EmbeddedDocumentStore({ path: join(dir, 'contract.db') }));

describe('EmbeddedDocumentStore persistence', () => {
  it('keeps documents, updates and deletes across a restart', async () => {
    const path = join(dir, 'restart.db');
    const first = new EmbeddedDocumentStore({ path });
    const users = first.collection<{ _id: string; email: string; n: number }>('users');
    await users.ensureIndexes([{ keys: { email: 1 }, unique: true }]);
    await users.insertOne({ _id: 'a', email: 'a@x.io', n: 1 });
    await users.insertOne({ _id: 'b', email: 'b@x.io', n: 1 });
    await users.updateOne({ _id: 'a' }, { $inc: { n: 41 } });
    await users.deleteOne({ _id: 'b' });
    await first.close();

    const second = new EmbeddedDocumentStore({ path });
    const reopened = second.collection<{ _id: string; email: string; n: number }>('users');
    await reopened.ensureIndexes([{ keys: { email: 1 }, unique: true }]);
    expect(await reopened.find({})).toEqual([{ _id: 'a', email: 'a@x.io', n: 42 }]);
    await expect(reopened.insertOne({ _id: 'c', email: 'a@x.io', n: 0 })).rejects.toThrow(/Duplicate/);
    await second.close();
  });
});
