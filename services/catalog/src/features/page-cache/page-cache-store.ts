import type { ResultRecord } from '@crawl/contracts';
import type { Collection, Document, DocumentStore } from '@crawl/storage';

export const PAGE_CACHE_COLLECTION = 'page_cache';

/**
 * One cached target: the records of its last fetch and when that was. Keyed by a hash of the
 * target's public identity (storefront, type, target, pages, sort, ZIP, language); nothing in it
 * says which organization, job or project asked (docs/adr/0023-shared-page-cache.md).
 */
export interface PageCacheEntryDoc extends Document {
  records: ResultRecord[];
  fetchedAt: string;
  /** When the entry goes: a Date, so MongoDB's TTL monitor removes it; the sweep does it elsewhere. */
  expiresAt: Date;
  /** Serialized size of the records, for the size bound. */
  bytes: number;
}

export interface PageCacheSettings {
  /** Most entries kept; the oldest fetches go first when a write passes it. */
  maxEntries: number;
  /** Largest entry kept (its records serialized); a larger target is not cached. Bounds the size at entries × this. */
  maxEntryBytes: number;
  /** How long an entry is kept at all (no `maxAge` can reach further). */
  retentionMs: number;
  now: () => Date;
}

export interface CachedPage {
  records: ResultRecord[];
  fetchedAt: string;
}

/**
 * Fields a record may carry that belong to the job that made it rather than to the page: the
 * checks against the job's required fields and postal code (redone for each job on a hit), and
 * anything naming an owner, should a record ever carry one. None of them is stored.
 */
const NOT_OF_THE_PAGE = new Set(['quality', 'location', 'cachedAt', 'organizationId', 'projectId', 'jobId', 'targetIndex', 'createdBy', 'userId']);

/** The page's own fields of a record: what any organization may be given. */
export function publicRecord(record: ResultRecord): ResultRecord {
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) if (!NOT_OF_THE_PAGE.has(field)) kept[field] = value;
  return kept as ResultRecord;
}

/** Writes between two checks of the bounds: a count per write would cost more than the write. */
const BOUND_CHECK_EVERY = 50;

/**
 * The shared page cache in catalog's database, bounded in entries (each at most `maxEntryBytes`),
 * the oldest fetch out first.
 */
export class PageCacheStore {
  readonly #entries: Collection<PageCacheEntryDoc>;
  readonly #settings: PageCacheSettings;
  #writesSinceCheck = 0;
  #bounding: Promise<number> | undefined;

  constructor(store: DocumentStore, settings: PageCacheSettings) {
    this.#entries = store.collection<PageCacheEntryDoc>(PAGE_CACHE_COLLECTION);
    this.#settings = settings;
  }

  async init(): Promise<void> {
    await this.#entries.ensureIndexes([
      { keys: { fetchedAt: 1 }, name: 'fetched_at' },
      { keys: { expiresAt: 1 }, name: 'expires_at', expireAfterSeconds: 0 },
    ]);
  }

  /** The records of a fetch of `key` at most `maxAgeMs` old, or undefined. */
  async lookup(key: string, maxAgeMs: number): Promise<CachedPage | undefined> {
    const oldest = new Date(this.#settings.now().getTime() - maxAgeMs).toISOString();
    const entry = await this.#entries.findOne({ _id: key, fetchedAt: { $gte: oldest } });
    return entry === null ? undefined : { records: entry.records, fetchedAt: entry.fetchedAt };
  }

  /** Keeps a fetch of `key` (replacing an older one; an older fetch never replaces a newer). */
  async store(key: string, records: readonly ResultRecord[], fetchedAt: string): Promise<boolean> {
    const kept = records.map(publicRecord);
    const bytes = Buffer.byteLength(JSON.stringify(kept));
    if (bytes > this.#settings.maxEntryBytes) return false;
    const expiresAt = new Date(Date.parse(fetchedAt) + this.#settings.retentionMs);
    const fields = { records: kept, fetchedAt, expiresAt, bytes };
    const replaced = await this.#entries.updateOne({ _id: key, fetchedAt: { $lt: fetchedAt } }, { $set: fields });
    if (replaced === null) {
      const existing = await this.#entries.findOne({ _id: key });
      if (existing !== null) return false;
      try {
        await this.#entries.insertOne({ _id: key, ...fields });
      } catch {
        // Another writer stored the same target at the same moment: theirs stands.
        return false;
      }
    }
    this.#writesSinceCheck += 1;
    if (this.#writesSinceCheck >= BOUND_CHECK_EVERY) await this.bound();
    return true;
  }

  /**
   * Removes expired entries (MongoDB's TTL index does it too; the embedded store has only this),
   * then the oldest fetches until the entries fit the bounds. @returns entries removed.
   */
  bound(): Promise<number> {
    this.#writesSinceCheck = 0;
    this.#bounding ??= this.#bound().finally(() => {
      this.#bounding = undefined;
    });
    return this.#bounding;
  }

  async #bound(): Promise<number> {
    const { maxEntries, retentionMs, now } = this.#settings;
    let removed = await this.#entries.deleteMany({ fetchedAt: { $lt: new Date(now().getTime() - retentionMs).toISOString() } });
    const over = (await this.#entries.count({})) - maxEntries;
    if (over <= 0) return removed;
    const oldest = await this.#entries.find({}, { sort: { fetchedAt: 1 }, limit: over });
    for (let from = 0; from < oldest.length; from += 500) {
      removed += await this.#entries.deleteMany({ _id: { $in: oldest.slice(from, from + 500).map((entry) => entry._id) } });
    }
    return removed;
  }
}
