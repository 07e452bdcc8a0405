import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { CrawlerSettingsRepository } from './crawler-settings-repository.ts';

describeOnEachStore('CrawlerSettingsRepository', (open) => {
  let repo: CrawlerSettingsRepository;

  beforeEach(async () => {
    repo = new CrawlerSettingsRepository(await open());
  });

  it('has no rate until an admin saves one, then replaces it', async () => {
    expect(await repo.findUpstreamRate()).toBeNull();
    expect(await repo.saveUpstreamRate({ requestsPerMinute: 120, updatedAt: '2026-11-15T12:00:00.000Z', updatedBy: 'usr_admin' })).toMatchObject({
      requestsPerMinute: 120,
    });
    await repo.saveUpstreamRate({ requestsPerMinute: 90, updatedAt: '2026-11-15T12:05:00.000Z', updatedBy: 'usr_ops' });
    expect(await repo.findUpstreamRate()).toMatchObject({ requestsPerMinute: 90, updatedAt: '2026-11-15T12:05:00.000Z', updatedBy: 'usr_ops' });
  });
});
