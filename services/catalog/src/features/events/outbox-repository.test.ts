import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { OutboxRepository, type AnyOutboxDoc, type OutboxDoc, type ScheduleFailedOutboxDoc } from './outbox-repository.ts';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';

function jobFinished(jobId: string, createdAt: string): OutboxDoc {
  return {
    _id: `job.finished:${jobId}`,
    type: 'job.finished',
    payload: { jobId, organizationId: 'org_a', projectId: 'prj_1', status: 'completed', occurredAt: createdAt },
    organizationId: 'org_a',
    createdAt,
    deliveredAt: null,
    attempts: 0,
  };
}

function scheduleFailed(scheduleId: string, createdAt: string): ScheduleFailedOutboxDoc {
  return {
    _id: `schedule.failed:${scheduleId}:${createdAt}`,
    type: 'schedule.failed',
    payload: { scheduleId, organizationId: 'org_a', projectId: 'prj_1', error: { code: 'FORBIDDEN', message: 'quota' }, occurredAt: createdAt },
    organizationId: 'org_a',
    createdAt,
    deliveredAt: null,
    attempts: 0,
  };
}

const ids = (docs: AnyOutboxDoc[]) => docs.map((d) => d._id);

describeOnEachStore('OutboxRepository', (open, backend) => {
  let repo: OutboxRepository;

  beforeEach(async () => {
    repo = new OutboxRepository(await open());
    await repo.init();
  });

  it('appends an entry once per key, also under racing appends', async () => {
    expect(await repo.appendOnce(jobFinished('job_1', '2026-03-02T08:00:00.000Z'))).toBe(true);
    expect(await repo.appendOnce(jobFinished('job_1', '2026-03-02T08:00:05.000Z'))).toBe(false);
    const racing = await Promise.all([
      repo.appendOnce(jobFinished('job_2', '2026-03-02T08:00:01.000Z')),
      repo.appendOnce(jobFinished('job_2', '2026-03-02T08:00:01.000Z')),
    ]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    const pending = await repo.pendingAll(10);
    expect(ids(pending)).toEqual(['job.finished:job_1', 'job.finished:job_2']);
    expect(pending[0]?.createdAt).toBe('2026-03-02T08:00:00.000Z');
  });

  it('reads undelivered entries oldest first, job events alone or every type, until marked delivered', async () => {
    await repo.appendOnce(jobFinished('job_b', '2026-03-02T08:00:02.000Z'));
    await repo.appendOnce(scheduleFailed('sch_1', '2026-03-02T08:00:01.000Z'));
    await repo.appendOnce(jobFinished('job_a', '2026-03-02T08:00:02.000Z'));
    await repo.appendOnce(jobFinished('job_c', '2026-03-02T08:00:03.000Z'));
    expect(ids(await repo.pendingAll(10))).toEqual([
      'schedule.failed:sch_1:2026-03-02T08:00:01.000Z',
      'job.finished:job_a',
      'job.finished:job_b',
      'job.finished:job_c',
    ]);
    expect(ids(await repo.pendingAll(2))).toEqual(['schedule.failed:sch_1:2026-03-02T08:00:01.000Z', 'job.finished:job_a']);
    expect(ids(await repo.pendingJobFinished(10))).toEqual(['job.finished:job_a', 'job.finished:job_b', 'job.finished:job_c']);

    expect(await repo.markDelivered('job.finished:job_a', '2026-03-02T08:01:00.000Z')).toBe(true);
    expect(await repo.markDelivered('schedule.failed:sch_1:2026-03-02T08:00:01.000Z', '2026-03-02T08:01:00.000Z')).toBe(true);
    expect(await repo.markDelivered('job.finished:nope', '2026-03-02T08:01:00.000Z')).toBe(false);
    expect(ids(await repo.pendingAll(10))).toEqual(['job.finished:job_b', 'job.finished:job_c']);
    expect(ids(await repo.pendingJobFinished(1))).toEqual(['job.finished:job_b']);
  });

  if (backend === 'embedded')
    it('serves every operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new OutboxRepository(store);
      await plans.init();
      await plans.pendingAll(100);
      await plans.pendingJobFinished(100);
      await plans.markDelivered('job.finished:job_1', '2026-03-02T08:00:00.000Z');
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual(['undelivered_created_id', 'undelivered_type_created_id', '_id']);
    });
});
