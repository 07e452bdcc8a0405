import { afterEach, describe, expect, it } from 'vitest';
import { CrawlApiError, CrawlClient, CrawlConnectionError, parseRetryAfter, type RetryEvent } from '../src/index.ts';
import { envelope, job, type LocalServer, sendJson, startLocalServer } from './local-server.ts';

const user = { id: 'usr_1', email: 'ada@example.com', name: 'Ada' };
const session = { accessToken: 'tok-1', tokenType: 'Bearer', expiresIn: 604800, user };

describe('requests, retries and errors', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('waits the Retry-After of a 429 and then succeeds', async () => {
    let calls = 0;
    server = await startLocalServer((_req, res) => {
      calls++;
      if (calls === 1) return sendJson(res, 429, envelope('RATE_LIMIT_EXCEEDED', 'Too many requests'), { 'retry-after': '1' });
      sendJson(res, 201, { data: job('queued', [{ value: 'x', status: 'pending' }]) });
    });
    const retries: RetryEvent[] = [];
    const crawl = new CrawlClient({ baseUrl: `${server.url}/`, token: 't', onRetry: (e) => retries.push(e) });
    const started = Date.now();
    // A POST: 429 means the request was not handled, so even a create is sent again.
    const created = await crawl.jobs.create('prj_1', { type: 'search', targets: ['x'] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(created.status).toBe('queued');
    expect(calls).toBe(2);
    expect(retries).toEqual([{ attempt: 1, delayMs: 1000, status: 429, method: 'POST', url: `${server.url}/projects/prj_1/jobs` }]);
  });

  it('retries a 503 on a read with backoff, but never repeats a POST after a 503', async () => {
    let reads = 0;
    server = await startLocalServer((req, res) => {
      if (req.method === 'POST') return sendJson(res, 503, envelope('SERVICE_UNAVAILABLE', 'catalog is unavailable'), { 'retry-after': '0' });
      reads++;
      if (reads < 3) return sendJson(res, 503, envelope('SERVICE_UNAVAILABLE', 'catalog is unavailable'));
      sendJson(res, 200, { data: job('running', [{ value: 'x', status: 'running' }]) });
    });
    const crawl = new CrawlClient({ baseUrl: server.url, retry: { baseDelayMs: 5 } });
    expect((await crawl.jobs.get('job_1')).status).toBe('running');
    expect(reads).toBe(3);
    const error = await crawl.jobs.retry('job_1').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterMs: 0 });
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('gives up at once when Retry-After is longer than it will wait, and after the retry budget', async () => {
    server = await startLocalServer((req, res) =>
      sendJson(res, 429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': req.url === '/usage' ? '3600' : '0' }),
    );
    const crawl = new CrawlClient({ baseUrl: server.url, retry: { retries: 2 } });
    await expect(crawl.usage()).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429, retryAfterMs: 3_600_000 });
    expect(server.requests).toHaveLength(1);
    await expect(crawl.projects.list()).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(server.requests).toHaveLength(1 + 3);
  });

  it('turns the error envelope into a typed error with code, status, details and request id', async () => {
    server = await startLocalServer((_req, res) =>
      sendJson(res, 400, envelope('VALIDATION_ERROR', 'targets must contain at least 1 element', ['targets must contain at least 1 element']), {
        'x-request-id': 'req-42',
      }),
    );
    const crawl = new CrawlClient({ baseUrl: server.url });
    const error = await crawl.jobs.create('prj_1', { type: 'search', targets: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlApiError);
    expect(error).toMatchObject({
      name: 'CrawlApiError',
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'targets must contain at least 1 element',
      details: ['targets must contain at least 1 element'],
      requestId: 'req-42',
    });
  });

  it('an answer without the envelope still gets the generic code of its status', async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    const error = await new CrawlClient({ baseUrl: server.url }).jobs.get('x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', status: 502, message: 'HTTP 502 Bad Gateway', details: [] });
  });

  it('a refused connection is a CrawlConnectionError naming the URL', async () => {
    server = await startLocalServer((_req, res) => {
      res.end();
    });
    const url = server.url;
    await server.close();
    server = undefined;
    const error = await new CrawlClient({ baseUrl: url }).health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlConnectionError);
    expect((error as Error).message).toContain(`could not reach ${url}/health`);
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('5')).toBe(5000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('documented response variants', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads a session at the top level or under data, and keeps its token for the next calls', async () => {
    server = await startLocalServer((req, res) => {
      if (req.url === '/auth/login') return sendJson(res, 200, { data: session });
      if (req.url === '/auth/register') return sendJson(res, 201, { ...session, accessToken: 'tok-2' });
      sendJson(res, 200, { data: { user, organizationId: 'org_1', role: 'user' } });
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    expect(await crawl.auth.login({ email: user.email, password: 'pw' })).toEqual(session);
    expect(crawl.token).toBe('tok-1');
    await crawl.auth.me();
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer tok-1');
    expect((await crawl.auth.register({ email: user.email, password: 'a-long-password' })).accessToken).toBe('tok-2');
    expect(crawl.token).toBe('tok-2');
  });

  it('bad credentials throw in both documented shapes: 401 INVALID_CREDENTIALS and 200 {success: false}', async () => {
    server = await startLocalServer((req, res) => {
      if (req.headers['x-variant'] === 'a') return sendJson(res, 200, envelope('UNAUTHORIZED', 'Invalid email or password'));
      sendJson(res, 401, envelope('INVALID_CREDENTIALS', 'Invalid email or password'));
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    await expect(crawl.auth.login({ email: 'a@b.c', password: 'x' }, { headers: { 'x-variant': 'a' } })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      status: 200,
    });
    await expect(crawl.auth.login({ email: 'a@b.c', password: 'x' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });
    expect(crawl.token).toBeUndefined();
  });

  it('reads job targets as objects (variant A) or plain strings (variant B)', async () => {
    server = await startLocalServer((req, res) =>
      sendJson(res, 200, {
        data: req.url === '/jobs/a' ? job('queued', [{ value: 'x', status: 'pending' }]) : job('queued', ['x', 'y'] as never),
      }),
    );
    const crawl = new CrawlClient({ baseUrl: server.url });
    expect((await crawl.jobs.get('a')).targets).toEqual([{ value: 'x', status: 'pending' }]);
    expect((await crawl.jobs.get('b')).targets).toEqual([
      { value: 'x', status: 'pending' },
      { value: 'y', status: 'pending' },
    ]);
  });

  it('health returns the report on 503 as well as on 200', async () => {
    const report = { status: 'error', info: { api: { status: 'up' } }, error: { mongo: { status: 'down', message: 'x' } }, details: {} };
    server = await startLocalServer((_req, res) => sendJson(res, 503, report));
    expect(await new CrawlClient({ baseUrl: server.url }).health()).toEqual(report);
    expect(server.requests).toHaveLength(1);
  });
});
