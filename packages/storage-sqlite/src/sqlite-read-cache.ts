/**
 * Documents recently read by `_id`, as the JSON text SQLite returned (or null for "no such
 * document"), so a document read again and again (a job polled by its owner, a balance checked on
 * every request) skips the statement and its file locks. A write to a document forgets it.
 *
 * Bounded by the total length of the cached texts; the least recently used documents go first.
 * The connection decides when everything is forgotten (another connection's commit, a rollback).
 */
export class SqliteReadCache {
  /** `table \0 id` → the document's text, or null when it does not exist. */
  readonly #documents = new Map<string, string | null>();
  readonly #maxChars: number;
  readonly #maxEntryChars: number;
  #chars = 0;

  constructor(options: { maxChars: number; maxEntryChars: number }) {
    this.#maxChars = options.maxChars;
    this.#maxEntryChars = options.maxEntryChars;
  }

  /** The cached text, null for a document known not to exist, undefined when not cached. */
  get(table: string, id: string): string | null | undefined {
    const key = documentKey(table, id);
    const text = this.#documents.get(key);
    if (text === undefined) return undefined;
    // Most recently used last (Map keeps insertion order).
    this.#documents.delete(key);
    this.#documents.set(key, text);
    return text;
  }

  set(table: string, id: string, text: string | null): void {
    if (text !== null && text.length > this.#maxEntryChars) return;
    const key = documentKey(table, id);
    this.#drop(key);
    this.#documents.set(key, text);
    this.#chars += sizeOf(key, text);
    for (const oldest of this.#documents.keys()) {
      if (this.#chars <= this.#maxChars) return;
      this.#drop(oldest);
    }
  }

  /** Forgets one document (it is being written). */
  forget(table: string, id: string): void {
    this.#drop(documentKey(table, id));
  }

  /** Forgets a table's documents (a write whose documents are not known one by one). */
  forgetTable(table: string): void {
    const prefix = `${table}\u0000`;
    for (const key of this.#documents.keys()) if (key.startsWith(prefix)) this.#drop(key);
  }

  clear(): void {
    this.#documents.clear();
    this.#chars = 0;
  }

  /** Cached documents and characters (keys and texts), for tests and diagnostics. */
  get size(): { documents: number; chars: number } {
    return { documents: this.#documents.size, chars: this.#chars };
  }

  #drop(key: string): void {
    const text = this.#documents.get(key);
    if (text === undefined) return;
    this.#documents.delete(key);
    this.#chars -= sizeOf(key, text);
  }
}

function documentKey(table: string, id: string): string {
  return `${table}\u0000${id}`;
}

function sizeOf(key: string, text: string | null): number {
  return key.length + (text?.length ?? 0);
}
