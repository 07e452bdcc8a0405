import type { Collection, CollectionOptions, Document, DocumentStore, Filter, FindOptions } from '@crawl/storage';

export interface RecordedQuery {
  query: string;
  plan: string[];
}

interface Explainable {
  explainFind(filter: Filter, options?: FindOptions): string[];
}

const FILTERED = new Set(['findOne', 'find', 'stream', 'count', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany']);

/**
 * Wraps an embedded (SQLite) store so that every filter a repository sends is recorded with
 * SQLite's query plan for it (`explainFind`, the embedded collection's diagnostic). Repository
 * tests assert that each hot query is served by a declared index, sort included.
 */
export function recordQueryPlans(store: DocumentStore): { store: DocumentStore; queries: RecordedQuery[] } {
  const queries: RecordedQuery[] = [];
  const wrapped: DocumentStore = {
    kind: store.kind,
    ping: () => store.ping(),
    close: () => store.close(),
    collection<T extends Document>(name: string, options?: CollectionOptions): Collection<T> {
      const inner = store.collection<T>(name, options);
      const explain = (inner as unknown as Partial<Explainable>).explainFind;
      if (typeof explain !== 'function') throw new Error(`the ${store.kind} store cannot explain queries`);
      return new Proxy(inner, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (typeof value !== 'function') return value;
          if (typeof property !== 'string' || !FILTERED.has(property)) return value.bind(target);
          return (filter: Filter, ...rest: unknown[]) => {
            // find/stream/findOne take the options second, updateOne third; the plan needs the sort.
            const options = (property === 'updateOne' ? rest[1] : rest[0]) as FindOptions | undefined;
            const sort = property === 'count' || property.endsWith('Many') || property === 'deleteOne' ? undefined : options?.sort;
            queries.push({
              query: `${name}.${property} ${JSON.stringify(filter)}${sort ? ` sort ${JSON.stringify(sort)}` : ''}`,
              plan: explain.call(target, filter, sort ? { sort } : {}),
            });
            return (value as (...args: unknown[]) => unknown).apply(target, [filter, ...rest]);
          };
        },
      });
    },
  };
  return { store: wrapped, queries };
}

/** Queries whose plan reads the whole table or sorts outside an index. */
export function unservedQueries(queries: readonly RecordedQuery[]): string[] {
  return queries
    .filter((q) => q.plan.some((step) => /^SCAN |TEMP B-TREE/.test(step)) || !q.plan.some((step) => /USING (INDEX|PRIMARY KEY)/.test(step)))
    .map((q) => `${q.query}: ${q.plan.join(' / ')}`);
}

/**
 * The index each query used, in order: the declared name (`ix_c_<collection>__<name>` → `<name>`),
 * `_id` for a lookup by id, `none` without an index.
 */
export function indexesUsed(queries: readonly RecordedQuery[]): string[] {
  return queries.map((q) => {
    const plan = q.plan.join(' ');
    if (/\(id=\?\)/.test(plan)) return '_id';
    return /USING (?:COVERING )?INDEX ix_c_\w+?__(\w+)/.exec(plan)?.[1] ?? 'none';
  });
}
