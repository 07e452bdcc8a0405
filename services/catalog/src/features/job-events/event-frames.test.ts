import type { MonitorEvent } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import type { JobDoc, TargetDoc } from '../jobs/index.ts';
import { StreamCursor, type FrameViews, type JobMonitorEvent } from './event-frames.ts';

const target = (status: TargetDoc['status'], finishedAt?: string): TargetDoc => ({ value: 'B000000001', status, ...(finishedAt ? { finishedAt } : {}) });

function job(targets: TargetDoc[], status: JobDoc['status'] = 'running'): JobDoc {
  return {
    _id: 'job_1',
    organizationId: 'org_1',
    projectId: 'prj_1',
    type: 'details',
    status,
    targets,
    config: {},
    unitsPerTarget: 1,
    creditsReserved: 2 * targets.length,
    resultCount: 0,
    createdBy: 'usr_1',
    createdAt: '2026-03-02T08:00:00.000Z',
    updatedAt: '2026-03-02T08:00:00.000Z',
    startedAt: '2026-03-02T08:00:01.000Z',
    settled: false,
    monitorId: 'mon_1',
    monitorRun: 'scheduled',
  };
}

const monitorEvent = (id: string): MonitorEvent => ({
  id,
  type: 'monitor.triggered',
  monitorId: 'mon_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  target: 'B000000001',
  subject: { kind: 'product', marketplace: 'amazon.com', asin: 'B000000001', zip: null },
  field: 'price',
  rule: { field: 'price', op: 'dropsBy', value: 10 },
  previous: 100,
  current: 80,
  changePercent: -20,
  previousObservedAt: '2026-03-02T07:00:00.000Z',
  observedAt: '2026-03-02T08:00:02.000Z',
  jobId: 'job_1',
  resultId: 'job_1:0:0',
  confirmedBy: null,
  createdAt: '2026-03-02T08:00:02.000Z',
});

/** Views over a list of monitor events the test changes as the job goes on. */
function views(events: JobMonitorEvent[]): FrameViews {
  return { job: async (doc) => ({ id: doc._id, status: doc.status }), target: (doc, index) => doc.targets[index], monitorEvents: async () => events };
}

const summary = (frames: Array<{ id: number; event: string; data: unknown }>) =>
  frames.map((frame) => `${frame.id}:${frame.event}${frame.event === 'monitor' ? `:${(frame.data as MonitorEvent).id}` : ''}`);

describe('monitor events on a job’s stream', () => {
  it('follow the target event they are about, with its id, and are told once', async () => {
    const events: JobMonitorEvent[] = [];
    const cursor = new StreamCursor();
    const v = views(events);
    expect(summary(await cursor.snapshot(job([target('running'), target('running')]), v))).toEqual(['1:job']);
    // Recorded before the target's report lands: held back until the target is told.
    events.push({ targetIndex: 0, event: monitorEvent('mev_a') });
    expect(summary(await cursor.advance(job([target('running'), target('running')]), v))).toEqual([]);
    const reported = job([target('success', '2026-03-02T08:00:02.000Z'), target('running')]);
    expect(summary(await cursor.advance(reported, v))).toEqual(['2:target', '2:monitor:mev_a']);
    expect(summary(await cursor.advance(reported, v))).toEqual([]);
    // One recorded late for a target already told goes out at the next read, under the latest id.
    events.push({ targetIndex: 0, event: monitorEvent('mev_b') });
    const done = job([target('success', '2026-03-02T08:00:02.000Z'), target('success', '2026-03-02T08:00:03.000Z')], 'completed');
    expect(summary(await cursor.advance(done, v))).toEqual(['3:target', '3:monitor:mev_b', '4:job', '5:end']);
  });

  it('a snapshot tells none of the events before it; a resume sends those of the steps after Last-Event-ID', async () => {
    const events: JobMonitorEvent[] = [
      { targetIndex: 0, event: monitorEvent('mev_a') },
      { targetIndex: 1, event: monitorEvent('mev_b') },
    ];
    const state = job([target('success', '2026-03-02T08:00:02.000Z'), target('success', '2026-03-02T08:00:03.000Z')]);
    const fresh = new StreamCursor();
    expect(summary(await fresh.snapshot(state, views(events)))).toEqual(['3:job']);
    expect(summary(await fresh.advance(state, views(events)))).toEqual([]);
    const resumed = new StreamCursor();
    expect(summary((await resumed.resume(state, 2, views(events))) ?? [])).toEqual(['3:target', '3:monitor:mev_b']);
    expect(summary(await resumed.advance(state, views(events)))).toEqual([]);
  });
});
