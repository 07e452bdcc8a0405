import { crawlQueueDefinition } from '@crawl/contracts';
import type { Collection, Document, DocumentStore } from '@crawl/storage';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { describe, expect, it, vi } from 'vitest';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import { domainCatalog } from '../../testing/domain-catalog.ts';
import { searchRecord, searchRecords } from '../../testing/result-records.ts';

/** A store whose `jobs` inserts fail, as if the database went away at the wrong moment. */
function failingJobInserts(inner: DocumentStore): DocumentStore {
  return {
    kind: inner.kind,
    ping: () => inner.ping(),
    close: () => inner.close(),
    collection<T extends Document>(name: string): Collection<T> {
      const collection = inner.collection<T>(name);
      if (name !== 'jobs') return collection;
      const wrapped: Collection<T> = {
        name: collection.name,
        insertOne: async () => {
          throw new Error('disk full');
        },
        insertMany: async () => {
          throw new Error('disk full');
        },
        findOne: (...args) => collection.findOne(...args),
        find: (...args) => collection.find(...args),
        stream: (...args) => collection.stream(...args),
        streamBatches: (...args) => collection.streamBatches(...args),
        streamJson: (...args) => collection.streamJson(...args),
        count: (...args) => collection.count(...args),
        updateOne: (...args) => collection.updateOne(...args),
        updateMany: (...args) => collection.updateMany(...args),
        deleteOne: (...args) => collection.deleteOne(...args),
        deleteMany: (...args) => collection.deleteMany(...args),
        ensureIndexes: (...args) => collection.ensureIndexes(...args),
      };
      return wrapped;
    },
  };
}

const actor = { userId: 'usr_1', organizationId: 'org_1' };

