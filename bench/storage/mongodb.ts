// The MongoDB (FerretDB) + Redis variant: creates/s at N jobs ÷ at a few, with errors and
// timeouts counted; and, interleaved with those rounds, the same ratio for the document
// operations of a create replayed with the raw driver on a scratch database (driver-mix.ts), so
// the share of the drop that is the server's own shows. Its own database prefix and Redis prefix,
// all removed at the end.
import { randomUUID } from 'node:crypto';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { MongoClient } from 'mongodb';
import { Api } from './api.ts';
import { CREATE_MIX, DriverMix, type DriverRound, type MixSet } from './driver-mix.ts';
import { load as loadAverage, median, note, ratioOfRounds } from './measure.ts';
import { onInterrupt, startService, type ServiceProcess } from './server.ts';
import { SETTINGS } from './settings.ts';
import { fillJobs, fmt, measureCreates, serviceEnv, type Figure } from './shared.ts';

async function dropDatabases(url: string, prefix: string): Promise<void> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const ours = databases.map((d) => d.name).filter((name) => name.startsWith(prefix));
    for (const name of ours) await client.db(name).dropDatabase();
    note(`cleaned up: dropped ${ours.length} databases (${ours.join(', ') || 'none'})`);
  } finally {
    await client.close();
  }
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = openRedis(url);
  try {
    note(`cleaned up: ${await deleteKeys(redis, `${prefix}:*`)} Redis keys`);
  } finally {
    await closeRedis(redis);
  }
}

export async function mongoVariant(figures: Figure[], mongoUrl: string, redisUrl: string): Promise<void> {
  const S = SETTINGS;
  const tag = randomUUID().replace(/-/g, '').slice(0, 8);
  const dbPrefix = `benchst_${tag}_`;
  const redisPrefix = `benchst${tag}`;
  console.log(`\n### MongoDB (${mongoUrl}) + Redis (${redisUrl}): ${fmt(S.mongoJobs)} jobs\n`);
  note(`databases ${dbPrefix}*, Redis keys ${redisPrefix}:* (removed at the end)`);
  let service: ServiceProcess | undefined;
  let driver: DriverMix | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaned ??= (async () => {
      if (service) {
        const code = await service.stop();
        if (code !== 0) note(`the service exited with ${code}`);
      }
      // Drops the driver baseline's scratch database (also under the prefix, for the sweep below).
      if (driver) await driver.close().catch((error) => note(`dropping the driver baseline's database failed: ${String(error)}`));
      await dropDatabases(mongoUrl, dbPrefix).catch((error) => note(`dropping ${dbPrefix}* failed: ${String(error)}`));
      await deleteRedisKeys(redisUrl, redisPrefix).catch((error) => note(`deleting ${redisPrefix}:* failed: ${String(error)}`));
    })());
  const unregister = onInterrupt(cleanUp);
  try {
    service = await startService(
      serviceEnv({ MONGO_URL: mongoUrl, MONGO_DB_PREFIX: dbPrefix, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix }),
      S.startTimeoutSeconds * 1000,
      S.serviceRoot,
    );
    const api = new Api(service.url, service.internalSecret);
    note(`all-in-one pid ${service.pid} on ${service.url}; load average ${loadAverage()}`);
    const a = await api.registerOrg('a');
    const manyProject = await api.createProject(a, 'bench: many jobs');
    const filled = await fillJobs(service, api, a, manyProject, S.mongoJobs);
    note(
      `filled: ${fmt(filled.jobs)} jobs in ${fmt(filled.seconds, 1)} s (${fmt(filled.jobs / filled.seconds, 1)} creates/s); N = ${fmt(filled.jobs)}` +
        `${filled.jobs < 10_000 ? ' (below 10k: BENCH_MONGO_JOBS=10000 for the full figure)' : ''}; load average ${loadAverage()}`,
    );
    // The driver baseline: N jobs (and what their creates left) in `many_*`, and each round a
    // fresh `few<round>_*` set with the small count, like the fresh organization of the creates.
    driver = await DriverMix.open(mongoUrl, `${dbPrefix}driver`, S.createConcurrency);
    const mix = driver;
    const serverName = await mix.server();
    note(`driver baseline on ${serverName}, database ${mix.database}: ${CREATE_MIX.length} operations a create (${CREATE_MIX.join(', ')})`);
    const prefillStart = performance.now();
    const manySet = await mix.prepare('many', filled.jobs);
    note(
      `driver baseline: pre-filled ${fmt(filled.jobs)} jobs, ${fmt(filled.jobs * 3)} ledger entries and a reservation, an audit event and a usage mark per job in ${fmt((performance.now() - prefillStart) / 1000, 1)} s`,
    );
    let fewRound = 0;
    const driverFew = async (): Promise<DriverRound> => {
      const set: MixSet = await mix.prepare(`few${(fewRound += 1)}`, S.smallJobs);
      try {
        return await mix.run(set, S.driverSeconds);
      } finally {
        await mix.drop(set);
      }
    };
    const describe = (r: DriverRound | undefined) =>
      r ? `${fmt(r.opsPerSecond)} ops/s from ${fmt(r.before)}${r.errors ? ` (${r.errors} errors)` : ''}` : 'n/a';
    const creates = await measureCreates(service, api, a, manyProject, S.mongoCreateSeconds, 'mongodb', {
      cases: { driverMany: () => mix.run(manySet, S.driverSeconds), driverFew },
      describe: (v) => `driver ${describe(v.driverMany)} vs ${describe(v.driverFew)}`,
    });
    figures.push(creates.ratioFigure);
    const driverMany = creates.extra.driverMany ?? [];
    const driverFewRounds = creates.extra.driverFew ?? [];
    const driverRatio = ratioOfRounds(
      driverMany.map((r) => r.opsPerSecond),
      driverFewRounds.map((r) => r.opsPerSecond),
    );
    const driverErrors = [...driverMany, ...driverFewRounds].reduce((sum, r) => sum + r.errors, 0);
    figures.push({
      variant: 'mongodb',
      name:
        `${serverName.startsWith('FerretDB') ? 'FerretDB' : 'MongoDB'} itself: driver create-mix ops/s at ${fmt(driverMany[0]?.before ?? filled.jobs)}+ jobs ÷ at ${S.smallJobs} ` +
        `(raw driver, ${CREATE_MIX.length} operations a create, concurrency ${S.createConcurrency}, ${S.driverSeconds} s rounds)`,
      value: driverRatio,
      unit: 'ratio',
      goal: '—',
      pass: true,
      informational: true,
      detail:
        `${fmt(median(driverMany.map((r) => r.opsPerSecond)))} vs ${fmt(median(driverFewRounds.map((r) => r.opsPerSecond)))} ops/s ` +
        `(${fmt(median(driverMany.map((r) => r.createsPerSecond)), 1)} vs ${fmt(median(driverFewRounds.map((r) => r.createsPerSecond)), 1)} creates/s); ` +
        `create p99 ${fmt(median(driverMany.map((r) => r.createP99)))} vs ${fmt(median(driverFewRounds.map((r) => r.createP99)))} ms; ` +
        `rounds started at ${driverMany.map((r) => fmt(r.before)).join(' / ')} jobs; ${driverErrors} errors`,
    });
    note(`RSS ${fmt(service.memory().rssMb)} MB; load average ${loadAverage()}`);
  } catch (error) {
    if (service) console.error(`the service's last output:\n${service.output().slice(-3000)}`);
    throw error;
  } finally {
    await cleanUp();
    unregister();
  }
}
