import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainCatalog, type DomainCatalog } from '../../testing/domain-catalog.ts';
import { FakeBilling } from '../../testing/fake-billing.ts';

const actor = { userId: 'usr_1', organizationId: 'org_1' };

describe('scheduler', () => {
  let d: DomainCatalog;
  let projectId: string;

  beforeEach(async () => {
    d = await domainCatalog();
    projectId = (await d.catalog.projects.create(actor, 'scheduled'))._id;
  });
  afterEach(async () => {
    await d.queues.close();
    await d.store.close();
  });

  const jobsOf = () => d.catalog.jobs.list(actor.organizationId, projectId, {});

  it('computes nextRunAt in UTC and fires due schedules through the job path, once per run', async () => {
    const schedule = await d.catalog.schedules.create(actor, projectId, {
      cron: '0 6 * * *',
      crawlConfig: { type: 'search', targets: ['tv', 'tv'], config: { lang: 'en' } },
    });
    expect(schedule.nextRunAt).toBe('2026-03-03T06:00:00.000Z');
    expect(schedule.crawlConfig).toEqual({ type: 'search', targets: ['tv'], config: { lang: 'en' } });

    d.clock.set('2026-03-03T05:59:59.999Z');
    expect(await d.catalog.schedules.runDue()).toEqual([]);
    d.clock.set('2026-03-03T06:00:30.000Z');
    expect(await d.catalog.schedules.runDue()).toEqual([schedule._id]);
    expect(await d.catalog.schedules.runDue()).toEqual([]);

    const { jobs } = await jobsOf();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ type: 'search', status: 'queued', scheduleId: schedule._id, config: { lang: 'en' }, creditsReserved: 5 });
    expect([...d.billing.reservations.values()][0]?.jobId).toBe(jobs[0]?._id);
    const after = await d.catalog.schedules.getOwned(actor.organizationId, schedule._id);
    expect(after).toMatchObject({ lastRunAt: '2026-03-03T06:00:30.000Z', nextRunAt: '2026-03-04T06:00:00.000Z', lastJobId: jobs[0]?._id, lastError: null });
  });

  it('honours an IANA time zone', async () => {
    const schedule = await d.catalog.schedules.create(actor, projectId, {
      cron: '0 6 * * *',
      timezone: 'Europe/Berlin',
      crawlConfig: { type: 'search', targets: ['x'] },
    });
    expect(schedule.nextRunAt).toBe('2026-03-03T05:00:00.000Z');
  });

  it('records a credits refusal on the schedule and keeps going', async () => {
    const schedule = await d.catalog.schedules.create(actor, projectId, { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } });
    d.billing.account(actor.organizationId).available = 1;
    d.clock.set('2026-03-03T06:00:00.000Z');
    expect(await d.catalog.schedules.runDue()).toEqual([schedule._id]);
    let current = await d.catalog.schedules.getOwned(actor.organizationId, schedule._id);
    expect(current.lastError).toMatchObject({ code: 'INSUFFICIENT_CREDITS', at: '2026-03-03T06:00:00.000Z' });
    expect(current.nextRunAt).toBe('2026-03-04T06:00:00.000Z');
    expect(current.enabled).toBe(true);
    expect((await jobsOf()).jobs).toHaveLength(0);

    d.billing.account(actor.organizationId).available = 1000;
    d.clock.set('2026-03-04T06:00:00.000Z');
    expect(await d.catalog.schedules.runDue()).toEqual([schedule._id]);
    current = await d.catalog.schedules.getOwned(actor.organizationId, schedule._id);
    expect(current.lastError).toBeNull();
    expect(current.lastJobId).toEqual(expect.stringMatching(/^job_/));
  });

  it('records a quota refusal (403) on the schedule', async () => {
    const schedule = await d.catalog.schedules.create(actor, projectId, { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } });
    d.billing.limits.jobsPerMonth = 0;
    d.clock.set('2026-03-03T06:00:00.000Z');
    await d.catalog.schedules.runDue();
    const current = await d.catalog.schedules.getOwned(actor.organizationId, schedule._id);
    expect(current.lastError?.code).toBe('FORBIDDEN');
  });

  it('fires a missed run once after downtime, not once per missed day', async () => {
    await d.catalog.schedules.create(actor, projectId, { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } });
    d.clock.set('2026-03-10T12:00:00.000Z');
    await d.catalog.schedules.runDue();
    await d.catalog.schedules.runDue();
    expect((await jobsOf()).jobs).toHaveLength(1);
  });

  it('does not fire disabled schedules; re-enabling counts from now', async () => {
    const schedule = await d.catalog.schedules.create(actor, projectId, { cron: '0 6 * * *', enabled: false, crawlConfig: { type: 'search', targets: ['x'] } });
    d.clock.set('2026-03-05T07:00:00.000Z');
    expect(await d.catalog.schedules.runDue()).toEqual([]);
    const enabled = await d.catalog.schedules.update(actor, schedule._id, { enabled: true });
    expect(enabled.nextRunAt).toBe('2026-03-06T06:00:00.000Z');
    expect(await d.catalog.schedules.runDue()).toEqual([]);
  });

  it('two scheduler instances on one store never fire the same run twice', async () => {
    const store = EmbeddedDocumentStore.inMemory();
    const billing = new FakeBilling();
    const a = await domainCatalog({ store, billing });
    const b = await domainCatalog({ store, billing, clock: a.clock });
    const project = await a.catalog.projects.create(actor, 'shared');
    const schedules = [];
    for (let i = 0; i < 5; i += 1) {
      schedules.push(await a.catalog.schedules.create(actor, project._id, { cron: `${i} 6 * * *`, crawlConfig: { type: 'search', targets: [`kw${i}`] } }));
    }
    a.clock.set('2026-03-03T06:30:00.000Z');
    const [firedA, firedB] = await Promise.all([a.catalog.schedules.runDue(), b.catalog.schedules.runDue()]);
    expect([...firedA, ...firedB].sort()).toEqual(schedules.map((s) => s._id).sort());
    expect(new Set([...firedA, ...firedB]).size).toBe(5);
    const { jobs } = await a.catalog.jobs.list(actor.organizationId, project._id, {});
    expect(jobs).toHaveLength(5);
    expect(billing.reservations.size).toBe(5);
    // Both again at the same instant: nothing is due any more.
    const again = await Promise.all([a.catalog.schedules.runDue(), b.catalog.schedules.runDue()]);
    expect(again.flat()).toEqual([]);
    await a.queues.close();
    await b.queues.close();
    await store.close();
  });
});
