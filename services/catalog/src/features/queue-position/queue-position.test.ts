import type { CrawlTask } from '@crawl/contracts';
import type { WorkQueue } from '@crawl/queue';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobDoc } from '../jobs/index.ts';
import { testResources } from '../../testing/test-resources.ts';
import { QueuePositions } from './queue-position.ts';
import { ThroughputMeter } from './throughput-meter.ts';

const noActiveJobs = { activeLine: async (): Promise<JobDoc[]> => [] };

function queuedJob(updatedAt: string): JobDoc {
  return {
    _id: 'job-1',
    organizationId: 'org-1',
    status: 'queued',
    createdAt: '2026-11-22T00:00:00.000Z',
    updatedAt,
    targets: [
      { value: 'a', status: 'pending' },
      { value: 'b', status: 'pending' },
    ],
  } as unknown as JobDoc;
}

/** A queue that puts every task at `position`, counting the questions. */
function queueAnswering(position: number): { queue: WorkQueue<CrawlTask>; questions: () => number } {
  let questions = 0;
  const queue = {
    position: async () => {
      questions += 1;
      return position;
    },
  } as unknown as WorkQueue<CrawlTask>;
  return { queue, questions: () => questions };
}

describe('QueuePositions', () => {
  it('asks the queue once per job and second while the job is unchanged, and again as soon as it changes', async () => {
    const { queue, questions } = queueAnswering(4);
    const positions = new QueuePositions(testResources(), { jobs: noActiveJobs, queue, meter: new ThroughputMeter(async () => ({ processed: 0, active: 0 })) });

    const first = await positions.of(queuedJob('t1'));
    for (let i = 0; i < 20; i += 1) expect(await positions.of(queuedJob('t1'))).toEqual(first);
    expect(first).toMatchObject({ position: 1, targetsAhead: 4 });
    // The first and the last waiting target: two questions for twenty-one reads.
    expect(questions()).toBe(2);

    await positions.of(queuedJob('t2'));
    expect(questions()).toBe(4);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a reused ETA down from when it was made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { queue, questions } = queueAnswering(4);
    // One task finished per second, one in flight.
    let clock = 0;
    let processed = 0;
    const meter = new ThroughputMeter(async () => ({ processed, active: 1 }), { now: () => clock });
    await meter.current();
    clock = 1_000;
    processed = 1;
    await meter.current();
    const positions = new QueuePositions(testResources(), { jobs: noActiveJobs, queue, meter });

    // Five tasks up to and including the job's last target (position 4), one in flight: 6 s.
    expect(await positions.of(queuedJob('t1'))).toMatchObject({ targetsAhead: 4, etaSeconds: 6 });
    vi.advanceTimersByTime(700);
    expect(await positions.of(queuedJob('t1'))).toMatchObject({ targetsAhead: 4, etaSeconds: 5 });
    expect(questions()).toBe(2);
  });
});
