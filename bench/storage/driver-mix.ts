// The MongoDB variant's baseline of the server itself: the document operations one job create
// makes, replayed with the raw `mongodb` driver (no adapter, no lock documents, no service) against
// the same server, in a scratch database, on collections pre-filled with N jobs and what N creates
// leave behind, vs on collections holding 10. If the service's creates/s drops with N because the
// server slows down as its collections grow, this drops too, in the same run.
// One file over 300 lines on purpose: the twelve operations, the data they need and their replay
// are one description of a create, read side by side with the service's own code.
import { randomUUID } from 'node:crypto';
import { MongoClient, type Collection, type Db, type Document } from 'mongodb';

/** One job create, in order: what `bench/storage/driver-mix.ts` replays (docs/benchmarks.md lists it). */
export const CREATE_MIX = [
  'projects.findOne({_id})',
  'ledger.findOne({_id: slot})',
  'reservations.insertOne',
  'ledger.insertOne',
  'balances.findOneAndUpdate({_id, version})',
  'ledger.updateOne({_id}, applied)',
  'reservations.updateOne({_id, status}, held)',
  'usage_marks.insertOne',
  'usage.findOneAndUpdate({_id}, $inc)',
  'jobs.insertOne',
  'project_job_counts.updateOne({_id}, $inc, upsert)',
  'audit_events.insertOne',
] as const;

/** Per job the service leaves this many documents behind in each growing collection. */
const LEDGER_ENTRIES_PER_JOB = 3;
const FILL_ORG = 'org_fill';
const PROJECT = 'prj_bench';
const MONTH = '2026-01';

type Doc = Document & { _id: string };

interface Collections {
  projects: Collection<Doc>;
  jobs: Collection<Doc>;
  counts: Collection<Doc>;
  reservations: Collection<Doc>;
  ledger: Collection<Doc>;
  balances: Collection<Doc>;
  audit: Collection<Doc>;
  usage: Collection<Doc>;
  marks: Collection<Doc>;
}

/** One set of collections (`<label>_jobs`, …) and the workers' balance versions in it. */
export interface MixSet {
  label: string;
  collections: Collections;
  /** Balance version per worker organization (each worker has its own: no CAS races). */
  versions: number[];
  /** Jobs in the set's `jobs` collection now. */
  jobs: number;
}

export interface DriverRound {
  /** Jobs in the set when the round started. */
  before: number;
  /** Creates and operations that finished within the round's window (`seconds`). */
  creates: number;
  ops: number;
  /** The window; creates still running at its end finish afterwards, uncounted. */
  seconds: number;
  opsPerSecond: number;
  createsPerSecond: number;
  /** Operations that threw or whose conditional update matched nothing. */
  errors: number;
  /** p99 of one whole create (all its operations), ms. */
  createP99: number;
}

const now = () => new Date().toISOString();
const slotId = (org: string, version: number) => `led_${org}_${version}`;
const workerOrg = (worker: number) => `org_w${worker}`;
const pad = (n: number) => 'x'.repeat(n);

function jobDoc(id: string, org: string, i: number): Doc {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    _id: id,
    organizationId: org,
    projectId: PROJECT,
    type: 'search',
    status: 'queued',
    targets: [{ value: `bench keyword ${i}`, status: 'pending' }],
    config: {},
    unitsPerTarget: 1,
    creditsReserved: 1,
    bullJobId: `${id}:0`,
    resultCount: 0,
    createdBy: 'usr_bench',
    createdAt: at,
    updatedAt: at,
    settled: false,
  };
}

function ledgerDoc(org: string, version: number, jobId: string, kind: string): Doc {
  return {
    _id: slotId(org, version),
    organizationId: org,
    version,
    key: `${kind}:${jobId}`,
    kind,
    amount: 1,
    delta: { available: -1, held: 1 },
    reason: 'job.create',
    jobId,
    attempt: '1.bench',
    balanceAfter: { available: 1_000_000_000 - version, held: version, spent: 0, granted: 1_000_000_000 },
    applied: true,
    createdAt: now(),
  };
}

const reservationDoc = (jobId: string, org: string, status: string): Doc => ({
  _id: jobId,
  organizationId: org,
  jobType: 'search',
  targetCount: 1,
  unitsPerTarget: 1,
  credits: 1,
  status,
  attempt: '1.bench',
  createdAt: now(),
  updatedAt: now(),
});

const markDoc = (jobId: string, org: string, state: string): Doc => ({
  _id: `${org}:${MONTH}:${jobId}`,
  organizationId: org,
  month: MONTH,
  jobId,
  attempt: '1.bench',
  op: '1.bench',
  state,
  targets: 1,
  updatedAt: now(),
});