describe('job creation failure handling', () => {
  it('releases the reservation when the job cannot be persisted, and enqueues nothing', async () => {
    const inner = EmbeddedDocumentStore.inMemory();
    const d = await domainCatalog({ store: failingJobInserts(inner) });
    const project = await d.catalog.projects.create(actor, 'p');
    await expect(d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a', 'b'] })).rejects.toThrow('disk full');
    expect(d.billing.releaseCalls).toHaveLength(1);
    const [reservation] = [...d.billing.reservations.values()];
    expect(reservation?.status).toBe('released');
    expect(d.billing.account(actor.organizationId)).toMatchObject({ available: 1000, reserved: 0, jobs: 0 });
    expect((await d.queues.queue(crawlQueueDefinition()).stats()).waiting).toBe(0);
    await d.queues.close();
    await inner.close();
  });

  it('reserves nothing when validation fails and persists nothing when billing refuses', async () => {
    const d = await domainCatalog();
    const project = await d.catalog.projects.create(actor, 'p');
    await expect(d.catalog.jobs.create(actor, project._id, { type: 'details', targets: ['nope'] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(d.billing.reservations.size).toBe(0);
    d.billing.account(actor.organizationId).available = 0;
    await expect(d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a'] })).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      statusCode: 402,
    });
    expect((await d.catalog.jobs.list(actor.organizationId, project._id, {})).meta.total).toBe(0);
    await d.queues.close();
    await d.store.close();
  });

  it('does not fail the create when the queue is unavailable; the maintenance pass enqueues later', async () => {
    const d = await domainCatalog();
    const project = await d.catalog.projects.create(actor, 'p');
    const queue = d.queues.queue(crawlQueueDefinition());
    const add = queue.add.bind(queue);
    queue.add = async () => {
      throw new Error('redis down');
    };
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a', 'b'] });
    expect(job.status).toBe('queued');
    expect((await queue.stats()).waiting).toBe(0);
    queue.add = add;
    d.clock.advance(11 * 60_000);
    await d.catalog.maintenance.tick();
    expect((await queue.stats()).waiting).toBe(2);
    await d.queues.close();
    await d.store.close();
  });
});

describe('crawl task attempts', () => {
  it('enqueues each task with CRAWL_TASK_ATTEMPTS, which a consumer opened with the default sees as its last attempt', async () => {
    const queues = new InProcessQueueProvider();
    // The worker's queue is opened first with the default attempts (3), as it may be in one process.
    const consumer = queues.queue(crawlQueueDefinition());
    const d = await domainCatalog({ queues, env: { CRAWL_TASK_ATTEMPTS: '1' } });
    const project = await d.catalog.projects.create(actor, 'p');
    const seen: string[] = [];
    const failed: string[] = [];
    await consumer.process(
      async (job) => {
        seen.push(`${job.attempt}/${job.maxAttempts}`);
        throw new Error('broken');
      },
      { concurrency: 1, onFailed: (job) => void failed.push(job.id) },
    );
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a'] });
    await vi.waitUntil(() => failed.length === 1, { timeout: 2_000 });
    expect(seen).toEqual(['1/1']);
    expect(failed).toEqual([`${job._id}-0`]);
    await d.queues.close();
    await d.store.close();
  });
});

describe('races between the worker and the user', () => {
  it.each([0, 1, 2, 3, 5, 8])(
    'a report racing a cancel (cancel after %i turns) settles once and keeps results consistent with target status',
    async (turns) => {
      const d = await domainCatalog();
      const project = await d.catalog.projects.create(actor, 'p');
      const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a', 'b'] });
      await d.catalog.progress.claimTarget(job._id, 0);
      const report = d.catalog.progress.reportTarget(job._id, 0, { status: 'success', items: searchRecords(2) });
      const cancel = (async () => {
        for (let i = 0; i < turns; i += 1) await Promise.resolve();
        return d.catalog.jobs.cancel(actor, job._id);
      })();
      await Promise.all([report, cancel]);
      const final = await d.catalog.jobs.getOwned(actor.organizationId, job._id);
      expect(final.status).toBe('cancelled');
      expect(final.targets[1]?.status).toBe('cancelled');
      const { total } = await d.catalog.results.page(final, 1, 10);
      if (final.targets[0]?.status === 'success') {
        expect(total).toBe(2);
        expect(final.resultCount).toBe(2);
      } else {
        expect(final.targets[0]?.status).toBe('cancelled');
        expect(total).toBe(0);
        expect(final.resultCount).toBe(0);
      }
      const settlements = d.billing.settlementsFor(job._id);
      expect(settlements).toHaveLength(1);
      expect(settlements[0]?.succeededTargets).toBe(final.targets[0]?.status === 'success' ? 1 : 0);
      expect((settlements[0]?.succeededTargets ?? 0) + (settlements[0]?.cancelledTargets ?? 0)).toBe(2);
      expect(final.settled).toBe(true);
      await d.queues.close();
      await d.store.close();
    },
  );

  it('parallel final reports finish and settle the job exactly once', async () => {
    const d = await domainCatalog();
    const project = await d.catalog.projects.create(actor, 'p');
    const targets = Array.from({ length: 20 }, (_, i) => `kw${i}`);
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets });
    const outcomes = await Promise.all(
      targets.map((_, i) =>
        d.catalog.progress.reportTarget(job._id, i, {
          status: i % 3 === 0 ? 'failed' : 'success',
          reason: 'blocked',
          items: i % 3 === 0 ? [] : [searchRecord({ keyword: `kw${i}` })],
        }),
      ),
    );
    expect(outcomes.filter((o) => o.finished)).not.toHaveLength(0);
    const final = await d.catalog.jobs.getOwned(actor.organizationId, job._id);
    expect(final.status).toBe('completed');
    expect(final.resultCount).toBe(13);
    expect(d.billing.settlementsFor(job._id)).toEqual([
      { organizationId: actor.organizationId, jobId: job._id, succeededTargets: 13, failedTargets: 7, cancelledTargets: 0, unchargedTargets: 0 },
    ]);
    expect((await d.catalog.events.pending()).filter((e) => e.payload.jobId === job._id)).toHaveLength(1);
    await d.queues.close();
    await d.store.close();
  });
});
