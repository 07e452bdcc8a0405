import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeAll, expect, it } from 'vitest';
import type { DocumentStore } from '@crawl/storage';
import { JOBS_COLLECTION, type JobDoc } from './job-model.ts';
import { JobRepository } from './job-repository.ts';

/** The repository announces each change of a job; these tests follow the documents instead. */
const unannounced = { publish: () => undefined };

let sequence = 0;

function job(organizationId: string, projectId: string): JobDoc {
  sequence += 1;
  const now = new Date(Date.UTC(2026, 2, 2, 8, 0, sequence)).toISOString();
  return {
    _id: `job_${String(sequence).padStart(6, '0')}`,
    organizationId,
    projectId,
    type: 'search',
    status: 'queued',
    targets: [{ value: 'kw', status: 'pending' }],
    config: {},
    unitsPerTarget: 5,
    creditsReserved: 5,
    resultCount: 0,
    createdBy: 'usr_a',
    createdAt: now,
    updatedAt: now,
    settled: false,
  };
}

async function* projects(...list: Array<[organizationId: string, id: string]>) {
  for (const [organizationId, _id] of list) yield { _id, organizationId };
}

describeOnEachStore('JobRepository job counts', (open) => {
  let store: DocumentStore;
  let jobs: JobRepository;

  beforeAll(async () => {
    store = await open();
    jobs = new JobRepository(store, unannounced);
    await jobs.init();
  });

  const total = async (organizationId: string, projectId: string, status?: 'queued') =>
    (await jobs.listPage({ organizationId, projectId, status }, { offset: 0, limit: 1 })).total;

  it('counts each insert in its own project and organization', async () => {
    for (let i = 0; i < 4; i += 1) await jobs.insert(job('org_c', 'prj_one'));
    await jobs.insert(job('org_c', 'prj_two'));
    await jobs.insert(job('org_d', 'prj_one'));
    expect(await total('org_c', 'prj_one')).toBe(4);
    expect(await total('org_c', 'prj_two')).toBe(1);
    expect(await total('org_d', 'prj_one')).toBe(1);
    expect(await total('org_c', 'prj_none')).toBe(0);
    expect(await total('org_c', 'prj_one', 'queued')).toBe(4);
  });

  it('gives projects from before the counts their figure, before any create increments it', async () => {
    const raw = store.collection<JobDoc>(JOBS_COLLECTION);
    for (let i = 0; i < 3; i += 1) await raw.insertOne(job('org_old', 'prj_old'));
    expect(await jobs.reconcileCounts(projects(['org_old', 'prj_old']))).toBe(1);
    await jobs.insert(job('org_old', 'prj_old'));
    expect(await total('org_old', 'prj_old')).toBe(4);
  });

  it('corrects a figure left short by a crash between the insert and the increment', async () => {
    await jobs.insert(job('org_e', 'prj_crash'));
    // What a crash right after the job insert leaves: the job stored, the figure not moved.
    await store.collection<JobDoc>(JOBS_COLLECTION).insertOne(job('org_e', 'prj_crash'));
    expect(await total('org_e', 'prj_crash')).toBe(1);
    expect(await jobs.reconcileCounts(projects(['org_e', 'prj_crash'], ['org_c', 'prj_two']))).toBe(1);
    expect(await total('org_e', 'prj_crash')).toBe(2);
    expect(await total('org_c', 'prj_two')).toBe(1);
  });

  it('counts lazily a project that has jobs but no figure yet', async () => {
    await store.collection<JobDoc>(JOBS_COLLECTION).insertOne(job('org_f', 'prj_lazy'));
    expect(await total('org_f', 'prj_lazy')).toBe(1);
  });

  it('remembers that the one-time seeding is done', async () => {
    const fresh = new JobRepository(await open(), unannounced);
    await fresh.init();
    expect(await fresh.countsSeeded()).toBe(false);
    await fresh.markCountsSeeded('2026-03-02T08:00:00.000Z');
    expect(await fresh.countsSeeded()).toBe(true);
  });
});
