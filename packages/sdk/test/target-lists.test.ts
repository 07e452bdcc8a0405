import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlApiError, CrawlClient, type TargetListUpload } from '../src/index.ts';
import { envelope, type LocalServer, sendJson, startLocalServer } from './local-server.ts';

const uploaded = (accepted: number): TargetListUpload => ({
  list: {
    id: 'tl_1',
    projectId: 'prj_1',
    name: 'Watched',
    type: 'details',
    counts: { received: accepted, accepted, duplicates: 0, rejected: 0 },
    createdAt: '2026-03-01T00:00:00.000Z',
  } as TargetListUpload['list'],
  rejectedLines: [],
});

interface Received {
  url: string;
  contentType: string | undefined;
  transferEncoding: string | undefined;
  body: string;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

describe('target lists', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** An API that takes uploads and answers the lines it got; `status` first, then 201. */
  async function api(statuses: number[] = []): Promise<{ crawl: CrawlClient; received: Received[] }> {
    const received: Received[] = [];
    server = await startLocalServer(async (req, res) => {
      const body = await bodyOf(req);
      received.push({ url: req.url ?? '', contentType: req.headers['content-type'], transferEncoding: req.headers['transfer-encoding'], body });
      const status = statuses.shift();
      if (status !== undefined) return sendJson(res, status, envelope('RATE_LIMITED', 'slow down'), { 'retry-after': '0' });
      sendJson(res, 201, { data: uploaded(body.split('\n').filter(Boolean).length) });
    });
    return { crawl: new CrawlClient({ baseUrl: server.url, token: 'tok' }), received };
  }

  it('streams a ReadableStream upload as plain text, with the type and name in the query', async () => {
    const { crawl, received } = await api();
    const encoder = new TextEncoder();
    const parts = ['B0SIM00001\n', 'B0SIM00002\n', 'B0SIM00003\n'];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
    });
    const result = await crawl.targetLists.upload('prj_1', { type: 'details', name: 'Watched' }, stream);
    expect(result.list.counts.accepted).toBe(3);
    expect(received[0]).toEqual({
      url: '/projects/prj_1/target-lists?type=details&name=Watched',
      contentType: 'text/plain; charset=utf-8',
      transferEncoding: 'chunked',
      body: 'B0SIM00001\nB0SIM00002\nB0SIM00003\n',
    });
  });

  it('sends a string or bytes whole, as CSV when asked, and retries a 429 only when the body can be sent again', async () => {
    const { crawl, received } = await api([429]);
    await crawl.targetLists.upload('prj_1', { type: 'details' }, 'asin\nB0SIM00001\n', { format: 'csv' });
    expect(received.map((r) => r.contentType)).toEqual(['text/csv', 'text/csv']);
    expect(received[1]?.body).toBe('asin\nB0SIM00001\n');

    const once = await api([429]);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('B0SIM00001\n'));
        controller.close();
      },
    });
    const refused = await once.crawl.targetLists.upload('prj_1', { type: 'details' }, stream).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CrawlApiError);
    expect((refused as CrawlApiError).status).toBe(429);
    expect(once.received).toHaveLength(1);
  });

  it('lists, reads a page of targets and deletes by the contract paths', async () => {
    const seen: string[] = [];
    server = await startLocalServer(async (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'DELETE') return void res.writeHead(204).end();
      if (req.url?.startsWith('/projects/')) return sendJson(res, 200, { data: [uploaded(1).list], meta: { total: 1, limit: 100, offset: 0 } });
      sendJson(res, 200, { data: { list: uploaded(2).list, targets: ['B0SIM00001', 'B0SIM00002'], meta: { total: 2, limit: 2, offset: 0 } } });
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 'tok' });
    const all = [];
    for await (const list of crawl.targetLists.iterate('prj_1')) all.push(list.id);
    expect(all).toEqual(['tl_1']);
    expect((await crawl.targetLists.get('tl_1', { limit: 2 })).targets).toEqual(['B0SIM00001', 'B0SIM00002']);
    await crawl.targetLists.delete('tl_1');
    expect(seen).toEqual(['GET /projects/prj_1/target-lists?limit=100&offset=0', 'GET /target-lists/tl_1?limit=2', 'DELETE /target-lists/tl_1']);
  });
});
