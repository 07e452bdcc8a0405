import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Document } from '@crawl/storage';
import { EmbeddedDocumentStore } from './embedded-document-store.ts';
import { FOREIGN_COMMIT_CHECK_MS } from './sqlite-foreign-commits.ts';
import { SqliteReadCache } from './sqlite-read-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'crawl-read-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Job extends Document {
  organizationId: string;
  status: string;
  n: number;
}

let files = 0;
function openStore(): { store: EmbeddedDocumentStore; path: string } {
  const path = join(dir, `store-${(files += 1)}.db`);
  return { store: new EmbeddedDocumentStore({ path }), path };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SqliteReadCache', () => {
  it('answers what it was given until the document is forgotten, by id or by table', () => {
    const cache = new SqliteReadCache({ maxChars: 10_000, maxEntryChars: 1_000 });
    cache.set('c_jobs', 'a', '{"n":1}');
    cache.set('c_jobs', 'b', null);
    cache.set('c_jobs', 'c', '{"n":2}');
    cache.set('c_other', 'a', '{"n":3}');
    expect(cache.get('c_jobs', 'a')).toBe('{"n":1}');
    expect(cache.get('c_jobs', 'b')).toBeNull();
    expect(cache.get('c_jobs', 'd')).toBeUndefined();

    cache.forget('c_jobs', 'a');
    expect(cache.get('c_jobs', 'a')).toBeUndefined();
    expect(cache.get('c_jobs', 'c')).toBe('{"n":2}');

    cache.forgetTable('c_jobs');
    expect(cache.get('c_jobs', 'c')).toBeUndefined();
    expect(cache.get('c_other', 'a')).toBe('{"n":3}');
    expect(cache.size).toEqual({ documents: 1, chars: 'c_other\u0000a'.length + '{"n":3}'.length });
  });

  it('stays within its budget, dropping the least recently used documents, and skips oversized ones', () => {
    // Key "t\0x" is 3 characters, each text 7: 10 per document.
    const cache = new SqliteReadCache({ maxChars: 30, maxEntryChars: 12 });
    cache.set('t', 'a', '1234567');
    cache.set('t', 'b', '1234567');
    cache.set('t', 'c', '1234567');
    expect(cache.get('t', 'a')).toBe('1234567'); // a is now the most recent
    cache.set('t', 'd', '1234567');
    expect(cache.get('t', 'b')).toBeUndefined();
    expect(cache.get('t', 'a')).toBe('1234567');
    expect(cache.size.chars).toBeLessThanOrEqual(30);

    cache.set('t', 'e', 'x'.repeat(20));
    expect(cache.get('t', 'e')).toBeUndefined();

    // Replacing a document counts its size once.
    cache.set('t', 'a', '12');
    expect(cache.size.chars).toBe(5 + 10 + 10);
  });
});

describe('reads by id answered from the cache', () => {
  it('match exactly what SQLite matches for the same filter', async () => {
    const { store } = openStore();
    const docs = store.collection<Document & Record<string, unknown>>('docs');
    await docs.insertMany([
      { _id: 'a', s: 'x', n: 1, b: true, z: null, nested: { k: 'v', deeper: { m: 2 } }, list: ['x'], obj: { p: 1 } },
      { _id: 'b', s: 'y', n: 0, b: false, nested: { k: 'w' }, list: [], one: 1 },
    ]);
    const filters = [
      { s: 'x' },
      { s: 'y' },
      { n: 1 },
      { n: true },
      { b: true },
      { b: 1 },
      { n: 0 },
      { b: false },
      { one: true },
      { z: null },
      { missing: null },
      { s: null },
      { 'nested.k': 'v' },
      { 'nested.deeper.m': 2 },
      { 'nested.deeper.m': '2' },
      { 'nested.k': null },
      { 'nested.none': null },
      { list: 'x' },
      { 's.k': null },
      { 'list.k': null },
      { 'list.length': 1 },
      { 's.length': 1 },
      { s: 'x', n: 1 },
      { s: 'x', n: 2 },
    ];
    for (const id of ['a', 'b', 'c']) {
      for (const rest of filters) {
        const filter = { _id: id, ...rest };
        // Twice: the first read fills the cache, the second is answered from it.
        const bySql = (await docs.find(filter, { limit: 1 }))[0] ?? null;
        expect({ filter, doc: await docs.findOne(filter) }).toEqual({ filter, doc: bySql });
        expect({ filter, doc: await docs.findOne(filter) }).toEqual({ filter, doc: bySql });
      }
    }
    await store.close();
  });
});

