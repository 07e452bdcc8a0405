// The MongoDB (FerretDB) + Redis variant: creates/s at N jobs ÷ at a few, with errors and
// timeouts counted. Its own database prefix and Redis prefix, both removed at the end.
import { randomUUID } from 'node:crypto';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { MongoClient } from 'mongodb';
import { Api } from './api.ts';
import { load as loadAverage, note } from './measure.ts';
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
  let cleaned: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaned ??= (async () => {
      if (service) {
        const code = await service.stop();
        if (code !== 0) note(`the service exited with ${code}`);
      }
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
    const creates = await measureCreates(service, api, a, manyProject, S.mongoCreateSeconds, 'mongodb');
    figures.push(creates.ratioFigure);
    note(`RSS ${fmt(service.memory().rssMb)} MB; load average ${loadAverage()}`);
  } catch (error) {
    if (service) console.error(`the service's last output:\n${service.output().slice(-3000)}`);
    throw error;
  } finally {
    await cleanUp();
    unregister();
  }
}
