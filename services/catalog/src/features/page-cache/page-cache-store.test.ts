import type { ResultRecord } from '@crawl/contracts';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_CACHE_COLLECTION, type PageCacheEntryDoc, PageCacheStore } from './page-cache-store.ts';

const stores: EmbeddedDocumentStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function open(settings: Partial<{ maxEntries: number; maxEntryBytes: number; retentionMs: number }> = {}) {
  const store = EmbeddedDocumentStore.inMemory();
  stores.push(store);
  let now = Date.parse('2026-11-20T10:00:00.000Z');
  const cache = new PageCacheStore(store, {
    maxEntries: 100,
    maxEntryBytes: 64 * 1024,
    retentionMs: 86_400_000,
    now: () => new Date(now),
    ...settings,
  });
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  return { store, cache, at, advance: (ms: number) => (now += ms) };
}

const key = (n: number) => n.toString(16).padStart(64, '0');
const record = (asin: string, extra: Record<string, unknown> = {}) =>
  ({
    asin,
    title: `Lamp ${asin}`,
    url: `https://www.amazon.com/dp/${asin}`,
    quality: { status: 'complete', missing: [] },
    missingFields: [],
    ...extra,
  }) as unknown as ResultRecord;

describe('PageCacheStore', () => {
  it('answers a fetch within the age, misses one past it or never made', async () => {
    const { cache, at } = open();
    await cache.init();
    await cache.store(key(1), [record('B000000001')], at(30));
    expect(await cache.lookup(key(1), 3_600_000)).toMatchObject({ fetchedAt: at(30), records: [{ asin: 'B000000001' }] });
    expect(await cache.lookup(key(1), 10 * 60_000)).toBeUndefined();
    expect(await cache.lookup(key(2), 3_600_000)).toBeUndefined();
  });

  it('keeps only the page: no job checks, no organization, job or project field, and no owner in the entry', async () => {
    const { cache, store, at } = open();
    await cache.init();
    const own = { organizationId: 'org_secret', projectId: 'prj_secret', jobId: 'job_secret', location: { verified: true } };
    await cache.store(key(1), [record('B000000001', own)], at(1));
    const entries = await store.collection<PageCacheEntryDoc>(PAGE_CACHE_COLLECTION).find({});
    expect(entries).toHaveLength(1);
    const text = JSON.stringify(entries);
    for (const secret of ['org_secret', 'prj_secret', 'job_secret', 'organizationId', 'quality', 'location']) expect(text).not.toContain(secret);
    expect(Object.keys(entries[0] ?? {}).sort()).toEqual(['_id', 'bytes', 'expiresAt', 'fetchedAt', 'records']);
  });

  it('never lets an older fetch replace a newer one', async () => {
    const { cache, at } = open();
    await cache.store(key(1), [record('NEW')], at(5));
    expect(await cache.store(key(1), [record('OLD')], at(50))).toBe(false);
    expect((await cache.lookup(key(1), 3_600_000))?.records[0]).toMatchObject({ asin: 'NEW' });
    await cache.store(key(1), [record('NEWER')], at(1));
    expect((await cache.lookup(key(1), 3_600_000))?.records[0]).toMatchObject({ asin: 'NEWER' });
  });

  it('evicts the oldest fetches past the entry bound, expired ones first, and skips an entry over the byte bound', async () => {
    const { cache, store, at } = open({ maxEntries: 3, maxEntryBytes: 2048, retentionMs: 60 * 60_000 });
    await cache.init();
    await cache.store(key(9), [record('EXPIRED')], at(90));
    for (let n = 1; n <= 5; n += 1) await cache.store(key(n), [record(`B00000000${n}`)], at(60 - n * 10));
    expect(await cache.store(key(7), [record('BIG', { description: 'x'.repeat(4096) })], at(0))).toBe(false);
    expect(await cache.bound()).toBe(3);
    const kept = await store.collection<PageCacheEntryDoc>(PAGE_CACHE_COLLECTION).find({}, { sort: { fetchedAt: 1 } });
    expect(kept.map((entry) => entry._id)).toEqual([key(3), key(4), key(5)]);
  });
});