describe('reads by id on the embedded store', () => {
  it('follow the store’s own writes: updates, conditional filters, inserts after a miss, deletes', async () => {
    const { store } = openStore();
    const jobs = store.collection<Job>('jobs');
    await jobs.insertOne({ _id: 'j1', organizationId: 'o1', status: 'queued', n: 1 });
    expect(await jobs.findOne({ _id: 'j1', organizationId: 'o1' })).toMatchObject({ n: 1 });
    expect(await jobs.findOne({ _id: 'j1', status: 'queued' })).not.toBeNull();

    await jobs.updateOne({ _id: 'j1' }, { $set: { status: 'running' }, $inc: { n: 1 } });
    expect(await jobs.findOne({ _id: 'j1', organizationId: 'o1' })).toMatchObject({ n: 2, status: 'running' });
    expect(await jobs.findOne({ _id: 'j1', status: 'queued' })).toBeNull();

    await jobs.updateMany({ organizationId: 'o1' }, { $set: { status: 'done' } });
    expect(await jobs.findOne({ _id: 'j1' })).toMatchObject({ status: 'done' });

    expect(await jobs.findOne({ _id: 'j2' })).toBeNull();
    await jobs.insertOne({ _id: 'j2', organizationId: 'o1', status: 'queued', n: 5 });
    expect(await jobs.findOne({ _id: 'j2' })).toMatchObject({ n: 5 });
    expect(await jobs.findOne({ _id: 'j3' })).toBeNull();
    await jobs.updateOne({ _id: 'j3' }, { $set: { organizationId: 'o2', status: 'queued', n: 7 } }, { upsert: true });
    expect(await jobs.findOne({ _id: 'j3' })).toMatchObject({ n: 7 });

    await jobs.deleteMany({ status: 'done' });
    expect(await jobs.findOne({ _id: 'j1' })).toBeNull();
    await jobs.deleteOne({ _id: 'j2' });
    expect(await jobs.findOne({ _id: 'j2' })).toBeNull();
    await store.close();
  });

  it('hand out a fresh document each time: changing one read does not change the next', async () => {
    const { store } = openStore();
    const jobs = store.collection<Job>('jobs');
    await jobs.insertOne({ _id: 'j1', organizationId: 'o1', status: 'queued', n: 1 });
    const first = (await jobs.findOne({ _id: 'j1' })) as Job;
    first.status = 'changed by the caller';
    expect(await jobs.findOne({ _id: 'j1' })).toMatchObject({ status: 'queued' });
    await store.close();
  });

  it('keep the documents of a write that rolled back as they were', async () => {
    const { store } = openStore();
    const jobs = store.collection<Job>('jobs');
    await jobs.ensureIndexes([{ keys: { n: 1 }, name: 'n_unique', unique: true }]);
    await jobs.insertMany([
      { _id: 'a', organizationId: 'o1', status: 'queued', n: 1 },
      { _id: 'b', organizationId: 'o1', status: 'queued', n: 2 },
    ]);
    expect(await jobs.findOne({ _id: 'a' })).toMatchObject({ n: 1 });
    // Both documents to the same unique n: the second collides and the whole update rolls back.
    await expect(jobs.updateMany({ organizationId: 'o1' }, { $set: { n: 9 } })).rejects.toThrow();
    expect(await jobs.findOne({ _id: 'a' })).toMatchObject({ n: 1 });
    expect(await jobs.findOne({ _id: 'b' })).toMatchObject({ n: 2 });
    await store.close();
  });

  it('see another connection of this process at once, once it has committed', async () => {
    const { store, path } = openStore();
    const other = new EmbeddedDocumentStore({ path });
    const jobs = store.collection<Job>('jobs');
    await jobs.insertOne({ _id: 'j1', organizationId: 'o1', status: 'queued', n: 1 });
    await store.pendingCommit();
    expect(await jobs.findOne({ _id: 'j1' })).toMatchObject({ n: 1 });

    await other.collection<Job>('jobs').updateOne({ _id: 'j1' }, { $set: { n: 2 } });
    await other.pendingCommit();
    expect(await jobs.findOne({ _id: 'j1' })).toMatchObject({ n: 2 });
    await other.close();
    await store.close();
  });

  it('see another process’s commit within the check interval', async () => {
    const { store, path } = openStore();
    const jobs = store.collection<Job>('jobs');
    await jobs.insertOne({ _id: 'j1', organizationId: 'o1', status: 'queued', n: 1 });
    await store.pendingCommit();
    expect(await jobs.findOne({ _id: 'j1' })).toMatchObject({ n: 1 });

    const script = `
      const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(${JSON.stringify(path)});
      db.exec('PRAGMA busy_timeout = 5000');
      db.prepare("UPDATE c_jobs SET doc = json_set(doc, '$.n', 42) WHERE id = 'j1'").run();
      db.close();`;
    execFileSync(process.execPath, ['-e', script]);
    await pause(FOREIGN_COMMIT_CHECK_MS + 1);
    expect(await jobs.findOne({ _id: 'j1' })).toMatchObject({ n: 42 });
    await store.close();
  });
});
