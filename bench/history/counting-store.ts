import type { Collection, Document, DocumentStore } from '../../packages/storage/src/index.ts';

/** Store operations made through a counting store (every collection method call is one). */
export interface OperationCount {
  calls: number;
}

function countingCollection<T extends Document>(collection: Collection<T>, count: OperationCount): Collection<T> {
  return new Proxy(collection, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        count.calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * `store` with every collection operation counted in `count`: what tells how many more round
 * trips a path makes than another on the same store, so a slow server's share of a ratio can be
 * told from the code's.
 */
export function countingStore(store: DocumentStore, count: OperationCount): DocumentStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'collection') {
        return <T extends Document>(name: string, options?: Parameters<DocumentStore['collection']>[1]) =>
          countingCollection(target.collection<T>(name, options), count);
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The store's bare round trip: ms per operation over `operations` alternating point reads and
 * point updates of one small document, through the same adapter and driver as the catalog's.
 */
export async function roundTripMs(store: DocumentStore, operations: number): Promise<number> {
  const probes = store.collection<Document & { n: number }>('bench_round_trips');
  await probes.updateOne({ _id: 'probe' }, { $set: { n: 0 } }, { upsert: true });
  const started = performance.now();
  for (let i = 0; i < operations; i += 1) {
    if (i % 2 === 0) await probes.findOne({ _id: 'probe' });
    else await probes.updateOne({ _id: 'probe' }, { $inc: { n: 1 } });
  }
  return (performance.now() - started) / operations;
}
