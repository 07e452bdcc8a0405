import type { ReportTargetBody, ResultRecord } from '@crawl/contracts';
import { isAppError } from '@crawl/errors';
import type { DocumentStore } from '@crawl/storage';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { expect, it } from 'vitest';
import { domainCatalog } from '../../testing/domain-catalog.ts';
import { asinNumber, searchRecord } from '../../testing/result-records.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const STORE_CALLS = new Set(['insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'findOne', 'find', 'count']);

/** A store whose every call waits 0–3 ms first, so two reports interleave their steps in many orders. */
function jittery(inner: DocumentStore): DocumentStore {
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'collection') {
        return (name: string) => {
          const collection = target.collection(name);
          return new Proxy(collection, {
            get(of, key) {
              const value = Reflect.get(of, key);
              if (typeof value !== 'function') return value;
              if (typeof key === 'string' && STORE_CALLS.has(key)) {
                return async (...args: unknown[]) => {
                  await sleep(Math.random() * 3);
                  return value.apply(of, args);
                };
              }
              return value.bind(of);
            },
          });
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const actor = { userId: 'usr_1', organizationId: 'org_1' };

describeOnEachStore('concurrent reports of one target', (open) => {
  it('a success with 30 items and a blocked failure at once: one applies, and rows, target counts and the job total agree', async () => {
    const d = await domainCatalog({ store: jittery(await open()) });
    const project = await d.catalog.projects.create(actor, 'p');
    const targets = Array.from({ length: 16 }, (_, i) => `kw${i}`);
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets });
    // As the worker does: a 409 (another report of the target is being applied) is sent again shortly.
    const deliver = async (index: number, body: ReportTargetBody) => {
      for (let tries = 0; tries < 500; tries += 1) {
        try {
          return await d.catalog.progress.reportTarget(job._id, index, body);
        } catch (error) {
          if (!isAppError(error) || error.statusCode !== 409) throw error;
          await sleep(2);
        }
      }
      throw new Error('the report was never accepted');
    };
    await Promise.all(
      targets.flatMap((_, i) => {
        const items = Array.from({ length: 30 }, (_, n) => searchRecord({ asin: asinNumber(i * 100 + n), keyword: `kw${i}`, position: n + 1 }));
        const success: ReportTargetBody = { status: 'success', items, requests: 1 };
        const blocked: ReportTargetBody = { status: 'failed', reason: 'blocked', items: [], requests: 1 };
        const [first, second] = i % 2 === 0 ? [success, blocked] : [blocked, success];
        return [deliver(i, first), sleep(i % 4).then(() => deliver(i, second))];
      }),
    );
    const done = await d.catalog.jobs.getOwned(actor.organizationId, job._id);
    const rows: ResultRecord[] = [];
    for await (const batch of d.catalog.results.items(job._id)) rows.push(...batch);
    done.targets.forEach((target, i) => {
      const expected = target.status === 'success' ? 30 : 0;
      expect(['success', 'failed'], `target ${i}`).toContain(target.status);
      expect(target.resultCount, `target ${i} count`).toBe(expected);
      expect(
        rows.filter((row) => row.keyword === `kw${i}`),
        `target ${i} rows`,
      ).toHaveLength(expected);
    });
    expect(done.resultCount).toBe(rows.length);
    expect((await d.catalog.results.page(done, 1, 10)).total).toBe(rows.length);
    expect(d.billing.settlementsFor(job._id)).toHaveLength(1);
    await d.queues.close();
  });
});
