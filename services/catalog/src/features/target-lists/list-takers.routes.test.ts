import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';

const monitorBody = (over: Record<string, unknown>) => ({
  name: 'Listed',
  type: 'details',
  domain: 'amazon.de',
  every: '1h',
  watch: ['price'],
  rules: [{ field: 'price', op: 'dropsBy', value: 10 }],
  ...over,
});

/** What else takes a list besides a job: the estimate route and monitors, by the same rules. */
describe.each(testBackends())('target lists in estimates and monitors ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  let smallId: string;
  let bigId: string;
  const upload = async (payload: string, query: string) => {
    const res = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/target-lists?${query}`,
      token: alice.token,
      payload,
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.list.id as string;
  };
  const post = (url: string, body: unknown) => h.request({ method: 'POST', url, token: alice.token, body });

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    h.billing.startingCredits = 1_000_000;
    alice = h.user();
    projectId = (await post('/projects', { name: 'takers' })).body.data.id;
    smallId = await upload('B000000001\nhttps://www.amazon.de/dp/B000000002\nB000000001\nB000000003\n', 'type=details');
    bigId = await upload(Array.from({ length: 1001 }, (_, i) => `B${String(i + 1).padStart(9, '0')}`).join('\n'), 'type=details');
  });
  afterAll(async () => {
    await h.close();
  });

  it("estimates a job over a list by the list's targets, and refuses a list past one job's limit", async () => {
    const estimate = await post(`/projects/${projectId}/jobs/estimate`, { type: 'details', targetListId: smallId });
    expect(estimate.status, estimate.text).toBe(200);
    expect(estimate.body.data).toMatchObject({ type: 'details', targetCount: 3 });
    const same = await post(`/projects/${projectId}/jobs/estimate`, { type: 'details', targets: ['B000000001', 'B000000002', 'B000000003'] });
    expect(estimate.body.data.credits).toBe(same.body.data.credits);

    const big = await post(`/projects/${projectId}/jobs/estimate`, { type: 'details', targetListId: bigId });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain('1001 targets');
    const otherType = await post(`/projects/${projectId}/jobs/estimate`, { type: 'search', targetListId: smallId });
    expect(otherType.status).toBe(400);
    expect(otherType.body.error.message).toContain('holds details targets');
  });

  it("creates a monitor over a list's targets (stored as ASINs) and changes them to another list's", async () => {
    const created = await post(`/projects/${projectId}/monitors`, monitorBody({ targetListId: smallId }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.targets).toEqual(['B000000001', 'B000000002', 'B000000003']);

    const other = await upload('B000000009\n', 'type=details');
    const updated = await h.request({ method: 'PATCH', url: `/monitors/${created.body.data.id}`, token: alice.token, body: { targetListId: other } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.targets).toEqual(['B000000009']);
  });

  it('refuses a monitor with both targets and a list, with neither, over a list of another type or past the limit', async () => {
    const both = await post(`/projects/${projectId}/monitors`, monitorBody({ targets: ['B000000001'], targetListId: smallId }));
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('not both');
    const neither = await post(`/projects/${projectId}/monitors`, monitorBody({}));
    expect(neither.status).toBe(400);
    expect(neither.body.error.message).toContain('targets or targetListId');
    const keywords = await upload('desk lamp\n', 'type=search');
    const otherType = await post(`/projects/${projectId}/monitors`, monitorBody({ targetListId: keywords }));
    expect(otherType.status).toBe(400);
    expect(otherType.body.error.message).toContain('holds search targets');
    const big = await post(`/projects/${projectId}/monitors`, monitorBody({ targetListId: bigId }));
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain('1001 targets');
    const unknown = await post(`/projects/${projectId}/monitors`, monitorBody({ targetListId: 'tl_missing' }));
    expect(unknown.status).toBe(400);
  });
});
