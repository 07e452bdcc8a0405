import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Document } from '@crawl/storage';
import { EmbeddedDocumentStore } from './embedded-document-store.ts';
import { SqliteCollection } from './sqlite-collection.ts';
import { describeDocumentStoreContract } from '@crawl/storage/testing';

const dir = mkdtempSync(join(tmpdir(), 'crawl-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeDocumentStoreContract('embedded (memory)', async () => EmbeddedDocumentStore.inMemory());
describeDocumentStoreContract('embedded (file)', async () => new EmbeddedDocumentStore({ path: join(dir, 'contract.db') }));

interface Job extends Document {
  organizationId: string;
  projectId: string;
  status: string;
  settled: boolean;
  n: number;
  createdAt: string;
  updatedAt: string;
}

const job = (n: number, extra: Partial<Job> = {}): Job => ({
  _id: `job_${String(n).padStart(6, '0')}`,
  organizationId: `org_${n % 5}`,
  projectId: `prj_${n % 2}`,
  status: ['queued', 'running', 'completed'][n % 3] as string,
  settled: n % 4 === 0,
  n,
  createdAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 0, 1) + ((n * 7919) % 100_000) * 1000).toISOString(),
  ...extra,
});

const JOB_INDEXES = [
  { keys: { organizationId: 1, projectId: 1, createdAt: -1 }, name: 'org_project_created' },
  { keys: { status: 1, updatedAt: 1 }, name: 'status_updated' },
] as const;

/** A second, raw connection to a store's file: what SQLite itself has on disk. */
function raw(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 200');
  return db;
}

const sqliteCollection = <T extends Document>(store: EmbeddedDocumentStore, name: string): SqliteCollection<T> => {
  const collection = store.collection<T>(name);
  if (!(collection instanceof SqliteCollection)) throw new Error('expected the SQLite collection');
  return collection;
};

