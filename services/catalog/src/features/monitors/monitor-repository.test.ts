import type { ObservedChange } from '@crawl/contracts';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';
import { ConfirmationRepository, type ConfirmationDoc } from './confirmation-repository.ts';
import { CooldownRepository } from './cooldown-repository.ts';
import { MonitorEventRepository, type MonitorEventDoc } from './event-repository.ts';
import type { MonitorDoc } from './monitor-model.ts';
import { MonitorRepository } from './monitor-repository.ts';

const T0 = '2026-03-02T08:00:00.000Z';

function monitor(id: string, extra: Partial<MonitorDoc> = {}): MonitorDoc {
  return {
    _id: id,
    organizationId: 'org_a',
    projectId: 'prj_1',
    name: 'm',
    type: 'details',
    targets: ['B000000001', 'B000000002'],
    domain: 'amazon.com',
    deliveryZip: null,
    every: '1h',
    cron: null,
    timezone: null,
    watch: ['price'],
    rules: [{ field: 'price', op: 'dropsBy', value: 10 }],
    cooldown: '1h',
    maxCreditsPerMonth: 10,
    status: 'active',
    pausedReason: null,
    pausedAt: null,
    resumesAt: null,
    nextRunAt: T0,
    lastRunAt: null,
    lastJobId: null,
    lastError: null,
    lastTriggeredAt: null,
    usage: { month: '2026-03', credits: 0 },
    runCount: 0,
    createdBy: 'usr_1',
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  };
}

const change: ObservedChange = {
  subject: { kind: 'product', marketplace: 'amazon.com', asin: 'B000000001', zip: null },
  field: 'price',
  previous: 100,
  current: 80,
  previousObservedAt: T0,
  observedAt: T0,
  jobId: 'job_1',
  resultId: 'job_1:0:0',
};

function event(id: string, createdAt: string, extra: Partial<MonitorEventDoc> = {}): MonitorEventDoc {
  return {
    _id: id,
    type: 'monitor.triggered',
    monitorId: 'mon_1',
    projectId: 'prj_1',
    organizationId: 'org_a',
    target: 'B000000001',
    subject: change.subject,
    field: 'price',
    rule: { field: 'price', op: 'dropsBy', value: 10 },
    previous: 100,
    current: 80,
    changePercent: -20,
    previousObservedAt: T0,
    observedAt: T0,
    jobId: 'job_1',
    resultId: 'job_1:0:0',
    confirmedBy: null,
    createdAt,
    targetIndex: 0,
    ...extra,
  };
}

