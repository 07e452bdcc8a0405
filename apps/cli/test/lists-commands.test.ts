import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, sendJson, type StubApi, startStubApi } from './cli-harness.ts';

const list = (extra: Record<string, unknown> = {}) => ({
  id: 'tl_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  name: 'Watched',
  type: 'details',
  counts: { received: 4, accepted: 2, duplicates: 1, rejected: 1 },
  pageCount: 1,
  createdAt: '2026-03-01T00:00:00.000Z',
  ...extra,
});

const job = {
  id: 'job_1',
  projectId: 'prj_1',
  type: 'details',
  status: 'queued',
  targets: [{ value: 'B0SIM00001', status: 'pending' }],
  creditsReserved: 2,
};

function fileWith(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'crawl-lists-')), name);
  writeFileSync(path, text);
  return path;
}

describe('crawl lists', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('upload: streams the file as plain text with the type and name, and prints the counts and refused lines', async () => {
    const seen: Array<{ contentType?: string; transferEncoding?: string }> = [];
    api = await startStubApi((_request, res, raw) => {
      seen.push({ contentType: raw.headers['content-type'], transferEncoding: raw.headers['transfer-encoding'] });
      sendJson(res, 201, { data: { list: list(), rejectedLines: [{ line: 3, value: 'not an asin', reason: 'is not a valid ASIN or product URL' }] } });
    });
    const file = fileWith('asins.txt', 'B0SIM00001\nB0SIM00002\nnot an asin\nB0SIM00001\n');
    const run = await runCli(['lists', 'upload', file, '--type', 'details', '--name', 'Watched', '--project', 'prj_1'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      path: '/projects/prj_1/target-lists',
      query: { type: 'details', name: 'Watched' },
      body: 'B0SIM00001\nB0SIM00002\nnot an asin\nB0SIM00001\n',
    });
    expect(seen[0]).toEqual({ contentType: 'text/plain; charset=utf-8', transferEncoding: 'chunked' });
    expect(run.stdout).toContain('Uploaded target list tl_1: 2 details target(s) accepted, 1 duplicate(s), 1 refused');
    expect(run.stdout).toContain('line 3: "not an asin" is not a valid ASIN or product URL');
    expect(run.stdout).toContain('crawl jobs create --type details --list tl_1');
  });

  it('upload: sends a .csv file as CSV, and refuses a missing file or an unknown type before any request', async () => {
    const types: Array<string | undefined> = [];
    api = await startStubApi((_request, res, raw) => {
      types.push(raw.headers['content-type']);
      sendJson(res, 201, { data: { list: list(), rejectedLines: [] } });
    });
    const csv = fileWith('targets.csv', 'asin,note\nB0SIM00001,a\n');
    const run = await runCli(['lists', 'upload', csv, '--type', 'details', '--project', 'prj_1'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(types).toEqual(['text/csv']);
    expect(api.requests[0]?.body).toBe('asin,note\nB0SIM00001,a\n');

    const missing = await runCli(['lists', 'upload', join(tmpdir(), 'no-such-list.txt'), '--type', 'details', '--project', 'prj_1'], { baseUrl: api.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const badType = await runCli(['lists', 'upload', csv, '--type', 'nonsense', '--project', 'prj_1'], { baseUrl: api.url });
    expect(badType.code).toBe(2);
    expect(api.requests).toHaveLength(1);
  });

  it('list, get and delete call the list routes and show what they answer', async () => {
    api = await startStubApi((request, res) => {
      if (request.method === 'DELETE') return sendJson(res, 204, null);
      if (request.path === '/projects/prj_1/target-lists') return sendJson(res, 200, { data: [list()], meta: { total: 1, limit: 100, offset: 0 } });
      sendJson(res, 200, { data: { list: list(), targets: ['B0SIM00001', 'B0SIM00002'], meta: { total: 2, limit: 20, offset: 0 } } });
    });
    const listed = await runCli(['lists', 'list', '--project', 'prj_1'], { baseUrl: api.url });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/tl_1\s+Watched\s+details\s+2/);
    const got = await runCli(['lists', 'get', 'tl_1', '--limit', '20'], { baseUrl: api.url });
    expect(got.stdout).toContain('2 (of 4 lines: 1 duplicate(s), 1 refused)');
    expect(got.stdout).toContain('B0SIM00001\nB0SIM00002');
    const deleted = await runCli(['lists', 'delete', 'tl_1'], { baseUrl: api.url });
    expect(deleted.stdout).toContain('Deleted target list tl_1');
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /projects/prj_1/target-lists',
      'GET /target-lists/tl_1',
      'DELETE /target-lists/tl_1',
    ]);
  });
});

describe('crawl jobs create --list', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('creates the job from the list, and refuses --list with --target', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 201, { data: job }));
    const run = await runCli(['jobs', 'create', '--type', 'details', '--list', 'tl_1', '--project', 'prj_1'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: '/projects/prj_1/jobs', body: { type: 'details', targetListId: 'tl_1' } });
    const both = await runCli(['jobs', 'create', '--type', 'details', '--list', 'tl_1', '--target', 'B0SIM00001', '--project', 'prj_1'], { baseUrl: api.url });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
    expect(api.requests).toHaveLength(1);
  });
});
