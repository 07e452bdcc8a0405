// Delivery benchmark: a job's rows written to the S3-compatible server as a destination writes
// them (writeParts: NDJSON text in 64 KB chunks, parts of at most 100,000 rows, bytes counted and
// hashed on the way, then manifest.json), against a bare streaming upload of the same NDJSON bytes
// by the same client (S3ObjectSink.upload, one object). Rows come from memory in both, in batches
// of 500 as the result store hands them out: the store's read is not timed, the writing is.
// ratio = bare upload ms ÷ delivery ms (1.0 = no overhead; goal ≥ 0.8). Interleaved rounds, order
// alternating. Needs TEST_S3_URL (scripts/s3.sh start).
// Run: pnpm bench delivery   (knobs: BENCH_DELIVERY_ROWS, BENCH_DELIVERY_ROUNDS, BENCH_DELIVERY_GZIP=true)
import { Readable } from 'node:stream';
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { s3ObjectSink } from '../packages/destination-s3/src/index.ts';
import { createTestBucket, TEST_S3_CREDENTIALS } from '../packages/destination-s3/src/testing/s3-test-server.ts';
import { writeParts } from '../services/catalog/src/features/destinations/index.ts';

const ROWS = Number(process.env.BENCH_DELIVERY_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 3);
const GZIP = process.env.BENCH_DELIVERY_GZIP === 'true';
const BATCH = 500;
const CHUNK_CHARS = 64 * 1024;

/** A details record's stored JSON (invented values, the shape of docs/data.md's ProductRecord), about 1 KB. */
function row(n: number): string {
  const asin = `B${String(n).padStart(9, '0')}`;
  return JSON.stringify({
    asin,
    url: `https://www.amazon.com/dp/${asin}`,
    title: `Bench product ${n} with a title long enough to look like a real listing, colour and size`,
    brand: `Brand ${n % 97}`,
    price: { amount: 10 + (n % 500) / 10, currency: 'USD' },
    rating: 3 + (n % 20) / 10,
    reviewCount: n % 5000,
    inStock: n % 7 !== 0,
    categories: ['Electronics', 'Accessories', `Node ${n % 31}`],
    images: [`https://images.example.test/${asin}-1.jpg`, `https://images.example.test/${asin}-2.jpg`],
    bullets: ['A first bullet point about the product', 'A second one about its materials', 'A third about what is in the box'],
    seller: { id: `SELLER${n % 13}`, name: `Seller ${n % 13}` },
    scrapedAt: '2026-03-01T00:00:00.000Z',
  });
}

async function* batches(rows: readonly string[]): AsyncGenerator<readonly string[]> {
  for (let at = 0; at < rows.length; at += BATCH) yield rows.slice(at, at + BATCH);
}

/** The same NDJSON text in the same 64 KB chunks, with no parts, hashing or manifest. */
async function* ndjson(rows: readonly string[]): AsyncGenerator<string> {
  let buffer = '';
  for await (const batch of batches(rows)) {
    for (const text of batch) {
      buffer += `${text}\n`;
      if (buffer.length >= CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
  }
  yield buffer;
}

export async function main(): Promise<void> {
  const url = process.env.TEST_S3_URL;
  if (!url) {
    console.log('skipped: no S3 server (TEST_S3_URL unset; `scripts/s3.sh start` prints one)');
    return;
  }
  const bucket = `bench-delivery-${randomUUID().slice(0, 8)}`;
  await createTestBucket(url, bucket);
  const sink = s3ObjectSink({ bucket, endpoint: url, ...TEST_S3_CREDENTIALS });
  const rows = Array.from({ length: ROWS }, (_, n) => row(n));
  const bytes = rows.reduce((sum, text) => sum + Buffer.byteLength(text) + 1, 0);
  console.log(`${ROWS} rows, ${(bytes / 1_048_576).toFixed(1)} MiB of NDJSON, gzip ${GZIP}, ${ROUNDS} rounds, S3 server ${url} (gofakes3 in memory)`);

  const bare = async (round: number) => {
    const started = performance.now();
    await sink.upload(`bare/${round}/all.ndjson`, Readable.from(ndjson(rows), { objectMode: false }), 'application/x-ndjson');
    return performance.now() - started;
  };
  const delivery = async (round: number) => {
    const started = performance.now();
    const folder = `delivery/${round}`;
    const parts = await writeParts({ sink, folder, format: 'ndjson', gzip: GZIP, rowsPerPart: 100_000, rows: () => batches(rows) });
    const written = parts.reduce((sum, part) => sum + part.rows, 0);
    if (written !== ROWS) throw new Error(`wrote ${written} rows, expected ${ROWS}`);
    await sink.put(`${folder}/manifest.json`, `${JSON.stringify({ rows: written, parts }, null, 2)}\n`, 'application/json');
    return performance.now() - started;
  };

  try {
    await bare(-1); // warm-up: connections, JIT
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = round % 2 === 0;
      const bareMs = first ? await bare(round) : 0;
      const deliveryMs = await delivery(round);
      const bareMsAfter = first ? bareMs : await bare(round);
      const ratio = bareMsAfter / deliveryMs;
      ratios.push(ratio);
      console.log(
        `round ${round + 1} (${first ? 'bare first' : 'delivery first'}): bare upload ${bareMsAfter.toFixed(0)} ms, delivery ${deliveryMs.toFixed(0)} ms, ratio ${ratio.toFixed(2)}; load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `ratio (bare ÷ delivery) median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} (min ${sorted[0]?.toFixed(2)}, max ${sorted.at(-1)?.toFixed(2)}); goal ≥ 0.8`,
    );
  } finally {
    sink.close();
  }
}