const auditDoc = (jobId: string, org: string): Doc => ({
  _id: `aud_${randomUUID()}`,
  organizationId: org,
  actorUserId: 'usr_bench',
  action: 'job.create',
  resourceType: 'job',
  resourceId: jobId,
  metadata: { projectId: PROJECT, type: 'search', targetCount: 1, creditsReserved: 1 },
  createdAt: now(),
});

async function insertInBatches(collection: Collection<Doc>, count: number, make: (i: number) => Doc): Promise<void> {
  for (let done = 0; done < count; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - done) }, (_, i) => make(done + i));
    await collection.insertMany(batch, { ordered: false });
  }
}

export class DriverMix {
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #concurrency: number;
  readonly database: string;

  private constructor(client: MongoClient, database: string, concurrency: number) {
    this.#client = client;
    this.#db = client.db(database);
    this.database = database;
    this.#concurrency = concurrency;
  }

  static async open(url: string, database: string, concurrency: number): Promise<DriverMix> {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000, socketTimeoutMS: 60_000, maxPoolSize: concurrency + 2, retryWrites: false });
    await client.connect();
    return new DriverMix(client, database, concurrency);
  }

  /** What the server says it is (FerretDB reports `ferretdbVersion` in buildInfo). */
  async server(): Promise<string> {
    const info = await this.#db.admin().command({ buildInfo: 1 });
    return 'ferretdbVersion' in info ? `FerretDB ${String(info.ferretdbVersion)}` : `MongoDB ${String(info.version)}`;
  }

  /**
   * Collections `<label>_*` with the service's indexes, holding `jobs` jobs and what their creates
   * left: a reservation, 3 ledger entries, an audit event and a usage mark each (fill organization),
   * plus the project, its job count, and a balance and usage counters per worker organization.
   */
  async prepare(label: string, jobs: number): Promise<MixSet> {
    const c = (name: string) => this.#db.collection<Doc>(`${label}_${name}`);
    const collections: Collections = {
      projects: c('projects'),
      jobs: c('jobs'),
      counts: c('project_job_counts'),
      reservations: c('reservations'),
      ledger: c('ledger'),
      balances: c('balances'),
      audit: c('audit_events'),
      usage: c('usage'),
      marks: c('usage_marks'),
    };
    const indexes: [Collection<Doc>, Document, string, boolean?][] = [
      [collections.projects, { organizationId: 1, createdAt: -1, _id: -1 }, 'org_created_id'],
      [collections.jobs, { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, 'org_project_created_id'],
      [collections.jobs, { organizationId: 1, projectId: 1, status: 1, createdAt: -1, _id: -1 }, 'org_project_status_created_id'],
      [collections.jobs, { status: 1, updatedAt: 1 }, 'status_updated'],
      [collections.jobs, { settled: 1, status: 1, updatedAt: 1 }, 'settled_status_updated'],
      [collections.reservations, { status: 1, createdAt: 1 }, 'status_age'],
      [collections.reservations, { status: 1, updatedAt: 1 }, 'status_touched'],
      [collections.ledger, { key: 1 }, 'idempotency_key', true],
      [collections.ledger, { organizationId: 1, version: 1 }, 'organization_version', true],
      [collections.ledger, { applied: 1, createdAt: 1 }, 'unapplied'],
      [collections.audit, { organizationId: 1, createdAt: -1, _id: -1 }, 'org_created_id'],
      [collections.audit, { organizationId: 1, action: 1, createdAt: -1, _id: -1 }, 'org_action_created_id'],
      [collections.usage, { organizationId: 1, month: 1 }, 'organization_month'],
      [collections.usage, { inflightCount: 1 }, 'inflight'],
    ];
    for (const [collection, keys, name, unique] of indexes) await collection.createIndex(keys, { name, unique: unique ?? false });
    await collections.projects.insertOne({
      _id: PROJECT,
      organizationId: FILL_ORG,
      name: 'bench: driver mix',
      archived: false,
      createdAt: now(),
      pad: pad(100),
    });
    await collections.counts.insertOne({ _id: `${FILL_ORG}:${PROJECT}`, organizationId: FILL_ORG, projectId: PROJECT, jobs });
    const jobId = (i: number) => `job_fill_${label}_${i}`;
    await insertInBatches(collections.jobs, jobs, (i) => jobDoc(jobId(i), FILL_ORG, i));
    await insertInBatches(collections.reservations, jobs, (i) => reservationDoc(jobId(i), FILL_ORG, 'settled'));
    const kinds = ['reserve', 'capture', 'release'];
    await insertInBatches(collections.ledger, jobs * LEDGER_ENTRIES_PER_JOB, (i) =>
      ledgerDoc(FILL_ORG, i + 1, jobId(Math.floor(i / LEDGER_ENTRIES_PER_JOB)), kinds[i % LEDGER_ENTRIES_PER_JOB] as string),
    );
    await insertInBatches(collections.audit, jobs, (i) => auditDoc(jobId(i), FILL_ORG));
    await insertInBatches(collections.marks, jobs, (i) => markDoc(jobId(i), FILL_ORG, 'counted'));
    const workers = Array.from({ length: this.#concurrency }, (_, w) => workerOrg(w));
    await collections.balances.insertMany(
      workers.map((org) => ({ _id: org, version: 0, available: 1_000_000_000, held: 0, spent: 0, granted: 1_000_000_000, updatedAt: now() })),
    );
    await collections.usage.insertMany(
      workers.map((org) => ({ _id: `${org}:${MONTH}`, organizationId: org, month: MONTH, jobs: 0, targets: 0, exports: 0, updatedAt: now() })),
    );
    return { label, collections, versions: workers.map(() => 0), jobs };
  }

  /** `concurrency` workers, each its own organization, creating jobs one after the other for `seconds`. */
  async run(set: MixSet, seconds: number): Promise<DriverRound> {
    const { collections: c } = set;
    const before = set.jobs;
    const began = performance.now();
    const deadline = began + seconds * 1000;
    const durations: number[] = [];
    let ops = 0;
    let creates = 0;
    let errors = 0;
    const step = async <T>(op: Promise<T>, expectResult = false): Promise<T | undefined> => {
      try {
        const result = await op;
        if (performance.now() <= deadline) ops += 1;
        if (
          expectResult &&
          (result === null || (typeof result === 'object' && 'matchedCount' in result && (result as { matchedCount: number }).matchedCount === 0))
        )
          errors += 1;
        return result;
      } catch {
        errors += 1;
        return undefined;
      }
    };
    const createOne = async (worker: number) => {
      const org = workerOrg(worker);
      const jobId = `job_${randomUUID()}`;
      const version = (set.versions[worker] as number) + 1;
      const at = now();
      await step(c.projects.findOne({ _id: PROJECT }), true);
      await step(c.ledger.findOne({ _id: slotId(org, version) }));
      await step(c.reservations.insertOne(reservationDoc(jobId, org, 'pending')));
      await step(c.ledger.insertOne({ ...ledgerDoc(org, version, jobId, 'reserve'), applied: false }));
      const moved = await step(
        c.balances.findOneAndUpdate(
          { _id: org, version: version - 1 },
          { $inc: { available: -1, held: 1 }, $set: { version, updatedAt: at } },
          { returnDocument: 'after' },
        ),
        true,
      );
      if (moved) set.versions[worker] = version;
      else {
        const current = await c.balances.findOne({ _id: org });
        set.versions[worker] = Number(current?.version ?? version);
      }
      await step(c.ledger.updateOne({ _id: slotId(org, version) }, { $set: { applied: true } }), true);
      await step(c.reservations.updateOne({ _id: jobId, status: 'pending' }, { $set: { status: 'held', updatedAt: at } }), true);
      await step(c.marks.insertOne(markDoc(jobId, org, 'counting')));
      await step(
        c.usage.findOneAndUpdate({ _id: `${org}:${MONTH}` }, { $inc: { jobs: 1, targets: 1 }, $set: { updatedAt: at } }, { returnDocument: 'after' }),
        true,
      );
      await step(c.jobs.insertOne(jobDoc(jobId, org, set.jobs)));
      await step(
        c.counts.updateOne({ _id: `${org}:${PROJECT}` }, { $setOnInsert: { organizationId: org, projectId: PROJECT }, $inc: { jobs: 1 } }, { upsert: true }),
      );
      await step(c.audit.insertOne(auditDoc(jobId, org)));
      set.jobs += 1;
    };
    await Promise.all(
      Array.from({ length: this.#concurrency }, async (_, worker) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await createOne(worker);
          const done = performance.now();
          durations.push(done - t);
          if (done <= deadline) creates += 1;
        }
      }),
    );
    durations.sort((x, y) => x - y);
    return {
      before,
      creates,
      ops,
      seconds,
      opsPerSecond: ops / seconds,
      createsPerSecond: creates / seconds,
      errors,
      createP99: durations.length === 0 ? Number.NaN : (durations[Math.min(durations.length - 1, Math.floor(0.99 * durations.length))] as number),
    };
  }

  /** Drops the set's collections (the fresh 10-job sets, after their round). */
  async drop(set: MixSet): Promise<void> {
    for (const collection of Object.values(set.collections)) await collection.drop().catch(() => false);
  }

  /** Drops the scratch database and closes the client. */
  async close(): Promise<void> {
    try {
      await this.#db.dropDatabase();
    } finally {
      await this.#client.close();
    }
  }
}
