import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlApiError, CrawlClient, type JobUpdate } from '@crawl/sdk';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';

describe('the SDK against a running all-in-one (marketplace simulator)', () => {
  let api: ListeningService;
  let crawl: CrawlClient;
  let projectId: string;
  const email = `sdk-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'a-long-enough-password';

  beforeAll(async () => {
    api = await startListeningAllInOne();
    crawl = new CrawlClient({ baseUrl: api.url });
    const session = await crawl.auth.register({ email, password, name: 'SDK' });
    expect(session.user.email).toBe(email);
    projectId = (await crawl.projects.create({ name: 'SDK demo' })).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('logs in, reads the caller and the health report', async () => {
    const fresh = new CrawlClient({ baseUrl: api.url });
    await expect(fresh.auth.login({ email, password: 'wrong-password' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });
    await fresh.auth.login({ email, password });
    expect((await fresh.auth.me()).user.email).toBe(email);
    expect((await fresh.health()).status).toBe('ok');
  });

  it('creates a job, waits for it with progress, pages its results and streams its CSV export', async () => {
    const job = await crawl.jobs.create(projectId, { type: 'search', targets: ['wireless headphones', 'usb-c cable'] });
    expect(job.status).toBe('queued');
    expect(job.targets.map((t) => t.value)).toEqual(['wireless headphones', 'usb-c cable']);

    const updates: JobUpdate[] = [];
    const done = await crawl.jobs.wait(job.id, { timeoutMs: 30_000, pollIntervalMs: 100, onProgress: (u) => updates.push(u) });
    expect(done.status).toBe('completed');
    expect(done.resultCount).toBeGreaterThan(0);
    const last = updates.at(-1);
    expect(last?.job.status).toBe('completed');
    expect(last?.progress).toEqual({ total: 2, done: 2, failed: 0, pending: 0 });
    expect(done.charges).toEqual({ chargedTargets: 2, unchargedTargets: 0 });
    expect(done.targets.map((t) => t.charged)).toEqual([true, true]);

    const items = [];
    for await (const item of crawl.jobs.results(job.id, { pageSize: 7 })) items.push(item);
    expect(items).toHaveLength(done.resultCount);
    expect(items[0]).toHaveProperty('asin');

    const download = await crawl.jobs.export(job.id, { format: 'csv' });
    expect(download.contentType).toMatch(/^text\/csv/);
    expect(download.fileName).toBe(`job-${job.id}.csv`);
    const csv = await new Response(download.stream).text();
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toMatch(/asin/);
    expect(lines.length).toBeGreaterThan(done.resultCount / 2);

    const page = await crawl.jobs.list(projectId, { status: 'completed' });
    expect(page.meta.total).toBeGreaterThanOrEqual(1);
    const all = [];
    for await (const listed of crawl.jobs.iterate(projectId)) all.push(listed.id);
    expect(all).toContain(job.id);
  });

  it("reports API errors typed, with the envelope's code, status and message", async () => {
    const missing = await crawl.jobs.get('job-that-does-not-exist').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CrawlApiError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((missing as CrawlApiError).requestId).toBeTruthy();
    const invalid = await crawl.jobs.create(projectId, { type: 'search', targets: [] }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect((invalid as CrawlApiError).message).toMatch(/at least (1|one)/);
    // wait() on a job that is not there: NOT_FOUND, whether the server streams events or not.
    await expect(crawl.jobs.wait('job-that-does-not-exist', { pollIntervalMs: 50 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('manages projects, schedules and webhooks, and reads usage and audit', async () => {
    const project = await crawl.projects.create({ name: 'to archive' });
    expect((await crawl.projects.archive(project.id)).archived).toBe(true);
    const active = await crawl.projects.list({ archived: false });
    expect(active.map((p) => p.id)).not.toContain(project.id);
    const every = [];
    for await (const p of crawl.projects.iterate()) every.push(p.id);
    expect(every).toEqual(expect.arrayContaining([projectId, project.id]));

    const schedule = await crawl.schedules.create(projectId, { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['laptop'] } });
    expect(schedule.enabled).toBe(true);
    expect((await crawl.schedules.disable(schedule.id)).enabled).toBe(false);
    expect((await crawl.schedules.list(projectId)).map((s) => s.id)).toContain(schedule.id);

    const hook = await crawl.webhooks.create(projectId, { url: 'http://127.0.0.1:9/hooks/crawl' });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await crawl.webhooks.list(projectId)).map((w) => w.id)).toEqual([hook.id]);
    await crawl.webhooks.delete(hook.id);
    expect(await crawl.webhooks.list(projectId)).toEqual([]);

    const usage = await crawl.usage();
    expect(usage.used.jobsThisMonth).toBeGreaterThanOrEqual(1);
    expect(usage.remaining.jobsPerMonth).toBe(usage.limits.jobsPerMonth - usage.used.jobsThisMonth);
    // The completed job's settlement (it may land just after the job reads as completed).
    await expect.poll(async () => (await crawl.usage()).charges, { timeout: 5000 }).toEqual({ chargedTargets: 2, unchargedTargets: 0 });
    const today = (await crawl.dailyCredits()).days.find((day) => day.chargedTargets > 0);
    expect(today).toMatchObject({ chargedTargets: 2, unchargedTargets: 0, spent: 10 });

    const actions = [];
    for await (const event of crawl.audit.iterate()) actions.push(event.action);
    expect(actions).toEqual(expect.arrayContaining(['project.create', 'job.create', 'schedule.create']));
  });
});
