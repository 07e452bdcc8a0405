import { describe, expect, it } from 'vitest';
import { domainCatalog } from '../../testing/domain-catalog.ts';
import { searchRecords } from '../../testing/result-records.ts';
import { ResultRepository } from '../results/index.ts';

const actor = { userId: 'usr_1', organizationId: 'org_1' };

describe('target progress keeps stored results in line with the job document', () => {
  it.each([0, 1, 2, 4, 8])('a report racing a cancel (cancel after %i turns) leaves rows and column records only for a successful target', async (turns) => {
    const d = await domainCatalog();
    const rows = new ResultRepository(d.store);
    const project = await d.catalog.projects.create(actor, 'p');
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a', 'b'] });
    await d.catalog.progress.claimTarget(job._id, 0);
    const items = searchRecords(3);
    const report = d.catalog.progress.reportTarget(job._id, 0, { status: 'success', items });
    const cancel = (async () => {
      for (let i = 0; i < turns; i += 1) await Promise.resolve();
      return d.catalog.jobs.cancel(actor, job._id);
    })();
    await Promise.all([report, cancel]);
    const final = await d.catalog.jobs.getOwned(actor.organizationId, job._id);
    const succeeded = final.targets[0]?.status === 'success';
    expect(await rows.countRows(job._id)).toBe(succeeded ? 3 : 0);
    expect((await rows.columnRecords(job._id)).map((r) => r.targetIndex)).toEqual(succeeded ? [0] : []);
    const page = await d.catalog.results.page(final, 1, 10);
    expect(page.items).toEqual(succeeded ? items : []);
    expect(page.total).toBe(succeeded ? 3 : 0);
    await d.queues.close();
    await d.store.close();
  });

  it('a failed report after a partial write of the same target clears it', async () => {
    const d = await domainCatalog();
    const rows = new ResultRepository(d.store);
    const project = await d.catalog.projects.create(actor, 'p');
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a'] });
    // A worker wrote items, died before its report was recorded; the re-run fails.
    await d.catalog.results.replaceTarget(job._id, 0, searchRecords(1));
    await d.catalog.progress.reportTarget(job._id, 0, { status: 'failed', reason: 'blocked', items: [] });
    expect(await rows.countRows(job._id)).toBe(0);
    expect(await rows.columnRecords(job._id)).toEqual([]);
    await d.queues.close();
    await d.store.close();
  });
});
