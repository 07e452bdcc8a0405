import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness } from '../../testing/catalog-harness.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(testBackends())('projects routes ($name)', (backend) => {
  let h: CatalogHarness;
  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
  });
  afterAll(async () => {
    await h.close();
  });

  it('creates a project with the spec fields, trimmed name, ISO timestamps', async () => {
    const alice = h.user();
    const res = await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: '  Shoes  ' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['archived', 'createdAt', 'id', 'name', 'organizationId', 'updatedAt']);
    expect(res.body.data).toMatchObject({ name: 'Shoes', organizationId: alice.organizationId, archived: false });
    expect(res.body.data.createdAt).toMatch(ISO_UTC);
    expect(res.body.data.updatedAt).toMatch(ISO_UTC);
  });

  it.each([
    ['missing name', {}],
    ['blank name', { name: '   ' }],
    ['empty name', { name: '' }],
    ['number name', { name: 42 }],
    ['operator object', { name: { $ne: null } }],
    ['oversized name', { name: 'x'.repeat(121) }],
    ['extra property', { name: 'ok', organizationId: 'org_evil' }],
  ])('rejects %s with 400 VALIDATION_ERROR', async (_label, body) => {
    const alice = h.user();
    const res = await h.request({ method: 'POST', url: '/projects', token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    const list = await h.request({ method: 'GET', url: '/projects', token: alice.token });
    expect(list.body.data).toEqual([]);
  });

  it('rejects malformed JSON with 400', async () => {
    const alice = h.user();
    const res = await h.request({ method: 'POST', url: '/projects', token: alice.token, payload: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('requires a caller', async () => {
    const res = await h.request({ method: 'GET', url: '/projects' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('lists only the organization projects and filters by archived', async () => {
    const alice = h.user();
    const bob = h.user();
    const a1 = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'a1' } })).body.data;
    h.clock.advance(1000);
    const a2 = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'a2' } })).body.data;
    await h.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'b1' } });
    const archived = await h.request({ method: 'PATCH', url: `/projects/${a1.id}`, token: alice.token, body: { archived: true } });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ id: a1.id, archived: true, name: 'a1' });

    const all = await h.request({ method: 'GET', url: '/projects', token: alice.token });
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([a2.id, a1.id]);
    const onlyArchived = await h.request({ method: 'GET', url: '/projects?archived=true', token: alice.token });
    expect(onlyArchived.body.data.map((p: { id: string }) => p.id)).toEqual([a1.id]);
    const active = await h.request({ method: 'GET', url: '/projects?archived=false', token: alice.token });
    expect(active.body.data.map((p: { id: string }) => p.id)).toEqual([a2.id]);
    const bad = await h.request({ method: 'GET', url: '/projects?archived=maybe', token: alice.token });
    expect(bad.status).toBe(400);
  });

  it('pages the list with limit and offset and says how many there are in meta.total', async () => {
    const alice = h.user();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.unshift((await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: `p${i}` } })).body.data.id);
      h.clock.advance(1000);
    }
    await h.request({ method: 'PATCH', url: `/projects/${ids[0]}`, token: alice.token, body: { archived: true } });
    const all = await h.request({ method: 'GET', url: '/projects', token: alice.token });
    expect(all.body.meta).toEqual({ total: 5, limit: 20, offset: 0 });
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual(ids);
    const page = await h.request({ method: 'GET', url: '/projects?limit=2&offset=1', token: alice.token });
    expect(page.body).toEqual({
      data: [expect.objectContaining({ id: ids[1] }), expect.objectContaining({ id: ids[2] })],
      meta: { total: 5, limit: 2, offset: 1 },
    });
    const active = await h.request({ method: 'GET', url: '/projects?archived=false&limit=1', token: alice.token });
    expect(active.body.meta).toEqual({ total: 4, limit: 1, offset: 0 });
    const capped = await h.request({ method: 'GET', url: '/projects?limit=5000', token: alice.token });
    expect(capped.body.meta.limit).toBe(100);
    // An unknown parameter (a cache-buster) is ignored, not refused.
    const busted = await h.request({ method: 'GET', url: '/projects?_=1700000000000&foo=bar', token: alice.token });
    expect(busted.status).toBe(200);
    expect(busted.body.meta.total).toBe(5);
  });

  it('says which property a PATCH needs when the body is empty', async () => {
    const alice = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data;
    const res = await h.request({ method: 'PATCH', url: `/projects/${project.id}`, token: alice.token, body: {} });
    expect(res.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'body must have at least one property',
      details: ['body must have at least one property'],
    });
  });

  it('updates name and archived, returning the project with a new updatedAt', async () => {
    const alice = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'before' } })).body.data;
    h.clock.advance(5000);
    const res = await h.request({ method: 'PATCH', url: `/projects/${project.id}`, token: alice.token, body: { name: ' after ', archived: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: project.id, name: 'after', archived: true, createdAt: project.createdAt });
    expect(res.body.data.updatedAt > project.updatedAt).toBe(true);
    const unarchived = await h.request({ method: 'PATCH', url: `/projects/${project.id}`, token: alice.token, body: { archived: false } });
    expect(unarchived.body.data.archived).toBe(false);
  });

  it.each([
    ['empty body', {}],
    ['archived as string', { archived: 'yes' }],
    ['name operator', { name: { $gt: '' } }],
    ['blank name', { name: ' ' }],
    ['unknown field', { organizationId: 'x' }],
  ])('PATCH rejects %s', async (_label, body) => {
    const alice = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data;
    const res = await h.request({ method: 'PATCH', url: `/projects/${project.id}`, token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it("answers 404 for another organization's project exactly like an unknown id", async () => {
    const alice = h.user();
    const mallory = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'secret' } })).body.data;
    const foreign = await h.request({ method: 'PATCH', url: `/projects/${project.id}`, token: mallory.token, body: { name: 'pwned' } });
    const unknown = await h.request({ method: 'PATCH', url: '/projects/prj_doesnotexist', token: mallory.token, body: { name: 'pwned' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    const check = await h.request({ method: 'GET', url: '/projects', token: alice.token });
    expect(check.body.data[0].name).toBe('secret');
    const malloryList = await h.request({ method: 'GET', url: '/projects', token: mallory.token });
    expect(malloryList.body.data).toEqual([]);
  });

  it('records project create and update in the audit log with the request id', async () => {
    const alice = h.user();
    const created = await h.request({
      method: 'POST',
      url: '/projects',
      token: alice.token,
      body: { name: 'audited' },
      headers: { 'x-request-id': 'req-proj-1' },
    });
    h.clock.advance(1000);
    await h.request({ method: 'PATCH', url: `/projects/${created.body.data.id}`, token: alice.token, body: { archived: true } });
    const audit = await h.request({ method: 'GET', url: '/audit', token: alice.token });
    expect(audit.status).toBe(200);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['project.update', 'project.create']);
    expect(audit.body.data[1]).toMatchObject({
      actorUserId: alice.userId,
      resourceType: 'project',
      resourceId: created.body.data.id,
      organizationId: alice.organizationId,
    });
    expect(audit.body.meta.total).toBe(2);
  });
});
