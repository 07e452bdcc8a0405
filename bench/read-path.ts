// Read-path benchmark: `GET /jobs/:id` through the service ÷ a bare Fastify 5 + JWT route answering
// the same body (bench/read-path/bare-server.ts), in three deployments: the all-in-one, split
// services on embedded stores (gateway → catalog over HTTP) and split on MongoDB-wire + Redis
// (with the raw driver's findOne by _id on the same server as the database's share). autocannon on
// 127.0.0.1, interleaved rounds (bare, service / service, bare, …), median of per-round ratios,
// load average printed around every round.
// Run: pnpm bench read-path   (knobs: READ_SETTINGS below; method and figures: docs/benchmarks.md, "Read path")
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { MongoClient } from 'mongodb';
import { DriverBaseline } from './read-path/driver-baseline.ts';
import { startAllInOne, startSplit, type Topology, type TopologyName } from './read-path/topologies.ts';
import { Api, type Org } from './storage/api.ts';
import { describeFailures, load as autocannon, type LoadResult } from './storage/load.ts';
import { interleaved, load as loadAverage, note, ratioOfRounds } from './storage/measure.ts';
import { REPO_ROOT, startChild, freePort } from './storage/server.ts';

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be an integer ≥ 1 (got "${raw}")`);
  return value;
}

export const READ_SETTINGS = {
  rounds: int('BENCH_ROUNDS', 5),
  seconds: int('BENCH_READ_SECONDS', 5),
  connections: int('BENCH_READ_CONNECTIONS', 10),
  warmupSeconds: int('BENCH_WARMUP_SECONDS', 5),
  startTimeoutMs: int('BENCH_START_TIMEOUT_SECONDS', 60) * 1000,
  variants: (process.env.BENCH_READ_VARIANTS ?? 'all-in-one,split,split-mongo').split(',').map((v) => v.trim()) as TopologyName[],
  mongoUrl: process.env.BENCH_MONGO_URL || process.env.TEST_MONGO_URL || undefined,
  redisUrl: process.env.REDIS_URL || process.env.TEST_REDIS_URL || undefined,
};

const GOALS: Record<TopologyName, number> = { 'all-in-one': 0.6, split: 0.4, 'split-mongo': 0.25 };

interface Row {
  variant: TopologyName;
  ratio: number;
  goal: number;
  serviceRps: number[];
  bareRps: number[];
  bytes: { service: number; bare: number };
  driver?: { rps: number[]; ratio: number };
  /** CPU µs per answered request: the bare server's, and the deployment's summed over its processes. */
  cpuUs: { bare: number[]; service: number[] };
}

/** User + system CPU of a process so far, in µs (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After "pid (comm) ": state is field 3, utime 14 and stime 15 (1-based): indexes 11 and 12 here.
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Status line, headers and body of one answer, in bytes, as sent on the wire (chunked framing aside). */
function responseBytes(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2) bytes += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

/** An organization with one job, settled when the deployment crawls (the all-in-one), and its body. */
async function readTarget(topology: Topology): Promise<{ org: Org; jobId: string; body: string }> {
  const api = new Api(topology.url, 'unused');
  const org = await api.registerOrg('read');
  const project = await api.createProject(org, 'bench: read path');
  const job = await api.createJob(org, project, ['bench read path']);
  // A job that changes while it is read would change the answer's size: wait for it to settle (≤ 30 s).
  for (let waited = 0; waited < 30_000 && topology.name === 'all-in-one'; waited += 250) {
    if (['succeeded', 'failed', 'partial', 'cancelled'].includes((await api.getJob(org, job.id)).status)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const read = await api.call('GET', `/jobs/${job.id}`, { token: org.token });
  if (read.status !== 200) throw new Error(`GET /jobs/${job.id}: ${read.status}`);
  return { org, jobId: job.id, body: JSON.stringify(read.body) };
}

function checked(what: string, result: LoadResult): number {
  const failures = describeFailures(result);
  if (result.ok === 0) throw new Error(`${what}: no 2xx answers (${failures})`);
  if (failures) note(`${what}: ${failures}`);
  return result.rps;
}

async function measure(topology: Topology, stores: { mongoUrl: string; dbPrefix: string } | undefined): Promise<Row> {
  const S = READ_SETTINGS;
  const { org, jobId, body } = await readTarget(topology);
  const port = await freePort();
  const bare = await startChild({
    name: 'the bare read server',
    args: ['bench/read-path/bare-server.ts'],
    cwd: REPO_ROOT,
    env: { NODE_ENV: 'production', PORT: String(port), BARE_JWT_SECRET: topology.jwtSecret, BARE_BODY: body },
    port,
    readyPath: '/ready',
    startTimeoutMs: S.startTimeoutMs,
  });
  const driver = stores ? await DriverBaseline.open(stores.mongoUrl, `${stores.dbPrefix}catalog`, 'jobs', S.connections) : undefined;
  try {
    const path = `/jobs/${jobId}`;
    const bytes = { service: await responseBytes(topology.url + path, org.token), bare: await responseBytes(bare.url + path, org.token) };
    note(`${topology.name}: answer ${bytes.service} bytes (bare ${bytes.bare}), pids ${topology.processes.map((p) => p.pid).join(' ')} (bare ${bare.pid})`);
    const run = (url: string, seconds: number) => autocannon({ url, path, token: org.token, connections: S.connections, seconds, timeoutSeconds: 10 });
    // CPU per request is what the throughput ratio measures when the machine is busy with other
    // work too: it does not depend on how much of the cores the run got.
    const cpu: Record<'bare' | 'service', number[]> = { bare: [], service: [] };
    const measured = async (name: 'bare' | 'service', url: string, pids: number[]) => {
      const before = pids.reduce((sum, pid) => sum + cpuUs(pid), 0);
      const result = await run(url, S.seconds);
      const used = pids.reduce((sum, pid) => sum + cpuUs(pid), 0) - before;
      cpu[name].push(used / Math.max(1, result.ok));
      return checked(name === 'bare' ? 'bare' : topology.name, result);
    };
    await run(bare.url, S.warmupSeconds);
    await run(topology.url, S.warmupSeconds);
    const cases = {
      bare: () => measured('bare', bare.url, [bare.pid]),
      service: () =>
        measured(
          'service',
          topology.url,
          topology.processes.map((p) => p.pid),
        ),
      ...(driver ? { driver: async () => (await driver.findOnesPerSecond(jobId, S.connections, S.seconds)).rps } : {}),
    } as Record<string, () => Promise<number>>;
    let before = loadAverage();
    const values = await interleaved(S.rounds, cases, (round, v) => {
      const after = loadAverage();
      const parts = Object.entries(v).map(([name, rps]) => `${name} ${Math.round(rps)}/s`);
      const cpuRatio = (cpu.bare.at(-1) as number) / (cpu.service.at(-1) as number);
      note(
        `round ${round + 1}: ${parts.join(', ')}; service ÷ bare ${((v.service as number) / (v.bare as number)).toFixed(3)}; ` +
          `CPU µs/request bare ${Math.round(cpu.bare.at(-1) as number)}, service ${Math.round(cpu.service.at(-1) as number)} (bare ÷ service ${cpuRatio.toFixed(3)}); load ${before} → ${after}`,
      );
      before = after;
    });
    const row: Row = {
      variant: topology.name,
      ratio: ratioOfRounds(values.service as number[], values.bare as number[]),
      goal: GOALS[topology.name],
      serviceRps: values.service as number[],
      bareRps: values.bare as number[],
      bytes,
      cpuUs: cpu,
    };
    if (values.driver) row.driver = { rps: values.driver, ratio: ratioOfRounds(values.service as number[], values.driver) };
    return row;
  } finally {
    await bare.stop();
    await driver?.close();
  }
}

async function cleanMongo(mongoUrl: string, redisUrl: string, dbPrefix: string, redisPrefix: string): Promise<void> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases) if (name.startsWith(dbPrefix)) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
  const redis = openRedis(redisUrl);
  try {
    await deleteKeys(redis, `${redisPrefix}:*`);
  } finally {
    await closeRedis(redis);
  }
}

async function runVariant(name: TopologyName): Promise<Row | string> {
  const S = READ_SETTINGS;
  if (name === 'all-in-one' || name === 'split') {
    const topology = name === 'all-in-one' ? await startAllInOne(S.startTimeoutMs) : await startSplit('split', {}, S.startTimeoutMs);
    try {
      return await measure(topology, undefined);
    } finally {
      await topology.stop();
    }
  }
  const { mongoUrl, redisUrl } = S;
  if (!mongoUrl || !redisUrl) return 'split-mongo: set BENCH_MONGO_URL (or TEST_MONGO_URL) and REDIS_URL (or TEST_REDIS_URL) to include it';
  const tag = randomUUID().replace(/-/g, '').slice(0, 8);
  const dbPrefix = `benchrp_${tag}_`;
  const redisPrefix = `benchrp${tag}`;
  note(`split-mongo: databases ${dbPrefix}*, Redis keys ${redisPrefix}:* (removed at the end)`);
  const stores = { MONGO_URL: mongoUrl, MONGO_DB_PREFIX: dbPrefix, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix };
  let topology: Topology | undefined;
  try {
    topology = await startSplit('split-mongo', stores, S.startTimeoutMs);
    return await measure(topology, { mongoUrl, dbPrefix });
  } finally {
    await topology?.stop();
    await cleanMongo(mongoUrl, redisUrl, dbPrefix, redisPrefix).catch((error) => note(`clean-up failed: ${String(error)}`));
  }
}

export async function main(): Promise<void> {
  const S = READ_SETTINGS;
  console.log(
    `GET /jobs/:id, ${S.connections} connections, ${S.rounds} interleaved rounds of ${S.seconds} s (warm-up ${S.warmupSeconds} s), ` +
      `log level ${process.env.BENCH_LOG_LEVEL ?? 'info'}; load average at start ${loadAverage()}\n`,
  );
  const rows: Row[] = [];
  const skipped: string[] = [];
  for (const name of S.variants) {
    console.log(`\n### ${name}\n`);
    try {
      const outcome = await runVariant(name);
      if (typeof outcome === 'string') skipped.push(outcome);
      else rows.push(outcome);
    } catch (error) {
      process.exitCode = 1;
      console.error(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  console.log(`\nload average at the end ${loadAverage()}\n`);
  for (const reason of skipped) console.log(`(${reason})`);
  console.log(
    '| deployment | service ÷ bare | goal | pass | service req/s (rounds) | bare req/s (rounds) | answer bytes (bare) | service ÷ driver findOne | CPU µs/request service (bare) | CPU bare ÷ service |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const list = (values: number[]) => values.map((v) => Math.round(v)).join(' / ');
  for (const r of rows) {
    const driver = r.driver ? `${r.driver.ratio.toFixed(3)} (driver ${list(r.driver.rps)})` : '—';
    console.log(
      `| ${r.variant} | ${r.ratio.toFixed(3)} | ≥ ${r.goal} | ${r.ratio >= r.goal ? 'pass' : '**fail**'} | ${list(r.serviceRps)} | ${list(r.bareRps)} | ${r.bytes.service} (${r.bytes.bare}) | ${driver} | ` +
        `${list(r.cpuUs.service)} (${list(r.cpuUs.bare)}) | ${ratioOfRounds(r.cpuUs.bare, r.cpuUs.service).toFixed(3)} |`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