describeOnEachStore('MonitorRepository', (open, backend) => {
  let repo: MonitorRepository;

  beforeEach(async () => {
    repo = new MonitorRepository(await open());
    await repo.init();
  });

  it('takes credits from the month only while they fit, atomically: of five runs at once exactly two fit 10 credits', async () => {
    await repo.insert(monitor('mon_1'));
    const taken = await Promise.all(Array.from({ length: 5 }, () => repo.takeCredits('mon_1', '2026-03', 4, 10)));
    expect(taken.filter(Boolean)).toHaveLength(2);
    expect((await repo.findById('mon_1'))?.usage).toEqual({ month: '2026-03', credits: 8 });
    await repo.adjustCredits('mon_1', '2026-03', -4);
    expect(await repo.takeCredits('mon_1', '2026-03', 6, 10)).toBe(true);
    expect(await repo.takeCredits('mon_1', '2026-03', 1, 10)).toBe(false);
  });

  it('starts a new month from 0, and only counts without a budget', async () => {
    await repo.insert(monitor('mon_1', { usage: { month: '2026-02', credits: 10 } }));
    expect(await repo.takeCredits('mon_1', '2026-03', 4, 10)).toBe(true);
    expect((await repo.findById('mon_1'))?.usage).toEqual({ month: '2026-03', credits: 4 });
    // An adjustment for a month that is over changes nothing.
    await repo.adjustCredits('mon_1', '2026-02', -4);
    expect((await repo.findById('mon_1'))?.usage.credits).toBe(4);
    expect(await repo.takeCredits('mon_1', '2026-03', 1_000, null)).toBe(true);
    expect((await repo.findById('mon_1'))?.usage.credits).toBe(1_004);
  });

  it('lets exactly one of two runners claim a due run', async () => {
    await repo.insert(monitor('mon_1'));
    const [due] = await repo.findDue(T0, 10);
    const claims = await Promise.all([
      repo.claimDue(due as MonitorDoc, '2026-03-02T09:00:00.000Z', T0),
      repo.claimDue(due as MonitorDoc, '2026-03-02T09:00:00.000Z', T0),
    ]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    expect(await repo.findDue(T0, 10)).toEqual([]);
    expect((await repo.findById('mon_1'))?.runCount).toBe(1);
  });

  it('pauses an active monitor for its budget once, and resumes it only from that pause', async () => {
    await repo.insert(monitor('mon_1'));
    const paused = await repo.pauseForBudget('mon_1', T0, '2026-04-01T00:00:00.000Z');
    expect(paused).toMatchObject({ status: 'paused', pausedReason: 'budget_exhausted', nextRunAt: null });
    expect(await repo.pauseForBudget('mon_1', T0, '2026-04-01T00:00:00.000Z')).toBeNull();
    expect(await repo.findDue('2026-05-01T00:00:00.000Z', 10)).toEqual([]);
    expect(await repo.findBudgetResumable('2026-03-31T23:59:59.000Z', 10)).toEqual([]);
    const [resumable] = await repo.findBudgetResumable('2026-04-01T00:00:00.000Z', 10);
    await repo.update('org_a', 'mon_1', { status: 'paused', pausedReason: 'user', resumesAt: null, updatedAt: T0 });
    // The user paused it meanwhile: the budget's resume no longer applies.
    expect(await repo.resumeAfterBudget(resumable as MonitorDoc, '2026-04-01T00:00:00.000Z', T0)).toBeNull();
    expect((await repo.findById('mon_1'))?.pausedReason).toBe('user');
  });

  it('finds and changes a monitor only within its organization', async () => {
    await repo.insert(monitor('mon_1'));
    expect(await repo.findOwned('org_b', 'mon_1')).toBeNull();
    expect(await repo.update('org_b', 'mon_1', { name: 'x', updatedAt: T0 })).toBeNull();
    expect(await repo.remove('org_b', 'mon_1')).toBe(false);
    expect(await repo.findOwned('org_a', 'mon_1')).toMatchObject({ name: 'm' });
  });

  if (backend === 'embedded')
    it('serves every hot operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const monitors = new MonitorRepository(store);
      const events = new MonitorEventRepository(store);
      const confirmations = new ConfirmationRepository(store);
      await Promise.all([monitors.init(), events.init(), confirmations.init()]);
      await monitors.listPage({ organizationId: 'org_a', projectId: 'prj_1' }, { offset: 0, limit: 20 });
      await monitors.findDue(T0, 50);
      await monitors.findBudgetResumable(T0, 50);
      await events.listPage({ organizationId: 'org_a', monitorId: 'mon_1' }, { offset: 0, limit: 20 });
      await events.forJob('job_1');
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual([
        'org_project_created_id',
        'org_project_created_id',
        'due',
        'budget_resume',
        'org_monitor_created_id',
        'org_monitor_created_id',
        'job_created_id',
      ]);
    });
});

