import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { DestinationFormat, ManifestPart, ResultRecord } from '@crawl/contracts';
import { csvCell, csvLine, protectCell } from '../exports/index.ts';
import { flattenItem } from '../results/index.ts';
import type { ObjectSink } from './object-sink.ts';

/** Text leaves for the store in chunks of about this many characters, not one write per row. */
const CHUNK_CHARS = 64 * 1024;

const EXTENSION: Readonly<Record<DestinationFormat, string>> = { ndjson: 'ndjson', csv: 'csv', json: 'json' };
const CONTENT_TYPE: Readonly<Record<DestinationFormat, string>> = { ndjson: 'application/x-ndjson', csv: 'text/csv', json: 'application/json' };

export interface PartPlan {
  sink: ObjectSink;
  /** `<prefix>/<jobId>`: the parts go under it. */
  folder: string;
  format: DestinationFormat;
  gzip: boolean;
  rowsPerPart: number;
  /** The job's rows as stored JSON text, in results order, a batch at a time. */
  rows: () => AsyncIterable<readonly string[]>;
  /** CSV only: the column names (flattened item keys), in order. */
  columns?: readonly string[];
}

/** `part-00001.ndjson.gz` */
export function partName(index: number, format: DestinationFormat, gzip: boolean): string {
  return `part-${String(index).padStart(5, '0')}.${EXTENSION[format]}${gzip ? '.gz' : ''}`;
}

/** One row at a time from batches, with a look ahead, so parts can end exactly at a row count. */
class RowCursor {
  readonly #batches: AsyncIterator<readonly string[]>;
  #batch: readonly string[] = [];
  #index = 0;
  #done = false;

  constructor(batches: AsyncIterable<readonly string[]>) {
    this.#batches = batches[Symbol.asyncIterator]();
  }

  async hasNext(): Promise<boolean> {
    while (this.#index >= this.#batch.length && !this.#done) {
      const next = await this.#batches.next();
      if (next.done) this.#done = true;
      else {
        this.#batch = next.value;
        this.#index = 0;
      }
    }
    return this.#index < this.#batch.length;
  }

  /** Call after hasNext() said true. */
  take(): string {
    const row = this.#batch[this.#index] as string;
    this.#index += 1;
    return row;
  }

  async close(): Promise<void> {
    await this.#batches.return?.();
  }
}

/** The text of one part: at most `limit` rows, formatted, as ~64 KB chunks. Counts rows in `counter`. */
async function* partText(cursor: RowCursor, plan: PartPlan, counter: { rows: number }): AsyncGenerator<string> {
  const columns = plan.columns ?? [];
  let buffer = plan.format === 'csv' ? csvLine(columns.map(protectCell)) : plan.format === 'json' ? '[' : '';
  const row = new Array<string>(columns.length);
  while (counter.rows < plan.rowsPerPart && (await cursor.hasNext())) {
    const text = cursor.take();
    if (plan.format === 'ndjson') buffer += `${text}\n`;
    else if (plan.format === 'json') buffer += counter.rows === 0 ? `\n${text}` : `,\n${text}`;
    else {
      const flat = flattenItem(JSON.parse(text) as ResultRecord);
      for (let i = 0; i < columns.length; i += 1) row[i] = csvCell(flat[columns[i] as string]);
      buffer += csvLine(row);
    }
    counter.rows += 1;
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer;
      buffer = '';
    }
  }
  if (plan.format === 'json') buffer += '\n]\n';
  yield buffer;
}

/** Counts and hashes the bytes as they leave for the store. */
function tap(into: { bytes: number; hash: ReturnType<typeof createHash> }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      into.bytes += chunk.length;
      into.hash.update(chunk);
      done(null, chunk);
    },
  });
}

/**
 * Streams a job's rows to the store as numbered parts of at most `rowsPerPart` rows each, one
 * part at a time: rows are read a batch at a time as the upload asks for more, so memory holds
 * a batch and the upload's parts, never the result set. A job without rows writes no part.
 * @returns the parts written, in order, with their row counts, stored sizes and SHA-256.
 */
export async function writeParts(plan: PartPlan): Promise<ManifestPart[]> {
  const cursor = new RowCursor(plan.rows());
  const parts: ManifestPart[] = [];
  try {
    while (await cursor.hasNext()) {
      const key = `${plan.folder}/${partName(parts.length + 1, plan.format, plan.gzip)}`;
      const counter = { rows: 0 };
      const measured = { bytes: 0, hash: createHash('sha256') };
      let failure: Error | null = null;
      const stages = [Readable.from(partText(cursor, plan, counter), { objectMode: false }), ...(plan.gzip ? [createGzip()] : []), tap(measured)];
      const body = pipeline(stages as [Readable, ...Transform[]], (error) => {
        if (error) failure = error;
      }) as unknown as Readable;
      await plan.sink.upload(key, body, plan.gzip ? 'application/gzip' : CONTENT_TYPE[plan.format]);
      if (failure) throw failure;
      parts.push({ key, rows: counter.rows, bytes: measured.bytes, sha256: measured.hash.digest('hex') });
    }
  } finally {
    await cursor.close();
  }
  return parts;
}