describe('EmbeddedDocumentStore on SQLite', () => {
  it('serves an equality prefix plus sort from the declared compound index, without scanning the table', async () => {
    const store = EmbeddedDocumentStore.inMemory();
    const jobs = sqliteCollection<Job>(store, 'jobs');
    await jobs.ensureIndexes(JOB_INDEXES);
    await jobs.insertMany(Array.from({ length: 300 }, (_, n) => job(n)));
    const plan = (filter: Record<string, unknown>, options = {}) => jobs.explainFind(filter, options).join(' | ');

    const listing = plan({ organizationId: 'org_1', projectId: 'prj_1' }, { sort: { createdAt: -1 }, skip: 5, limit: 10 });
    expect(listing).toContain('USING INDEX ix_c_jobs__org_project_created');
    expect(listing).not.toMatch(/SCAN|TEMP B-TREE/);
    // The boolean's type check is residual, and the string range's type fence (>= '') is a second
    // bound the index serves: the index still does all the work.
    const guarded = plan({ organizationId: 'org_1', projectId: 'prj_1', settled: false, createdAt: { $lt: '2026-02' } }, { sort: { createdAt: -1 } });
    expect(guarded).toContain('USING INDEX ix_c_jobs__org_project_created (<expr>=? AND <expr>=? AND <expr>>? AND <expr><?)');
    expect(guarded).not.toMatch(/SCAN|TEMP B-TREE/);
    const due = plan({ status: { $in: ['queued', 'running', 'completed'] }, updatedAt: { $lt: '2026-01-02' } });
    expect(due).toContain('USING INDEX ix_c_jobs__status_updated');
    expect(due).not.toContain('SCAN');
    expect(plan({ _id: 'job_000001', organizationId: 'org_1' })).toContain('sqlite_autoindex_c_jobs_1');
    // The control: a field without an index is a scan, so the assertions above can fail.
    expect(plan({ n: 5 })).toMatch(/SCAN c_jobs/);

    const page = await jobs.find({ organizationId: 'org_1', projectId: 'prj_1', settled: false }, { sort: { createdAt: -1 }, skip: 2, limit: 3 });
    const expected = Array.from({ length: 300 }, (_, n) => job(n))
      .filter((j) => j.organizationId === 'org_1' && j.projectId === 'prj_1' && !j.settled)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .slice(2, 5);
    expect(page).toEqual(expected);
    await store.close();
  });

  it('has SQLite enforce a unique compound index, on insert, update, upsert and updateMany alike', async () => {
    const path = join(dir, 'unique.db');
    const store = new EmbeddedDocumentStore({ path });
    const members = store.collection<{ _id: string; organizationId: string; userId: string; role: string }>('memberships');
    await members.ensureIndexes([{ keys: { organizationId: 1, userId: 1 }, unique: true, name: 'org_user_unique' }]);
    await members.insertMany([
      { _id: 'm1', organizationId: 'o1', userId: 'u1', role: 'owner' },
      { _id: 'm2', organizationId: 'o1', userId: 'u2', role: 'member' },
      { _id: 'm3', organizationId: 'o2', userId: 'u1', role: 'member' },
    ]);
    const duplicate = await members.insertOne({ _id: 'm4', organizationId: 'o1', userId: 'u1', role: 'member' }).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(DuplicateKeyError);
    expect(duplicate).toMatchObject({ collection: 'memberships', index: 'org_user_unique' });
    await expect(members.insertOne({ _id: 'm1', organizationId: 'o9', userId: 'u9', role: 'x' })).rejects.toMatchObject({ index: '_id' });
    await expect(members.updateOne({ _id: 'm2' }, { $set: { userId: 'u1', role: 'changed' } })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(
      members.updateOne(
        { organizationId: 'o2', userId: 'u2' },
        { $set: { role: 'x' }, $setOnInsert: { _id: 'm5', organizationId: 'o1', userId: 'u1' } } as never,
        { upsert: true },
      ),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(members.updateMany({ role: 'member' }, { $set: { organizationId: 'o3', userId: 'same' } })).rejects.toBeInstanceOf(DuplicateKeyError);
    // Nothing half-written: every rejected write left the documents as they were.
    expect(await members.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'm1', organizationId: 'o1', userId: 'u1', role: 'owner' },
      { _id: 'm2', organizationId: 'o1', userId: 'u2', role: 'member' },
      { _id: 'm3', organizationId: 'o2', userId: 'u1', role: 'member' },
    ]);

    await store.pendingCommit();
    const db = raw(path);
    const index = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'c_memberships' AND sql IS NOT NULL").all();
    expect(index).toEqual([
      {
        sql: `CREATE UNIQUE INDEX "ix_c_memberships__org_user_unique" ON "c_memberships" (json_extract(doc, '$.organizationId'), json_extract(doc, '$.userId'))`,
      },
    ]);
    expect(() => db.prepare(`INSERT INTO c_memberships (id, doc) VALUES ('raw', '{"_id":"raw","organizationId":"o1","userId":"u2"}')`).run()).toThrow(
      /UNIQUE constraint failed/,
    );
    db.close();
    await store.close();
  });

  it('rolls back a whole insertMany when one document is a duplicate', async () => {
    const store = EmbeddedDocumentStore.inMemory();
    const items = store.collection<{ _id: string; n: number }>('items');
    await items.insertOne({ _id: 'b', n: 0 });
    await expect(
      items.insertMany([
        { _id: 'a', n: 1 },
        { _id: 'b', n: 2 },
        { _id: 'c', n: 3 },
      ]),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(
      items.insertMany([
        { _id: 'x', n: 1 },
        { _id: 'x', n: 2 },
      ]),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await items.find({})).toEqual([{ _id: 'b', n: 0 }]);
    await store.close();
  });

  it('keeps documents, updates and deletes across a restart, and folds the WAL back on close', async () => {
    const path = join(dir, 'restart.db');
    const first = new EmbeddedDocumentStore({ path });
    const users = first.collection<{ _id: string; email: string; n: number }>('users');
    await users.ensureIndexes([{ keys: { email: 1 }, unique: true }]);
    await users.insertOne({ _id: 'a', email: 'a@x.io', n: 1 });
    await users.insertOne({ _id: 'b', email: 'b@x.io', n: 1 });
    await users.updateOne({ _id: 'a' }, { $inc: { n: 41 } });
    await users.deleteOne({ _id: 'b' });
    await first.close();
    expect(existsSync(`${path}-wal`)).toBe(false);

    const second = new EmbeddedDocumentStore({ path });
    const reopened = second.collection<{ _id: string; email: string; n: number }>('users');
    expect(await reopened.find({})).toEqual([{ _id: 'a', email: 'a@x.io', n: 42 }]);
    // The unique index lives in the file: enforced before ensureIndexes runs again.
    await expect(reopened.insertOne({ _id: 'c', email: 'a@x.io', n: 0 })).rejects.toThrow(/Duplicate/);
    await reopened.ensureIndexes([{ keys: { email: 1 }, unique: true }]);
    await expect(reopened.insertOne({ _id: 'c', email: 'a@x.io', n: 0 })).rejects.toMatchObject({ index: 'email' });
    await second.close();
  });

  it('checkpoints the WAL into the database file in the background while open', async () => {
    const path = join(dir, 'checkpoint.db');
    const store = new EmbeddedDocumentStore({ path });
    const rows = store.collection<{ _id: string; text: string }>('rows');
    const before = statSync(path).size;
    await rows.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: `r${i}`, text: 'x'.repeat(200) })));
    // Automatic checkpoints are off on the store's connection: only the background one moves pages.
    const deadline = Date.now() + 5000;
    while (statSync(path).size < before + 200_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(path).size).toBeGreaterThan(before + 200_000);
    expect(await rows.count({})).toBe(2000);
    await store.close();
  });

  it('opens a file in the old format, adds indexes to it and queries it', async () => {
    const path = join(dir, 'old-format.db');
    const old = new DatabaseSync(path);
    old.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    const schema = 'CREATE TABLE "c_jobs" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)';
    old.exec(schema.replace('TABLE', 'TABLE IF NOT EXISTS'));
    const write = old.prepare('INSERT INTO "c_jobs" (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc');
    const docs = Array.from({ length: 120 }, (_, n) => job(n));
    for (const doc of docs) write.run(doc._id, JSON.stringify(doc));
    old.close();

    const store = new EmbeddedDocumentStore({ path });
    const jobs = sqliteCollection<Job>(store, 'jobs');
    expect(await jobs.count({})).toBe(120);
    await jobs.ensureIndexes(JOB_INDEXES);
    expect(jobs.explainFind({ organizationId: 'org_2', projectId: 'prj_0' }, { sort: { createdAt: -1 } }).join(' ')).toContain(
      'ix_c_jobs__org_project_created',
    );
    const listed = await jobs.find({ organizationId: 'org_2', projectId: 'prj_0' }, { sort: { createdAt: -1 }, limit: 3 });
    expect(listed.map((j) => j.n)).toEqual([112, 102, 92]);
    expect(await jobs.count({ status: 'completed', settled: true })).toBe(docs.filter((j) => j.status === 'completed' && j.settled).length);
    expect(await jobs.updateOne({ _id: 'job_000007', status: 'running' }, { $set: { status: 'completed' } })).toMatchObject({ n: 7, status: 'completed' });
    await store.close();

    const db = raw(path);
    expect(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'c_jobs'").get()).toEqual({ sql: schema });
    expect(JSON.parse(String(db.prepare("SELECT doc FROM c_jobs WHERE id = 'job_000007'").get()?.doc))).toEqual({ ...docs[7], status: 'completed' });
    db.close();
  });

  it('gives a table with documents and indexes its streamed-field column once, keeping both, and reads the column', async () => {
    const path = join(dir, 'streamed.db');
    const first = new EmbeddedDocumentStore({ path });
    const before = sqliteCollection<Job>(first, 'jobs');
    await before.ensureIndexes([...JOB_INDEXES, { keys: { n: 1 }, unique: true, name: 'n_unique' }]);
    await before.insertMany(Array.from({ length: 50 }, (_, n) => job(n)));
    await first.close();

    const second = new EmbeddedDocumentStore({ path });
    const jobs = second.collection<Job>('jobs', { streamedFields: ['status'] }) as SqliteCollection<Job>;
    // The indexes came through the rebuild (the unique one holds before ensureIndexes runs again).
    await expect(jobs.insertOne(job(61, { n: 8 }))).rejects.toBeInstanceOf(DuplicateKeyError);
    await jobs.ensureIndexes([...JOB_INDEXES, { keys: { n: 1 }, unique: true, name: 'n_unique' }]);
    expect(jobs.explainFind({ organizationId: 'org_2', projectId: 'prj_0' }, { sort: { createdAt: -1 } }).join(' ')).toContain(
      'ix_c_jobs__org_project_created',
    );
    await expect(jobs.insertOne(job(60, { n: 7 }))).rejects.toBeInstanceOf(DuplicateKeyError);
    await jobs.updateOne({ _id: 'job_000003' }, { $set: { status: 'archived' } });
    const statuses: string[] = [];
    for await (const batch of jobs.streamJson({}, 'status', { sort: { n: 1 } })) statuses.push(...batch);
    expect(statuses).toHaveLength(50);
    expect(statuses[3]).toBe('"archived"');
    expect(statuses[4]).toBe(JSON.stringify(job(4).status));
    await second.close();

    const db = raw(path);
    expect(String(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'c_jobs'").get()?.sql)).toContain('"f_status" TEXT GENERATED ALWAYS AS');
    expect(db.prepare('SELECT f_status AS s FROM c_jobs WHERE id = ?').get('job_000003')).toEqual({ s: '"archived"' });
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE tbl_name = 'c_jobs' AND type = 'index' AND sql IS NOT NULL").get()).toEqual({ n: 3 });
    db.close();

    // Opening it again with the same declaration leaves the table alone.
    const third = new EmbeddedDocumentStore({ path });
    const again = third.collection<Job>('jobs', { streamedFields: ['status'] });
    expect(await again.count({})).toBe(50);
    await third.close();
  });

  it('removes documents past a TTL index on ensureIndexes and on inserts, keeping the others', async () => {
    const store = EmbeddedDocumentStore.inMemory();
    const pages = store.collection<Document & { expiresAt: Date; n: number }>('ttl_pages');
    await pages.insertOne({ _id: 'gone', n: 1, expiresAt: new Date(Date.now() - 1_000) });
    await pages.insertOne({ _id: 'kept', n: 2, expiresAt: new Date(Date.now() + 3_600_000) });
    await pages.ensureIndexes([{ keys: { expiresAt: 1 }, name: 'expires_at', expireAfterSeconds: 0 }]);
    expect((await pages.find({})).map((d) => d._id)).toEqual(['kept']);
    // A document already expired when written goes with the next sweep (at most once a second).
    await pages.insertOne({ _id: 'late', n: 3, expiresAt: new Date(Date.now() - 1_000) });
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await pages.insertOne({ _id: 'kept-too', n: 4, expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await pages.find({}, { sort: { n: 1 } })).map((d) => d._id)).toEqual(['kept', 'kept-too']);
    await store.close();
  });

  it('counts and pages a few thousand documents correctly', async () => {
    const store = new EmbeddedDocumentStore({ path: join(dir, 'paging.db') });
    const jobs = store.collection<Job>('jobs');
    await jobs.ensureIndexes(JOB_INDEXES);
    const all = Array.from({ length: 4000 }, (_, n) => job(n));
    await jobs.insertMany(all);
    const filter = { organizationId: 'org_3', projectId: 'prj_1' };
    const expected = all.filter((j) => j.organizationId === 'org_3' && j.projectId === 'prj_1').sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    expect(await jobs.count(filter)).toBe(expected.length);
    expect(await jobs.count({})).toBe(4000);
    expect(await jobs.count({ status: { $in: ['queued', 'running'] }, n: { $gte: 1000, $lt: 3000 } })).toBe(
      all.filter((j) => j.status !== 'completed' && j.n >= 1000 && j.n < 3000).length,
    );
    const paged: Job[] = [];
    for (let offset = 0; offset < expected.length + 50; offset += 50)
      paged.push(...(await jobs.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: offset, limit: 50 })));
    expect(paged).toEqual(expected);
    const byUpdate = await jobs.find({ status: 'running' }, { sort: { updatedAt: 1, _id: 1 }, skip: 300, limit: 7 });
    const expectedByUpdate = all.filter((j) => j.status === 'running').sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a._id.localeCompare(b._id));
    expect(byUpdate).toEqual(expectedByUpdate.slice(300, 307));
    let streamed = 0;
    for await (const doc of jobs.stream(filter, { sort: { createdAt: -1 } })) if (doc.organizationId === 'org_3') streamed += 1;
    expect(streamed).toBe(expected.length);
    // Long $in lists: padded placeholder lists and, past 1024 values, a json_each lookup.
    expect(await jobs.count({ _id: { $in: all.slice(0, 3).map((j) => j._id) } })).toBe(3);
    expect(await jobs.count({ _id: { $in: [...all.slice(0, 1500).map((j) => j._id), 'nope'] } })).toBe(1500);
    expect(await jobs.count({ n: { $nin: all.slice(0, 1100).map((j) => j.n) } })).toBe(2900);
    await store.close();
  });

  it('ends the read transaction of a stream the consumer abandons', async () => {
    const path = join(dir, 'abandon.db');
    const store = new EmbeddedDocumentStore({ path });
    const rows = store.collection<{ _id: string; n: number }>('rows');
    await rows.insertMany(Array.from({ length: 1500 }, (_, n) => ({ _id: `r${n}`, n })));
    await store.pendingCommit();
    const other = raw(path);
    // A full checkpoint (TRUNCATE) waits for readers: it reports busy while a stream is open.
    const checkpointBusy = () => {
      other.prepare(`INSERT OR REPLACE INTO c_rows (id, doc) VALUES ('other', '{"_id":"other","n":-1}')`).run();
      return other.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get()?.busy;
    };
    const open = rows.stream({}, { sort: { n: 1 } })[Symbol.asyncIterator]();
    await open.next();
    expect(checkpointBusy()).toBe(1);
    await open.return?.();
    // The store's own periodic checkpoint can hold the lock for a moment: an ended read shows as
    // not busy within a second, a read left open never does.
    await expect.poll(checkpointBusy, { timeout: 1_000, interval: 20 }).toBe(0);
    for await (const row of rows.stream({ n: { $gte: 0 } })) if (row.n === 700) break;
    await expect.poll(checkpointBusy, { timeout: 1_000, interval: 20 }).toBe(0);
    other.close();
    await store.close();
  });

  it('commits the writes of one turn together: visible here at once, to other connections once committed', async () => {
    const path = join(dir, 'group.db');
    const store = new EmbeddedDocumentStore({ path });
    const rows = store.collection<{ _id: string; n: number }>('rows');
    await rows.ensureIndexes([{ keys: { n: 1 }, name: 'n_unique', unique: true }]);
    await store.pendingCommit();
    expect(store.pendingCommit()).toBeUndefined();
    const other = raw(path);
    const count = () => Number(other.prepare('SELECT count(*) AS c FROM c_rows').get()?.c);

    const writes = [rows.insertOne({ _id: 'a', n: 1 }), rows.insertOne({ _id: 'b', n: 2 }), rows.updateOne({ _id: 'a' }, { $set: { n: 10 } })];
    // A unit that fails half-way (the second document would repeat n = 2) undoes itself, not the turn.
    const failed = rows.updateMany({}, { $set: { n: 2 } }).catch((error: unknown) => error);
    const commit = store.pendingCommit();
    expect(commit).toBeInstanceOf(Promise);
    expect(await rows.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', n: 10 },
      { _id: 'b', n: 2 },
    ]);
    expect(count()).toBe(0);
    await commit;
    await Promise.all(writes);
    expect(await failed).toBeInstanceOf(DuplicateKeyError);
    expect(other.prepare('SELECT id, doc FROM c_rows ORDER BY id').all()).toEqual([
      { id: 'a', doc: '{"_id":"a","n":10}' },
      { id: 'b', doc: '{"_id":"b","n":2}' },
    ]);
    expect(store.pendingCommit()).toBeUndefined();

    // Closing right after a write commits it.
    await rows.insertOne({ _id: 'c', n: 3 });
    await store.close();
    expect(count()).toBe(3);
    other.close();
  });

  it('rejects what it cannot translate', async () => {
    const store = EmbeddedDocumentStore.inMemory();
    const items = store.collection<{ _id: string; n: number }>('items');
    await expect(items.find({ n: { $regex: 'x' } })).rejects.toThrow('Unsupported query operator $regex');
    await expect(items.count({ $and: [{ n: 1 }] })).rejects.toThrow('Unsupported query operator $and');
    await expect(items.find({ 'a..b': 1 })).rejects.toThrow('Unsupported field path');
    expect(() => items.streamJson({}, 'a.b')).toThrow(/top-level/);
    await store.close();
  });
});