describeOnEachStore('monitor cooldowns, events and confirmations', (open) => {
  let cooldowns: CooldownRepository;
  let events: MonitorEventRepository;
  let confirmations: ConfirmationRepository;

  beforeEach(async () => {
    const store = await open();
    cooldowns = new CooldownRepository(store);
    events = new MonitorEventRepository(store);
    confirmations = new ConfirmationRepository(store);
    await Promise.all([cooldowns.init(), events.init(), confirmations.init()]);
  });

  it('takes a cooldown once among racers, lets the same event through again, and another one only after the quiet period', async () => {
    const at = '2026-03-02T09:00:00.000Z';
    const racers = await Promise.all([1, 2, 3].map((n) => cooldowns.take('cd_1', 'mon_1', `mev_${n}`, at, T0)));
    expect(racers.filter(Boolean)).toHaveLength(1);
    const winner = `mev_${racers.indexOf(true) + 1}`;
    expect(await cooldowns.take('cd_1', 'mon_1', winner, at, T0)).toBe(true);
    expect(await cooldowns.isRunning('cd_1', T0)).toBe(true);
    expect(await cooldowns.take('cd_1', 'mon_1', 'mev_other', '2026-03-02T09:30:00.000Z', '2026-03-02T08:30:00.000Z')).toBe(false);
    expect(await cooldowns.take('cd_1', 'mon_1', 'mev_other', '2026-03-02T10:00:00.000Z', at)).toBe(true);
    expect(await cooldowns.isRunning('cd_1', '2026-03-02T10:00:00.000Z')).toBe(false);
  });

  it('stores an event once per id, lists a monitor’s newest first in its organization, and a job’s oldest first', async () => {
    expect(await events.insertOnce(event('mev_1', T0))).toBe(true);
    expect(await events.insertOnce(event('mev_1', T0))).toBe(false);
    await events.insertOnce(event('mev_2', '2026-03-02T09:00:00.000Z'));
    await events.insertOnce(event('mev_3', '2026-03-02T10:00:00.000Z', { jobId: 'job_2' }));
    const page = await events.listPage({ organizationId: 'org_a', monitorId: 'mon_1' }, { offset: 0, limit: 2 });
    expect(page.total).toBe(3);
    expect(page.events.map((e) => e._id)).toEqual(['mev_3', 'mev_2']);
    expect((await events.listPage({ organizationId: 'org_b', monitorId: 'mon_1' }, { offset: 0, limit: 20 })).total).toBe(0);
    expect((await events.forJob('job_1')).map((e) => e._id)).toEqual(['mev_1', 'mev_2']);
    await events.removeForMonitor('org_a', 'mon_1');
    expect((await events.forJob('job_1')).length).toBe(0);
  });

  it('moves a confirmation on once among racers, and gives a stale claim to another runner', async () => {
    const doc: ConfirmationDoc = {
      _id: 'job_1:0',
      organizationId: 'org_a',
      projectId: 'prj_1',
      monitorId: 'mon_1',
      sourceJobId: 'job_1',
      targetIndex: 0,
      target: 'B000000001',
      candidates: [{ ruleIndex: 0, rule: { field: 'price', op: 'dropsBy', value: 10, confirm: true }, change }],
      state: 'pending',
      jobId: null,
      observed: [],
      outcome: null,
      claimedAt: null,
      createdAt: T0,
      updatedAt: T0,
    };
    expect(await confirmations.insertOnce(doc)).toBe(true);
    expect(await confirmations.insertOnce(doc)).toBe(false);
    const [read] = await confirmations.findIn('pending', 'starting', T0, 10);
    const claims = await Promise.all([
      confirmations.claim(read as ConfirmationDoc, 'starting', T0),
      confirmations.claim(read as ConfirmationDoc, 'starting', T0),
    ]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    expect(await confirmations.findIn('pending', 'starting', '2026-03-02T07:00:00.000Z', 10)).toEqual([]);
    // Its runner died: after the lease another finds it.
    expect((await confirmations.findIn('pending', 'starting', '2026-03-02T08:10:00.000Z', 10)).map((c) => c.state)).toEqual(['starting']);
    await confirmations.markStarted('job_1:0', 'job_9', T0);
    await confirmations.addObserved('job_1:0', [change]);
    await confirmations.addObserved('job_1:0', [change]);
    expect(await confirmations.findById('job_1:0')).toMatchObject({
      state: 'started',
      jobId: 'job_9',
      observed: [{ changes: [change] }, { changes: [change] }],
    });
  });
});
