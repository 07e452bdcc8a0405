// The database's share of the split-on-MongoDB figure: the raw `mongodb` driver's findOne by _id
// of the very job document the service reads, against the same server, from `connections`
// concurrent loops for a fixed time (no adapter, no service, no HTTP). If this is not far above the
// service's req/s, the database is what bounds the read.
import { MongoClient } from 'mongodb';

export class DriverBaseline {
  readonly #client: MongoClient;
  readonly #database: string;
  readonly #collection: string;

  private constructor(client: MongoClient, database: string, collection: string) {
    this.#client = client;
    this.#database = database;
    this.#collection = collection;
  }

  static async open(url: string, database: string, collection: string, connections: number): Promise<DriverBaseline> {
    const client = new MongoClient(url, { maxPoolSize: connections, serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    return new DriverBaseline(client, database, collection);
  }

  /** findOne({_id}) per second over `seconds`, `connections` loops each waiting for its answer. */
  async findOnesPerSecond(id: string, connections: number, seconds: number): Promise<{ rps: number; misses: number }> {
    const collection = this.#client.db(this.#database).collection<{ _id: string }>(this.#collection);
    const deadline = performance.now() + seconds * 1000;
    let done = 0;
    let misses = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const doc = await collection.findOne({ _id: id });
          if (doc) done += 1;
          else misses += 1;
        }
      }),
    );
    return { rps: done / ((performance.now() - started) / 1000), misses };
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
