import { afterEach, describe, expect, it } from 'vitest';
import { CrawlApiError, CrawlClient, type JobEvent, type JobUpdate } from '../src/index.ts';
import { envelope, job, type LocalServer, sendJson, sseFrame, startLocalServer } from './local-server.ts';

const a = { value: 'a', status: 'pending' };
const b = { value: 'b', status: 'pending' };

describe('job event stream (Server-Sent Events over fetch)', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads job, target and end events split across chunks, skipping heartbeats and unknown events', async () => {
    const stream =
      'retry: 3000\n\n' +
      sseFrame(1, 'job', job('running', [a, b], { queue: { position: 0, targetsAhead: 0, etaSeconds: 2 } })) +
      ': keep-alive\n\n' +
      sseFrame(2, 'target', {
        jobId: 'job_1',
        index: 0,
        target: { value: 'a', status: 'success', resultCount: 3 },
        progress: { total: 2, done: 1, failed: 0, pending: 1 },
      }) +
      sseFrame(3, 'future-kind', { anything: true }) +
      sseFrame(4, 'target', {
        jobId: 'job_1',
        index: 1,
        target: { value: 'b', status: 'failed', reason: 'blocked' },
        progress: { total: 2, done: 1, failed: 1, pending: 0 },
      }) +
      sseFrame(
        5,
        'end',
        job('completed', [
          { value: 'a', status: 'success' },
          { value: 'b', status: 'failed' },
        ]),
      );
    server = await startLocalServer(async (req, res) => {
      expect(req.headers.accept).toBe('text/event-stream');
      expect(req.headers.authorization).toBe('Bearer t0ken');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      // Odd chunk boundaries: mid-line, mid-field, mid-UTF-8 is not needed for JSON ASCII.
      for (let i = 0; i < stream.length; i += 37) {
        res.write(stream.slice(i, i + 37));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't0ken' });
    const events: JobEvent[] = [];
    for await (const event of crawl.jobs.events('job_1')) events.push(event);
    expect(events.map((e) => [e.type, e.id])).toEqual([
      ['job', '1'],
      ['target', '2'],
      ['target', '4'],
      ['end', '5'],
    ]);
    const first = events[0] as Extract<JobEvent, { type: 'job' }>;
    expect(first.job.queue).toEqual({ position: 0, targetsAhead: 0, etaSeconds: 2 });
    const failed = events[2] as Extract<JobEvent, { type: 'target' }>;
    expect(failed.target).toEqual({ value: 'b', status: 'failed', reason: 'blocked' });
    expect(failed.progress).toEqual({ total: 2, done: 1, failed: 1, pending: 0 });
  });

  it('reconnects with Last-Event-ID after a dropped connection, and wait() reports every step', async () => {
    let connections = 0;
    server = await startLocalServer((req, res) => {
      connections++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections === 1) {
        expect(req.headers['last-event-id']).toBeUndefined();
        res.write('retry: 20\n\n');
        res.write(sseFrame(1, 'job', job('running', [a, b])));
        res.write(
          sseFrame(2, 'target', {
            jobId: 'job_1',
            index: 0,
            target: { value: 'a', status: 'success' },
            progress: { total: 2, done: 1, failed: 0, pending: 1 },
          }),
        );
        // The connection breaks before the job ends.
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      expect(req.headers['last-event-id']).toBe('2');
      res.write(
        sseFrame(3, 'target', { jobId: 'job_1', index: 1, target: { value: 'b', status: 'success' }, progress: { total: 2, done: 2, failed: 0, pending: 0 } }),
      );
      res.end(
        sseFrame(
          4,
          'end',
          job(
            'completed',
            [
              { value: 'a', status: 'success' },
              { value: 'b', status: 'success' },
            ],
            { resultCount: 7 },
          ),
        ),
      );
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't' });
    const updates: JobUpdate[] = [];
    const done = await crawl.jobs.wait('job_1', { onProgress: (u) => updates.push(u) });
    expect(connections).toBe(2);
    expect(done.status).toBe('completed');
    expect(done.resultCount).toBe(7);
    expect(updates.map((u) => [u.source, u.job.status, u.progress.done, u.progress.pending])).toEqual([
      ['events', 'running', 0, 2],
      ['events', 'running', 1, 1],
      ['events', 'running', 2, 0],
      ['events', 'completed', 2, 0],
    ]);
    // The target event updated the job's copy of that target.
    expect(updates[1]?.job.targets[0]?.status).toBe('success');
  });

  it('falls back to polling GET /jobs/:id when the server has no event stream (404)', async () => {
    let polls = 0;
    server = await startLocalServer((req, res) => {
      if (req.url === '/jobs/job_1/events') return sendJson(res, 404, envelope('NOT_FOUND', 'Route GET:/jobs/job_1/events not found'));
      if (req.url === '/jobs/job_1') {
        polls++;
        const status = polls < 3 ? 'running' : 'completed';
        // Variant B: plain string targets.
        return sendJson(res, 200, { data: job(status, ['a', 'b'] as never) });
      }
      sendJson(res, 404, envelope('NOT_FOUND', 'nope'));
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't' });
    const updates: JobUpdate[] = [];
    const done = await crawl.jobs.wait('job_1', { pollIntervalMs: 10, onProgress: (u) => updates.push(u) });
    expect(done.status).toBe('completed');
    expect(done.targets).toEqual([
      { value: 'a', status: 'success' },
      { value: 'b', status: 'success' },
    ]);
    // One update per change, not per poll; the first read told the 404 of a missing route from a missing job.
    expect(updates.map((u) => [u.source, u.job.status])).toEqual([
      ['polling', 'running'],
      ['polling', 'completed'],
    ]);
    expect(polls).toBe(3);
  });

  it('an unknown job is NOT_FOUND whether or not the server has the stream', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 404, envelope('NOT_FOUND', 'Job not found'), { 'x-request-id': 'req-9' }));
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't' });
    const error = await crawl.jobs.wait('job_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlApiError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, message: 'Job not found', requestId: 'req-9' });
  });
});
