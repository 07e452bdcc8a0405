/**
 * Target lists end to end, in each run mode (run-modes.ts): a user uploads a plain-text list as a
 * stream of no announced size and a CSV list through the public API (in the split modes through
 * the gateway, which forwards the upload to catalog as it arrives), reads them back, and runs a
 * details job from one against the simulator. A list of 100,000 ASINs, over the gateway's limit
 * for JSON bodies, goes through whole; an upload past the route's size is refused with 413.
 */
import type { Job, JobResults, Project, TargetList, TargetListUpload, TargetListWithTargets } from '@crawl/contracts';
import { CATEGORIES, createSimulator, makeCatalogAsin, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from './http-call.ts';
import { runModes, type RunningService } from './run-modes.ts';

const SECRET = 'target-lists-e2e-secret-that-is-long-enough-0123456';
const TERMINAL = ['completed', 'failed', 'cancelled'];
const WAIT = { timeout: 60_000, interval: 100 };

/** Text sent as a stream of no announced size, a chunk every `perChunk` lines. */
function streamOf(lines: readonly string[], perChunk = 2_000): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next >= lines.length) return controller.close();
      controller.enqueue(encoder.encode(`${lines.slice(next, next + perChunk).join('\n')}\n`));
      next += perChunk;
    },
  });
}

const modes = await runModes();

describe.each(modes)('target lists end to end: $name', (mode) => {
  if (mode.skipReason) {
    it('needs its backends', (context) => {
      console.warn(`[target lists e2e: ${mode.name} skipped] ${mode.skipReason}`);
      context.skip(mode.skipReason);
    });
    return;
  }

  let sim: Simulator;
  let service: RunningService;
  let token: string;
  let projectId: string;
  const products = [0, 1, 2].map((n) => makeCatalogAsin(n % CATEGORIES.length, `target-lists-${n}`));

  const api = async <T>(method: string, path: string, body?: unknown) => {
    const res = await call(service.url, method, path, { token, body });
    return { status: res.status, data: res.body?.data as T, body: res.body };
  };
  async function upload(query: string, contentType: string, body: BodyInit) {
    const res = await fetch(`${service.url}/projects/${projectId}/target-lists?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  }
  async function explained(body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      console.error(`[target lists e2e: ${mode.name}] process output:\n${service.output()}`);
      throw error;
    }
  }

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 23 });
    service = await mode.start(sim, SECRET, {});
    const registered = await call(service.url, 'POST', '/auth/register', {
      body: { email: `target-lists-${Date.now()}@example.com`, password: 'a-long-enough-password' },
    });
    expect(registered.status).toBe(201);
    token = registered.body.accessToken;
    const project = await api<Project>('POST', '/projects', { name: 'Listed products' });
    expect(project.status).toBe(201);
    projectId = project.data.id;
  }, 150_000);

  afterAll(async () => {
    const codes = await service?.stop();
    await sim?.close();
    if (codes) expect(Object.entries(codes).filter(([, code]) => code !== 0)).toEqual([]);
  }, 60_000);

  it(
    'uploads a streamed plain-text list and runs a details job from it',
    () =>
      explained(async () => {
        const lines = [products[0], `https://www.amazon.com/dp/${products[1]}`, products[0], 'not an asin', products[2]] as string[];
        const uploaded = await upload('type=details&name=Watched', 'text/plain', streamOf(lines, 2));
        expect(uploaded.status, uploaded.text).toBe(201);
        const result = uploaded.body.data as TargetListUpload;
        expect(result.list).toMatchObject({ name: 'Watched', type: 'details', counts: { received: 5, accepted: 3, duplicates: 1, rejected: 1 } });
        expect(result.rejectedLines).toEqual([expect.objectContaining({ line: 4, value: 'not an asin' })]);

        const read = await api<TargetListWithTargets>('GET', `/target-lists/${result.list.id}`);
        expect(read.status).toBe(200);
        // Targets read back as uploaded; the job resolves them.
        expect(read.data.targets).toEqual([products[0], `https://www.amazon.com/dp/${products[1]}`, products[2]]);

        const created = await api<Job>('POST', `/projects/${projectId}/jobs`, { type: 'details', targetListId: result.list.id });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        let job: Job | undefined;
        await vi.waitFor(async () => {
          job = (await api<Job>('GET', `/jobs/${created.data.id}`)).data;
          expect(TERMINAL, JSON.stringify(job)).toContain(job?.status);
        }, WAIT);
        expect(job?.status).toBe('completed');
        const results = (await api<JobResults>('GET', `/jobs/${created.data.id}/results?pageSize=100`)).data;
        expect(results.items.map((item) => (item as { asin: string }).asin).sort()).toEqual([...products].sort());
      }),
    90_000,
  );

  it(
    'takes a CSV list by its named column, and 100,000 ASINs past the JSON body limit',
    () =>
      explained(async () => {
        const csv = await upload('type=details', 'text/csv', `note,asin\nfirst,${products[0]}\nsecond,${products[1]}\n`);
        expect(csv.status, csv.text).toBe(201);
        expect(csv.body.data.list.counts).toEqual({ received: 2, accepted: 2, duplicates: 0, rejected: 0 });

        const many = Array.from({ length: 100_000 }, (_, i) => `B${String(i).padStart(9, '0')}`);
        const big = await upload('type=details&name=Large', 'text/plain', streamOf(many));
        expect(big.status, big.text.slice(0, 500)).toBe(201);
        expect(big.body.data.list.counts).toEqual({ received: 100_000, accepted: 100_000, duplicates: 0, rejected: 0 });
        const last = await api<TargetListWithTargets>('GET', `/target-lists/${big.body.data.list.id}?offset=99998&limit=5`);
        expect(last.data.targets).toEqual(['B000099998', 'B000099999']);

        const listed = await api<TargetList[]>('GET', `/projects/${projectId}/target-lists`);
        expect(listed.data.map((list) => list.name)).toContain('Large');
        expect((await api('DELETE', `/target-lists/${big.body.data.list.id}`)).status).toBe(204);
        expect((await api('GET', `/target-lists/${big.body.data.list.id}`)).status).toBe(404);
      }),
    90_000,
  );

  it(
    'refuses an upload past 16 MiB with 413',
    () =>
      explained(async () => {
        // Long lines, so the size is passed well before the line limit (200,000).
        const lines = Array.from({ length: 6_000 }, (_, i) => `${i} ${'keyword '.repeat(370)}`);
        const refused = await upload('type=search', 'text/plain', streamOf(lines, 500));
        expect(refused.status).toBe(413);
        expect(refused.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      }),
    60_000,
  );
});
