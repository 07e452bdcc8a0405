// Target-list benchmark: a 100,000-line upload (plain text, mixed valid, invalid and duplicate
// lines) parsed, checked with a job's target rules, de-duplicated and stored in pages on the
// embedded store, against a baseline in the same run that reads and splits the same bytes into
// lines and does nothing else. Interleaved rounds; goals: ≤ 5 s and RSS growth ≤ 50 MB.
// Run: pnpm bench target-lists   (knobs: BENCH_LIST_LINES, BENCH_LIST_ROUNDS)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDocumentStore } from '../packages/storage-sqlite/src/index.ts';
import { JobInput } from '../services/catalog/src/features/jobs/index.ts';
import { splitLines, takeIn, TargetListRepository } from '../services/catalog/src/features/target-lists/index.ts';

const LINES = Number(process.env.BENCH_LIST_LINES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 3);
const CHUNK_BYTES = 64 * 1024;

/** The upload as the request stream would deliver it: 64 KiB chunks of one body. */
function uploadChunks(lines: number): Buffer[] {
  const out: string[] = [];
  for (let n = 1; n <= lines; n += 1) {
    if (n % 25 === 0) out.push(`not an asin ${n}`);
    else if (n % 10 === 0) out.push(out[out.length - 1] as string);
    else out.push(n % 3 === 0 ? `https://www.amazon.de/dp/B${String(n).padStart(9, '0')}` : `B${String(n).padStart(9, '0')}`);
  }
  const body = Buffer.from(`${out.join('\n')}\n`);
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += CHUNK_BYTES) chunks.push(body.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

async function* stream(chunks: readonly Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield chunk;
}

async function baseline(chunks: readonly Buffer[]): Promise<number> {
  const started = performance.now();
  let count = 0;
  for await (const _line of splitLines(stream(chunks), 4096)) count += 1;
  if (count !== LINES) throw new Error(`split ${count} lines, expected ${LINES}`);
  return performance.now() - started;
}

async function measured(chunks: readonly Buffer[], repository: TargetListRepository, input: JobInput, round: number) {
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const started = performance.now();
  const listId = `bench_${round}`;
  const result = await takeIn(stream(chunks), {
    type: 'details',
    format: 'text',
    check: (type, raw) => input.checkTarget(type, raw),
    writePage: async (index, targets) => {
      await repository.insertPage({ _id: `${listId}:${index}`, listId, organizationId: 'org_bench', index, targets });
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    },
  });
  const ms = performance.now() - started;
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  await repository.removePages(listId);
  return { ms, rssGrowthMb: (rssPeak - rssBefore) / 1_048_576, accepted: result.counts.accepted };
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lists-'));
  const store = new EmbeddedDocumentStore({ path: join(dir, 'catalog.sqlite') });
  const repository = new TargetListRepository(store);
  await repository.init();
  const input = new JobInput({ extraHosts: [] });
  const chunks = uploadChunks(LINES);
  console.log(
    `lines ${LINES}, bytes ${chunks.reduce((sum, c) => sum + c.length, 0)}, rounds ${ROUNDS}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const split = await baseline(chunks);
      const run = await measured(chunks, repository, input, round);
      console.log(
        `round ${round}: stored ${run.accepted} targets in ${run.ms.toFixed(0)} ms (goal ≤ 5000), RSS growth ${run.rssGrowthMb.toFixed(1)} MB (goal ≤ 50); split only ${split.toFixed(0)} ms; ratio ${(run.ms / split).toFixed(1)}×`,
      );
    }
    console.log(
      `load after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
